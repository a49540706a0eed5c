/// Text forms shared by the command descriptions, so every command shows a value the same way
/// (btmon's conventions: durations also in milliseconds, enumerations as `Name (0x01)`).
enum HCICommandFormat {
    /// Spec time units in microseconds.
    static let unit0_625ms = 625
    static let unit1_25ms = 1_250
    static let unit10ms = 10_000
    static let unit1_28s = 1_280_000

    static func handle(_ h: UInt16) -> String { Hex.number(h, width: 4) }

    static func hex(_ v: UInt8) -> String { Hex.number(v, width: 2) }
    static func hex(_ v: UInt16) -> String { Hex.number(v, width: 4) }
    static func hex(_ v: UInt64) -> String { Hex.number(v, width: 16) }

    /// `Active (0x01)`.
    static func named(_ name: String, _ raw: UInt8) -> String { name + " (" + hex(raw) + ")" }

    static func named(_ name: String, _ raw: UInt16) -> String { name + " (" + hex(raw) + ")" }

    /// `0x0010 (10.00 ms)` for a count of `unitMicros`-microsecond units.
    static func duration(_ raw: UInt16, unitMicros: Int) -> String {
        var t = TextBuffer(capacity: 32)
        appendDuration(raw, unitMicros: unitMicros, to: &t)
        return t.string
    }

    static func appendDuration(_ raw: UInt16, unitMicros: Int, to t: inout TextBuffer) {
        t.appendHexNumber(raw, width: 4)
        t.append(" (")
        appendMilliseconds(Int(raw) * unitMicros, to: &t)
        t.append(byte: 0x29)
    }

    /// `10.00 ms`, or `10.625 ms` when the value needs the third decimal; never rounded.
    /// (Written into a buffer: counting and trimming the digits as `String`s cost thousands
    /// of instructions per value, for every connection-parameter line.)
    static func milliseconds(_ micros: Int) -> String {
        var t = TextBuffer(capacity: 24)
        appendMilliseconds(micros, to: &t)
        return t.string
    }

    static func appendMilliseconds(_ micros: Int, to t: inout TextBuffer) {
        let whole = micros / 1000
        let frac = (micros % 1000).magnitude
        t.appendDecimal(whole)
        t.append(byte: 0x2E)
        if frac % 10 == 0 {
            t.appendDecimal(magnitude: UInt64(frac / 10), width: 2, padding: 0x30)
        } else {
            t.appendDecimal(magnitude: UInt64(frac), width: 3, padding: 0x30)
        }
        t.append(" ms")
    }

    static func enabled(_ on: Bool) -> String { on ? "Enabled (0x01)" : "Disabled (0x00)" }

    /// `C0:11:22:33:44:55 (random static)`.
    static func address(_ a: BDAddress, random: Bool) -> String {
        a.string + " (" + (random ? a.randomKind.name : "public") + ")"
    }

    static func addressType(_ t: LEAddressType) -> String {
        named(t.name.prefix(1).uppercased() + t.name.dropFirst(), t.rawValue)
    }

    /// Reads six wire-order bytes as an address.
    static func readAddress(_ r: inout ByteReader, _ field: StaticString) throws(WireError) -> BDAddress {
        let b = try r.bytes(6, field)
        guard let a = BDAddress(littleEndian: b) else { throw WireError.malformed("\(field) is not 6 bytes") }
        return a
    }

    static func readAddressType(_ r: inout ByteReader, _ field: StaticString) throws(WireError) -> LEAddressType {
        let v = try r.u8(field)
        guard let t = LEAddressType(rawValue: v) else {
            throw WireError.invalidValue(field: field.description, value: UInt64(v))
        }
        return t
    }

    static func readBool(_ r: inout ByteReader, _ field: StaticString) throws(WireError) -> Bool {
        let v = try r.u8(field)
        guard v <= 1 else { throw WireError.invalidValue(field: field.description, value: UInt64(v)) }
        return v == 1
    }
}

extension HCICommandFormat {
    /// The six connection-parameter lines shared by LE Create Connection, LE Extended Create
    /// Connection and LE Connection Update.
    static func describeConnectionParameters(into fields: inout FieldList, intervalMin: UInt16, intervalMax: UInt16,
                                             latency: UInt16, supervisionTimeout: UInt16,
                                             minCELength: UInt16, maxCELength: UInt16) {
        fields.add("Min connection interval") { appendDuration(intervalMin, unitMicros: unit1_25ms, to: &$0) }
        fields.add("Max connection interval") { appendDuration(intervalMax, unitMicros: unit1_25ms, to: &$0) }
        fields.add("Max latency") { t in
            t.appendDecimal(Int(latency))
            t.appendParenthesizedHexNumber(latency, width: 4)
        }
        fields.add("Supervision timeout") { appendDuration(supervisionTimeout, unitMicros: unit10ms, to: &$0) }
        fields.add("Min CE length") { appendDuration(minCELength, unitMicros: unit0_625ms, to: &$0) }
        fields.add("Max CE length") { appendDuration(maxCELength, unitMicros: unit0_625ms, to: &$0) }
    }
}

extension HCICommandFormat {
    /// Event masks give bit n to the (sub)event with code n + 1.
    static func mask(bitPerCode codes: some Sequence<UInt8>) -> UInt64 {
        var m: UInt64 = 0
        for c in codes where c >= 1 && c <= 64 { m |= 1 << UInt64(c - 1) }
        return m
    }

    static func maskContains(_ mask: UInt64, code: UInt8) -> Bool {
        guard code >= 1 && code <= 64 else { return false }
        return mask & (1 << UInt64(code - 1)) != 0
    }
}
