// libFuzzer harness: the dissector (Dissector/PacketDissector.swift) over arbitrary capture
// records, rendered as text (with and without hex dump) and as JSON Lines.
//
// Input: records, each [type/direction][time step][length: 2 bytes, capped at 1100] bytes…
//   type/direction: bits 0-2 the H4 packet type (1…5; others are taken mod 5), bit 3 received.
// Checks: no trap; each JSON line is one valid JSON value with no raw line break; the text
// form is one or more lines; the statistics count every packet.
import Wire
import Capture
import Dissector

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDissector(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let dissector = PacketDissector(collectFields: true)
    let text = TextRenderer(hexDump: false, showFields: true)
    let textHex = TextRenderer(hexDump: true, showFields: true)
    let json = JSONRenderer(includeFields: true)
    var time: Int64 = 1_700_000_000_000_000
    var count = 0
    while !input.isAtEnd {
        let selector = input.u8()
        time &+= Int64(input.u8()) * 1000
        let bytes = input.chunk16(limit: 1100)
        let type = H4PacketType(rawValue: 1 + (selector & 7) % 5) ?? .event
        let record = CaptureRecord(timestampMicros: time,
                                   direction: selector & 8 != 0 ? .controllerToHost : .hostToController,
                                   packet: HCIPacket(type: type, bytes: bytes), fileOffset: input.position)
        let p = dissector.dissect(record)
        count += 1
        let line = json.render(p)
        invariant(!line.utf8.contains(0x0A), "JSON line contains a line break")
        invariant(isValidJSON(line), "invalid JSON: \(line)")
        invariant(!text.render(p).isEmpty, "empty text rendering")
        _ = textHex.render(p)
        var filter = PacketFilter()
        try? filter.add(term: "acl")
        try? filter.add(term: "att=notification")
        _ = filter.accepts(p)
    }
    invariant(dissector.statistics.packets == count, "statistics count \(dissector.statistics.packets) of \(count) packets")
    dissector.noteCaptureError("fuzz end")
    return 0
}
