/// Every event display names opcodes and statuses through these two functions, so the format
/// ("LE Create Connection (0x08|0x000D)", "Command Disallowed (0x0C)") is chosen in one place.
func opcodeText(_ opcode: HCIOpcode) -> String {
    opcode.description
}

func statusText(_ status: HCIStatus) -> String {
    status.description
}

/// Number formats shared by the event displays, in the units btmon shows.
enum EventFormat {
    static func hex8(_ v: UInt8) -> String { Hex.number(v, width: 2) }
    static func hex16(_ v: UInt16) -> String { Hex.number(v, width: 4) }

    /// Connection handles, as in every summary: `0x0040`.
    static func handle(_ h: UInt16) -> String { Hex.number(h, width: 4) }

    /// `Name (0x01)`.
    static func named(_ name: String, _ raw: UInt8) -> String { name + " (" + hex8(raw) + ")" }

    /// Value in units of 1.25 ms (connection and periodic advertising intervals):
    /// `30.00 ms (0x0018)`.
    static func units1_25ms(_ v: UInt16) -> String {
        milliseconds1_25(v) + " (" + hex16(v) + ")"
    }

    /// `30.00 ms`, exact: 1.25 ms is 125 hundredths, so integer arithmetic is enough.
    static func milliseconds1_25(_ v: UInt16) -> String {
        let hundredths = Int(v) * 125
        let fraction = hundredths % 100
        return String(hundredths / 100) + "." + (fraction < 10 ? "0" : "") + String(fraction) + " ms"
    }

    /// Value in units of 10 ms (supervision timeouts): `420 ms (0x002A)`.
    static func units10ms(_ v: UInt16) -> String {
        String(Int(v) * 10) + " ms (" + hex16(v) + ")"
    }

    /// Microseconds (data length times): `2120 µs (0x0848)`.
    static func microseconds(_ v: UInt16) -> String {
        String(v) + " µs (" + hex16(v) + ")"
    }

    /// Plain count with its hex form: `0 (0x0000)`.
    static func count16(_ v: UInt16) -> String { String(v) + " (" + hex16(v) + ")" }

    /// RSSI and TX power: signed dBm where 127 means "not available"
    /// (Vol 4, Part E, §7.7.65.2 and §7.7.65.13).
    static func dBm(_ v: Int8) -> String {
        let raw = hex8(UInt8(bitPattern: v))
        if v == 127 { return "not available (" + raw + ")" }
        return String(v) + " dBm (" + raw + ")"
    }

    /// Short `-60 dBm` for summaries.
    static func dBmShort(_ v: Int8) -> String { v == 127 ? "no RSSI" : String(v) + " dBm" }

    static func plural(_ n: Int, _ singular: String) -> String {
        String(n) + " " + singular + (n == 1 ? "" : "s")
    }
}

/// The same formats written into a `TextBuffer`, for the displays `rtstack decode` shows for
/// most packets (advertising reports, completed packets): no `String` per piece.
extension EventFormat {
    static func named(_ name: String, _ raw: UInt8, into t: inout TextBuffer) {
        t.append(name)
        t.appendParenthesizedHexNumber(raw, width: 2)
    }

    /// `dBm(_:)`.
    static func dBm(_ v: Int8, into t: inout TextBuffer) {
        if v == 127 {
            t.append("not available")
        } else {
            t.appendDecimal(Int(v))
            t.append(" dBm")
        }
        t.appendParenthesizedHexNumber(UInt8(bitPattern: v), width: 2)
    }

    /// `dBmShort(_:)`.
    static func dBmShort(_ v: Int8, into t: inout TextBuffer) {
        if v == 127 {
            t.append("no RSSI")
        } else {
            t.appendDecimal(Int(v))
            t.append(" dBm")
        }
    }

    /// `plural(_:_:)`.
    static func plural(_ n: Int, _ singular: String, into t: inout TextBuffer) {
        t.appendDecimal(n)
        t.append(byte: 0x20)
        t.append(singular)
        if n != 1 { t.append(byte: 0x73) }
    }
}

extension TextBuffer {
    /// An RSSI (or TX power) octet as the advertising reports show it: `-60 dBm` in summaries
    /// (`short`), `-60 dBm (0xC4)` in fields; 127 is "not available". Public for a decoder
    /// that memoizes reports and writes only the RSSI anew.
    public mutating func appendRSSI(_ v: Int8, short: Bool) {
        if short {
            EventFormat.dBmShort(v, into: &self)
        } else {
            EventFormat.dBm(v, into: &self)
        }
    }
}
