// Shared by the three capture-reader harnesses (compiled only into them).
import Wire
import Capture

/// Reads every record of `bytes` and checks what any reader of any format must do:
/// terminate (each call moves forward or ends), keep a stream-ending error sticky, hand out
/// packets no longer than the input, and write each record back (btsnoop and pcap) into bytes
/// that read back as the same record.
func readCapture(_ bytes: [UInt8]) {
    var reader: CaptureReader
    do {
        reader = try CaptureReader(bytes: bytes)
    } catch {
        _ = error.description
        return
    }
    _ = reader.format.description
    var records: [CaptureRecord] = []
    var calls = 0
    while true {
        calls += 1
        invariant(calls <= bytes.count + 2, "more reads than input bytes: the reader does not advance")
        let before = reader.offset
        do {
            guard let record = try reader.next() else { break }
            invariant(record.packet.bytes.count <= bytes.count, "a record longer than the input")
            invariant(reader.offset > before, "a record read without moving forward")
            records.append(record)
        } catch {
            _ = error.description
            if error.endsStream {
                var again = reader
                let second: CaptureError?
                do { _ = try again.next(); second = nil } catch { second = error }
                invariant(second == error, "a stream-ending error is not sticky")
                break
            }
            invariant(reader.offset > before, "a skipped record did not move the reader forward")
        }
        for note in reader.takeNotes() { _ = note }
        invariant(reader.pendingNotes.count <= CaptureReader.maximumPendingNotes, "notes pile up")
    }
    invariant(reader.recordsReturned == records.count, "records returned count")

    // Written back in both writable formats, the records read back unchanged.
    var btsnoop = BtsnoopFormat.fileHeader()
    var pcap = PcapFormat.fileHeader()
    var inBtsnoop: [CaptureRecord] = []
    var inPcap: [CaptureRecord] = []
    for r in records {
        if (try? BtsnoopFormat.appendRecord(r, to: &btsnoop)) != nil { inBtsnoop.append(r) }
        if (try? PcapFormat.appendRecord(r, to: &pcap)) != nil { inPcap.append(r) }
    }
    compare(inBtsnoop, readBack: btsnoop, format: "btsnoop")
    compare(inPcap, readBack: pcap, format: "pcap")
}

private func compare(_ written: [CaptureRecord], readBack bytes: [UInt8], format: String) {
    var reader: CaptureReader
    do {
        reader = try CaptureReader(bytes: bytes)
    } catch {
        invariant(false, "a \(format) file written from records does not open: \(error)")
        return
    }
    for (i, w) in written.enumerated() {
        let r: CaptureRecord?
        do { r = try reader.next() } catch {
            invariant(false, "\(format) record \(i) written from a record does not read back: \(error)")
            return
        }
        guard let r else {
            invariant(false, "\(format) file ends after \(i) of \(written.count) records")
            return
        }
        invariant(r.packet == w.packet, "\(format) record \(i): packet changed")
        invariant(r.direction == w.direction, "\(format) record \(i): direction changed")
        invariant(r.timestampMicros == w.timestampMicros,
                  "\(format) record \(i): timestamp \(w.timestampMicros) read back as \(r.timestampMicros)")
    }
    invariant((try? reader.next()) == .some(nil), "\(format) file has more records than written")
}

/// The input as a file of the harness's format: inputs that do not start with the format's
/// magic get `header` in front, so the fuzzer spends its time on records.
func withHeader(_ bytes: [UInt8], magic: [[UInt8]], header: [UInt8]) -> [UInt8] {
    for m in magic where bytes.starts(with: m) { return bytes }
    return header + bytes
}
