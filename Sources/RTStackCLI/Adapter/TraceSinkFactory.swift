import Capture
import Dissector
import Runtime

/// `--trace`: every packet decoded with its hex dump on stderr, exactly as `decode --hex`.
struct TraceSinkFactory: PacketSinkFactory {
    let err: OutputStream

    func makeSink() -> PacketTap.Sink {
        let dissector = PacketDissector()
        let renderer = TextRenderer(hexDump: true)
        let err = self.err
        return { record in
            let p = dissector.dissect(record)
            err.append(text: { renderer.render(p, into: &$0) })
            err.flush()
        }
    }
}

/// `--capture FILE`: every packet appended as it passes (one write per record, so the file
/// is readable up to the last packet even after a crash).
struct CaptureSinkFactory: PacketSinkFactory {
    let path: String
    let err: OutputStream

    func makeSink() -> PacketTap.Sink {
        let writer: (any CaptureWriter)?
        do {
            writer = try CaptureWriterFactory.create(path: path)
        } catch {
            err.line("rtstack: --capture \(path): \(error)")
            writer = nil
        }
        var failed = false
        return { record in
            guard let w = writer, !failed else { return }
            do {
                try w.write(record)
            } catch {
                failed = true
                self.err.line("rtstack: --capture \(self.path): \(error); capture stopped")
            }
        }
    }
}
