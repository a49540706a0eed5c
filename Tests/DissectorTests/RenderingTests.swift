import Capture
import Dissector
import Foundation
import JSON
import Testing
import Wire

@Suite struct RenderingTests {
    /// A Handle Value Notification on a link (Core Spec Vol 4, Part E, §5.4.2 ACL header;
    /// Vol 3, Part A, §3.1 basic L2CAP header; Vol 3, Part F, §3.4.7.1 notification).
    static let notification: [UInt8] = [0x40, 0x20, 0x09, 0x00, 0x05, 0x00, 0x04, 0x00, 0x1B, 0x12, 0x00, 0x06, 0x48]

    func record(_ type: H4PacketType, _ bytes: [UInt8], _ dir: Direction = .controllerToHost, t: Int64 = 1_000_000) -> CaptureRecord {
        CaptureRecord(timestampMicros: t, direction: dir, packet: HCIPacket(type: type, bytes: bytes))
    }

    @Test func jsonLineHasTheDocumentedKeys() throws {
        let d = PacketDissector()
        let p = d.dissect(record(.acl, Self.notification))
        let line = JSONRenderer().render(p)
        let obj = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(obj["index"] as? Int == 1)
        #expect(obj["time"] as? Double == 0)
        #expect(obj["direction"] as? String == "rx")
        #expect(obj["type"] as? String == "acl")
        #expect(obj["name"] as? String == "ATT Handle Value Notification")
        #expect(obj["hex"] as? String == Hex.string(Self.notification))
        #expect(obj["handle"] as? Int == 0x40)
        let att = try #require(obj["att"] as? [String: Any])
        #expect(att["opcode"] as? Int == 0x1B)
        #expect(att["handle"] as? Int == 0x12)
        #expect(att["value"] as? String == "0648")
    }

    @Test func jsonEscapesControlCharacters() throws {
        var o = JSONObject()
        o.add("name", "a\"b\\c\nd\u{01}")
        let parsed = try JSONSerialization.jsonObject(with: Data(o.finished.utf8)) as? [String: String]
        #expect(parsed?["name"] == "a\"b\\c\nd\u{01}")
    }

    @Test func textHeadlineAndHexDump() {
        let d = PacketDissector()
        _ = d.dissect(record(.command, [0x03, 0x0C, 0x00], .hostToController, t: 500_000))
        let p = d.dissect(record(.acl, Self.notification, t: 1_750_000))
        let text = TextRenderer(hexDump: true).render(p)
        let lines = text.split(separator: "\n")
        #expect(lines[0] == "     2     1.250000 > ACL h=64 ATT Handle Value Notification (0x1B): handle 0x0012 value 06 48")
        #expect(text.contains("        0000: 40 20 09 00 05 00 04 00  1b 12 00 06 48"))
        #expect(text.hasSuffix("@ ..........H\n"))
    }

    @Test func fragmentedATTIsReassembledAcrossPackets() {
        let d = PacketDissector()
        // First fragment: PB 0b10, L2CAP length 5 announced, 3 bytes present.
        let first = d.dissect(record(.acl, [0x40, 0x20, 0x07, 0x00, 0x05, 0x00, 0x04, 0x00, 0x1B, 0x12, 0x00]))
        #expect(first.att == nil)
        // Continuation: PB 0b01.
        let second = d.dissect(record(.acl, [0x40, 0x10, 0x02, 0x00, 0x06, 0x48]))
        #expect(second.att?.opcode == 0x1B)
        #expect(second.att?.value.map(Array.init) == [0x06, 0x48])
        #expect(d.statistics.attNotifications == 1)
    }

    @Test func heartRateValueDecodedAfterDiscovery() {
        let d = PacketDissector()
        // Read By Type Request for 0x2803 (tx), response with one declaration: properties
        // notify (0x10), value handle 0x0012, UUID 0x2A37 (Vol 3, Part G, §3.3.1).
        _ = d.dissect(record(.acl, [0x40, 0x00, 0x0B, 0x00, 0x07, 0x00, 0x04, 0x00, 0x08, 0x01, 0x00, 0xFF, 0xFF, 0x03, 0x28], .hostToController))
        _ = d.dissect(record(.acl, [0x40, 0x20, 0x0D, 0x00, 0x09, 0x00, 0x04, 0x00, 0x09, 0x07, 0x11, 0x00, 0x10, 0x12, 0x00, 0x37, 0x2A]))
        let p = d.dissect(record(.acl, Self.notification))
        #expect(p.att?.characteristic == BluetoothUUID(0x2A37))
        #expect(p.att?.decodedValue?.hasPrefix("72 bpm") == true)
    }

    @Test func malformedPacketsAreCountedNotFatal() {
        let d = PacketDissector()
        let p = d.dissect(record(.event, [0x0E, 0x09, 0x01]))
        #expect(!p.errors.isEmpty)
        #expect(d.statistics.decodeErrors == 1)
    }

    @Test func filterTerms() throws {
        var f = PacketFilter()
        try f.add(term: "acl")
        try f.add(term: "att=notification")
        let d = PacketDissector()
        let n = d.dissect(record(.acl, Self.notification))
        let c = d.dissect(record(.command, [0x03, 0x0C, 0x00], .hostToController))
        #expect(f.accepts(n))
        #expect(!f.accepts(c))
        var h = PacketFilter()
        try h.add(term: "handle=0x41")
        #expect(!h.accepts(n))
        #expect(throws: FilterError.self) { var x = PacketFilter(); try x.add(term: "handle=zz") }
        #expect(throws: FilterError.self) { var x = PacketFilter(); try x.add(term: "colour=red") }
    }
}
