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
    // Every frame of a Linux monitor capture in file order: notes before the record after them.
    var frames: [MonitorFrame] = []
    if reader.format.isLinuxMonitor { reader.noteLimit = 1 << 20 }
    var calls = 0
    while true {
        calls += 1
        invariant(calls <= bytes.count + 2, "more reads than input bytes: the reader does not advance")
        let before = reader.offset
        do {
            guard let record = try reader.next() else {
                for note in reader.takeNotes() { if let f = note.monitorFrame { frames.append(f) } }
                break
            }
            for note in reader.takeNotes() { if let f = note.monitorFrame { frames.append(f) } }
            if reader.format.isLinuxMonitor { frames.append(MonitorFrame(record: record)) }
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
        for note in reader.takeNotes() { if let f = note.monitorFrame { frames.append(f) } }
        invariant(reader.pendingNotes.count <= reader.noteLimit, "notes pile up")
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

    // A monitor capture's frames, every opcode, written back as btsnoop 2001 and pcap 254.
    if reader.format.isLinuxMonitor {
        var monitorBtsnoop = BtsnoopFormat.fileHeader(datalink: BtsnoopFormat.datalinkMonitor)
        var monitorPcap = PcapFormat.fileHeader(linkType: PcapFormat.linkTypeLinuxMonitor)
        var inMonitorBtsnoop: [MonitorFrame] = []
        var inMonitorPcap: [MonitorFrame] = []
        for f in frames {
            if (try? BtsnoopFormat.appendMonitorRecord(f, to: &monitorBtsnoop)) != nil { inMonitorBtsnoop.append(f) }
            if (try? PcapFormat.appendMonitorRecord(f, to: &monitorPcap)) != nil { inMonitorPcap.append(f) }
            _ = try? MonitorMessage(f)
        }
        compareFrames(inMonitorBtsnoop, readBack: monitorBtsnoop, format: "btsnoop 2001")
        compareFrames(inMonitorPcap, readBack: monitorPcap, format: "pcap 254")
    }
}

/// Every frame written comes back in order: notes as notes, packets as records.
private func compareFrames(_ written: [MonitorFrame], readBack bytes: [UInt8], format: String) {
    guard var reader = try? CaptureReader(bytes: bytes) else {
        invariant(false, "a \(format) file written from frames does not open")
        return
    }
    reader.noteLimit = 1 << 20
    var read: [MonitorFrame] = []
    while true {
        let record: CaptureRecord?
        do { record = try reader.next() } catch {
            invariant(false, "\(format) written from frames does not read back: \(error)")
            return
        }
        for note in reader.takeNotes() { if let f = note.monitorFrame { read.append(f) } }
        guard let record else { break }
        read.append(MonitorFrame(record: record))
    }
    invariant(read.count == written.count, "\(format): \(written.count) frames written, \(read.count) read back")
    for (w, r) in zip(written, read) {
        invariant(w.opcode == r.opcode && w.adapterIndex == r.adapterIndex && w.timestampMicros == r.timestampMicros
                  && Array(w.payload) == Array(r.payload), "\(format): frame changed in a round trip")
    }
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
