import Testing
import Foundation
import Dissector
import Wire

/// The JSON view escapes what JSON needs escaped wherever it sits in a label or value (the
/// scan looks at eight bytes at a time, so position matters), and leaves the rest alone.
@Suite struct JSONTextTests {
    static let specials: [Character] = ["\"", "\\", "\n", "\r", "\t", "\u{01}", "\u{1F}"]

    @Test func labelsAndValuesRoundTripThroughJSON() throws {
        var p = DissectedPacket(index: 1, timestampMicros: 0, relativeTime: 1.5, direction: .controllerToHost,
                                type: .event, bytes: [0x0E, 0x00])
        var expected: [(String, String)] = []
        for length in [0, 1, 7, 8, 9, 15, 16, 17, 30] {
            for special in Self.specials {
                for position in Set([0, length / 2, max(0, length - 1)]) where position <= length {
                    var chars = Array(String(repeating: "a", count: length))
                    if length > 0 { chars[min(position, length - 1)] = special }
                    let value = String(chars) + "é"
                    expected.append(("L\(length)", value))
                    p.fields.add("L\(length)", value)
                }
            }
        }
        p.fields.add("plain label", "plain value")
        expected.append(("plain label", "plain value"))
        let line = JSONRenderer().render(p)
        let obj = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let fields = try #require(obj["fields"] as? [[String: Any]])
        #expect(fields.count == expected.count)
        for (field, (label, value)) in zip(fields, expected) {
            #expect(field["label"] as? String == label)
            #expect(field["value"] as? String == value)
            #expect(field["level"] as? Int == 0)
        }
        #expect(obj["time"] as? Double == 1.5)
    }

    @Test func timeIsFixedPointWithoutTrailingZeros() throws {
        for (t, text) in [(0.0, "0"), (2.0, "2"), (0.000001, "0.000001"), (12.5, "12.5"), (3.0102, "3.0102"), (-0.25, "-0.25")] {
            let p = DissectedPacket(index: 1, timestampMicros: 0, relativeTime: t, direction: .hostToController,
                                    type: .command, bytes: [])
            #expect(JSONRenderer().render(p).contains("\"time\":\(text),"))
        }
    }

    /// Every ASCII character, at every position of an 8-byte step, in one field among clean
    /// ones: the one scan over the whole field list must catch each one that needs escaping.
    @Test func everyASCIICharacterInAnOtherwiseCleanListRoundTrips() throws {
        for code in 1...0x7F {
            for pad in 0..<8 {
                var p = DissectedPacket(index: 1, timestampMicros: 0, relativeTime: 0, direction: .controllerToHost,
                                        type: .event, bytes: [0x0E, 0x00])
                p.fields.add("First", "0x0001")
                let value = String(repeating: "x", count: pad) + String(UnicodeScalar(UInt8(code))) + "y"
                p.fields.nested("Middle", value) { $0.add("Inner", "plain") }
                p.fields.add("Last", "end")
                let line = JSONRenderer().render(p)
                let obj = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "code \(code)")
                let fields = try #require(obj["fields"] as? [[String: Any]])
                #expect(fields.map { $0["value"] as? String } == ["0x0001", value, "plain", "end"], "code \(code) pad \(pad)")
            }
        }
    }
}
