import Testing
import TestSupport
@testable import Wire

/// `TextBuffer` writes the same text as the `String` helpers it replaces on the decoder's
/// path, and `FieldList` keeps entries as the lines `rtstack decode` prints.
@Suite struct TextBufferTests {
    @Test func numbersMatchTheStringForms() {
        var rng = SplitMix64(seed: 0x7E47)
        for _ in 0..<2_000 {
            let v = Int(truncatingIfNeeded: rng.next()) >> rng.below(63)
            var t = TextBuffer()
            t.appendDecimal(v)
            #expect(t.string == String(v))
            let u = rng.next() >> UInt64(rng.below(64))
            let width = rng.below(18)
            var h = TextBuffer()
            h.appendHexNumber(u, width: width)
            #expect(h.string == Hex.number(u, width: width))
            var l = TextBuffer()
            l.appendLowerHexNumber(u, width: width)
            #expect(l.string == Hex.lowerNumber(u, width: width))
            var p = TextBuffer()
            p.appendParenthesizedHexNumber(u, width: width)
            #expect(p.string == " (" + Hex.number(u, width: width) + ")")
        }
    }

    @Test func paddedDecimalRightAligns() {
        var t = TextBuffer()
        t.appendDecimal(42, width: 6)
        t.appendDecimal(-7, width: 4)
        t.appendDecimal(1_234_567, width: 3)
        #expect(t.string == "    42  -71234567")
    }

    @Test func hexMatchesHexAndAddressMatchesBDAddress() {
        var rng = SplitMix64(seed: 0x4E58)
        for n in 0..<40 {
            let bytes = rng.bytes(n)
            var spaced = TextBuffer()
            spaced.appendSpacedHex(bytes[...])
            #expect(spaced.string == Hex.spaced(bytes))
            var compact = TextBuffer()
            compact.appendCompactHex(bytes.dropFirst(min(n, 1)))
            #expect(compact.string == Hex.string(bytes.dropFirst(min(n, 1))))
        }
        let wire: [UInt8] = [0x88, 0xDD, 0x74, 0x59, 0x36, 0x15]
        var a = TextBuffer()
        a.appendAddress(wireOrder: wire[...])
        #expect(a.string == BDAddress(littleEndian: wire[...])?.string)
    }

    @Test func uuidsMatchTheirStringForm() {
        var rng = SplitMix64(seed: 0x0515)
        var uuids = [BluetoothUUID(0x2A37), BluetoothUUID(0x180D)]
        for _ in 0..<200 { uuids.append(BluetoothUUID(high: rng.next(), low: rng.next())) }
        if let based32 = BluetoothUUID(string: "1234FEAA") { uuids.append(based32) }
        for u in uuids {
            var t = TextBuffer()
            t.append(u)
            #expect(t.string == u.string)
        }
    }

    @Test func appendsEveryLengthWhole() {
        let source = (0..<64).map { UInt8(0x41 + $0 % 26) }
        for n in 0...40 {
            var t = TextBuffer()
            t.append(byte: 0x3C)
            source.withUnsafeBufferPointer { t.append(bytes: UnsafeBufferPointer(rebasing: $0[3..<(3 + n)])) }
            t.append(byte: 0x3E)
            #expect(t.bytes == [0x3C] + source[3..<(3 + n)] + [0x3E])
        }
    }

    @Test func growsAndCopiesOnWrite() {
        var t = TextBuffer(capacity: 4)
        for i in 0..<1_000 { t.append(String(i % 10)) }
        #expect(t.count == 1_000)
        let copy = t
        t.append("tail")
        #expect(copy.count == 1_000)
        #expect(t.string.hasSuffix("9tail"))
        #expect(!copy.string.hasSuffix("tail"))
        t.removeLast(4)
        #expect(t.string == copy.string)
        t.removeAll()
        #expect(t.isEmpty && t.string.isEmpty)
    }

    @Test func fieldListKeepsPrintedLinesAndEntries() {
        var f = FieldList()
        f.add("Num reports") { $0.appendDecimal(1) }
        f.nested("Report 1") { f in
            f.add("Data", "01 02")
            f.add("Empty") { _ in }
        }
        let expected = """
                    Num reports: 1
                    Report 1
                      Data: 01 02
                      Empty

            """
        #expect(f.text.string == expected)
        #expect(f.entries == [
            .init(level: 0, label: "Num reports", value: "1"),
            .init(level: 0, label: "Report 1", value: ""),
            .init(level: 1, label: "Data", value: "01 02"),
            .init(level: 1, label: "Empty", value: ""),
        ])
        #expect(f.value(of: "Data") == "01 02")
        #expect(f.value(of: "Nothing") == nil)
        var outer = FieldList()
        outer.nested("Outer") { $0.append(f) }
        #expect(outer.entries.dropFirst().map(\.level) == [1, 1, 2, 2])
        f.removeAll()
        #expect(f.isEmpty && f.text.isEmpty)
    }
}

@Suite struct TextOccurrenceTests {
    @Test(arguments: [
        ("Zephyr Heartrate Sensor", "heart", false),
        ("Zephyr Heartrate Sensor", "Heart", true),
        ("abc", "", true),
        ("", "a", false),
        ("aaab", "aab", true),
        ("ab", "abc", false),
        ("Grüße", "üß", true),
        ("bond-01.tmp", ".tmp", true),
    ])
    func containsTextFindsByteForByte(_ hay: String, _ needle: String, _ expected: Bool) {
        #expect(hay.containsText(needle) == expected)
        // The same answer as the standard library's (which a static binary must not link).
        #expect(hay.containsText(needle) == (needle.isEmpty || hay.contains(needle)))
    }
}
