import Testing
import Capture
import Dissector
import Wire

/// Repeated advertising reports are replayed from a memo of earlier decodings; what comes out
/// must be exactly what decoding them afresh gives, in text and JSON, whatever the mix.
@Suite struct RepeatedEventMemoTests {
    /// LE Advertising Report (§7.7.65.2) and LE Extended Advertising Report (§7.7.65.13)
    /// events: 40 advertisers with their own data, RSSI moving, names with quotes and
    /// control characters too.
    static func events(count: Int) -> [[UInt8]] {
        var out: [[UInt8]] = []
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17
            return seed
        }
        for i in 0..<count {
            let device = Int(next() % 40)
            let name = Array("dev \"\(device)\"\t".utf8)
            let data: [UInt8] = [0x02, 0x01, 0x06, UInt8(name.count + 1), 0x09] + name
                + [0x05, 0xFF, 0x4C, 0x00, UInt8(device), UInt8(i % 3)]
            let address: [UInt8] = [UInt8(device), 1, 2, 3, 4, 0xC0 | UInt8(device % 64)]
            let rssi = UInt8(bitPattern: Int8(-60 - Int(next() % 4)))
            if device % 4 == 0 {
                let params: [UInt8] = [0x0D, 0x01, 0x13, 0x00, 0x01] + address + [0x01, 0x00, 0xFF, 0x7F, rssi, 0, 0, 0]
                    + [UInt8](repeating: 0, count: 6) + [UInt8(data.count)] + data
                out.append([0x3E, UInt8(params.count)] + params)
            } else {
                let params: [UInt8] = [0x02, 0x01, 0x00, 0x01] + address + [UInt8(data.count)] + data + [rssi]
                out.append([0x3E, UInt8(params.count)] + params)
            }
        }
        return out
    }

    @Test func replayedDecodingsEqualFreshOnes() throws {
        let memoized = PacketDissector()
        let text = TextRenderer(hexDump: true)
        let json = JSONRenderer()
        var memo = JSONRenderer.FieldsMemo()
        var replayed = 0
        var ids = Set<Int>()
        for (i, bytes) in Self.events(count: 3000).enumerated() {
            let record = CaptureRecord(timestampMicros: 1_000_000 + Int64(i), direction: .controllerToHost,
                                       packet: HCIPacket(type: .event, bytes: bytes[...]))
            let p = memoized.dissect(record)
            // A fresh dissector has seen nothing: it decodes the packet itself.
            var fresh = PacketDissector().dissect(record)
            fresh.index = p.index
            fresh.relativeTime = p.relativeTime
            if let id = p.decodingID, !ids.insert(id).inserted { replayed += 1 }
            #expect(text.render(p) == text.render(fresh), "event \(i)")
            var a = TextBuffer()
            json.render(p, into: &a, memo: &memo)
            #expect(a.string == json.render(fresh), "event \(i)")
        }
        // 40 advertisers × 4 RSSI values × 3 data variants: most events repeat.
        #expect(replayed > 2400, "\(replayed) replayed")
    }

    @Test func reportsThatNeverRepeatStillDecodeTheSame() throws {
        // Every event different (the RSSI byte carries the index): the memo steps aside.
        let d = PacketDissector()
        for (i, var bytes) in Self.events(count: 5000).enumerated() {
            bytes[bytes.count - 1] = UInt8(truncatingIfNeeded: i)
            bytes[6] = UInt8(truncatingIfNeeded: i >> 8)
            let record = CaptureRecord(timestampMicros: Int64(i), direction: .controllerToHost,
                                       packet: HCIPacket(type: .event, bytes: bytes[...]))
            let p = d.dissect(record)
            var fresh = PacketDissector().dissect(record)
            fresh.index = p.index
            fresh.relativeTime = p.relativeTime
            #expect(TextRenderer().render(p) == TextRenderer().render(fresh), "event \(i)")
        }
    }
}
