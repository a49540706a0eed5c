import Capture
import Dissector
import Runtime

/// `--trace`: every packet decoded with its hex dump on stderr, as `decode --hex`, with key
/// material zeroed (`KeyRedaction`): a trace is pasted into bug reports.
struct TraceSinkFactory: PacketSinkFactory {
    let err: OutputStream

    func makeSink() -> PacketTap.Sink {
        let dissector = PacketDissector()
        let renderer = TextRenderer(hexDump: true)
        let err = self.err
        return { record in
            var record = record
            if let shown = KeyRedaction.redacted(record.packet) { record.packet = shown }
            let p = dissector.dissect(record)
            err.append(text: { renderer.render(p, into: &$0) })
            err.flush()
        }
    }
}

/// `--capture FILE`: every packet appended as it passes (one write per record, so the file
/// is readable up to the last packet even after a crash). It keeps what is on the wire, keys
/// included, unless `redactKeys` (`--capture-redact`).
struct CaptureSinkFactory: PacketSinkFactory {
    let path: String
    let err: OutputStream
    var redactKeys = false

    func makeSink() -> PacketTap.Sink {
        let writer: (any CaptureWriter)?
        do {
            writer = try CaptureWriterFactory.create(path: path)
        } catch {
            err.line("rtstack: --capture \(path): \(error)")
            writer = nil
        }
        var failed = false
        let redact = redactKeys
        return { record in
            guard let w = writer, !failed else { return }
            var record = record
            if redact, let shown = KeyRedaction.redacted(record.packet) { record.packet = shown }
            do {
                try w.write(record)
            } catch {
                failed = true
                self.err.line("rtstack: --capture \(self.path): \(error); capture stopped")
            }
        }
    }
}
