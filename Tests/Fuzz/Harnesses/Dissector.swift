// libFuzzer harness: the dissector (Dissector/PacketDissector.swift and its extensions: L2CAP
// credit-based channels and K-frames, EATT, SMP, monitor frames, the advertising memo) over
// arbitrary capture records, rendered as text (with and without hex dump) and as JSON Lines;
// the advertising summary over the same packets.
//
// Input: records, each [selector][time step][length: 2 bytes, capped at 1100] bytes…
//   selector bits 0-2: the H4 packet type (1…5; others are taken mod 5); bit 3: received;
//   bits 4-5: adapter index; bit 6: a Linux monitor frame without a packet instead, whose
//   opcode is the first byte of the bytes (mod 32) and whose payload is the rest.
// Two dissectors read the same records: one with the defaults, one that shows keys, names
// adapters, resolves advertisers and has GATT cache labels for two peers.
// Checks: no trap; each JSON line is one valid JSON value with no raw line break, and the same
// when written with the fields memo; the text form is one or more lines; the statistics
// count every packet; keys never show in the default dissector's output for SMP key PDUs.
import Wire
import Capture
import Dissector

private let labelledPeers: AttributeLabels = {
    var labels = AttributeLabels()
    for (text, type) in [("C1:00:00:00:00:01", LEAddressType.randomDevice), ("00:00:00:00:00:00", .publicDevice)] {
        if let a = BDAddress(string: text) {
            labels.add(peer: DeviceAddress(a, type: type),
                       types: [0x0003: BluetoothUUID(0x2A37), 0x0012: BluetoothUUID(0x2A37), 0x0013: BluetoothUUID(0x2902)])
        }
    }
    return labels
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDissector(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let plain = PacketDissector(collectFields: true)
    let rich = PacketDissector(collectFields: true, options: DissectorOptions(
        showKeys: true, labels: labelledPeers, showsAdapter: true, resolvesAdvertisers: true))
    let text = TextRenderer(hexDump: false, showFields: true)
    let textHex = TextRenderer(hexDump: true, showFields: true)
    let json = JSONRenderer(includeFields: true)
    var memo = JSONRenderer.FieldsMemo()
    var summary = AdvertisingSummary()
    var time: Int64 = 1_700_000_000_000_000
    var count = 0
    while !input.isAtEnd {
        let selector = input.u8()
        time &+= Int64(input.u8()) * 1000
        let bytes = input.chunk16(limit: 1100)
        let adapter = UInt16((selector >> 4) & 3)
        if selector & 0x40 != 0 {
            let frame = MonitorFrame(opcode: MonitorOpcode(UInt16((bytes.first ?? 0) & 31)), adapterIndex: adapter,
                                     timestampMicros: time, payload: bytes.dropFirst())
            if let record = frame.record {
                _ = plain.dissect(record)
                _ = rich.dissect(record)
                count += 1
                continue
            }
            for d in [plain, rich] {
                let n = d.dissect(monitor: frame)
                var line = TextBuffer()
                json.render(n, into: &line)
                invariant(!line.string.utf8.contains(0x0A), "JSON line of a monitor frame contains a line break")
                invariant(isValidJSON(line.string), "invalid JSON: \(line.string)")
                invariant(!text.render(n).isEmpty, "empty text rendering of a monitor frame")
                _ = textHex.render(n)
            }
            continue
        }
        let type = H4PacketType(rawValue: 1 + (selector & 7) % 5) ?? .event
        let record = CaptureRecord(timestampMicros: time,
                                   direction: selector & 8 != 0 ? .controllerToHost : .hostToController,
                                   packet: HCIPacket(type: type, bytes: bytes[...]), fileOffset: input.position,
                                   adapterIndex: adapter)
        count += 1
        for (i, d) in [plain, rich].enumerated() {
            let p = d.dissect(record)
            let line = json.render(p)
            invariant(!line.utf8.contains(0x0A), "JSON line contains a line break")
            invariant(isValidJSON(line), "invalid JSON: \(line)")
            // Reusing the fields array of an earlier packet with the same decoding changes nothing.
            var memoized = TextBuffer()
            json.render(p, into: &memoized, memo: &memo)
            invariant(memoized.string == line, "memoized JSON differs: \(memoized.string) vs \(line)")
            let rendered = text.render(p)
            invariant(!rendered.isEmpty, "empty text rendering")
            let hex = i == 0 ? textHex.render(p) : ""
            if i == 0, p.name == "SMP Encryption Information" || p.name == "SMP Identity Information"
                || p.name == "SMP Signing Information", let r = p.redactedBytes {
                // The key's 16 octets must not show in the default (redacting) dissector's output.
                let key = Hex.spaced(p.bytes.dropFirst(r.lowerBound).prefix(r.count))
                invariant(p.bytes.dropFirst(r.lowerBound).prefix(r.count).allSatisfy({ $0 == 0 })
                          || (!rendered.contains(key) && !hex.contains(key)), "key shown without --show-keys: \(rendered)")
            }
            summary.add(p)
        }
        var filter = PacketFilter()
        try? filter.add(term: "acl")
        try? filter.add(term: "att=notification")
        try? filter.add(term: "peer=C1:00:00:00:00:01")
        try? filter.add(term: "index=1")
    }
    invariant(plain.statistics.packets == count, "statistics count \(plain.statistics.packets) of \(count) packets")
    invariant(rich.statistics.packets == count, "statistics count \(rich.statistics.packets) of \(count) packets")
    invariant(isValidJSON(summary.json.finished), "invalid advertising summary JSON")
    _ = summary.text
    plain.noteCaptureError("fuzz end")
    return 0
}
