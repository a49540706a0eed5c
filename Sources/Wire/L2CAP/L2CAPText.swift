/// Text forms shared by the ACL, L2CAP and ATT field descriptions, so a handle or a CID looks
/// the same everywhere (`0x002a`, lower-case, as btmon prints them).
enum L2CAPText {
    private static let digits: [Character] = Array("0123456789abcdef")

    /// `0x` and four lower-case hex digits (`0x%04x`).
    static func hex16(_ v: UInt16) -> String {
        var s = "0x"
        s.reserveCapacity(6)
        for shift in stride(from: 12, through: 0, by: -4) {
            s.append(digits[Int((v >> UInt16(shift)) & 0xF)])
        }
        return s
    }

    /// `0x` and two lower-case hex digits (`0x%02x`).
    static func hex8(_ v: UInt8) -> String {
        var s = "0x"
        s.append(digits[Int(v >> 4)])
        s.append(digits[Int(v & 0xF)])
        return s
    }

    /// Spaced hex of all bytes, or `(empty)`, for field lists where nothing may be hidden.
    static func bytes(_ b: ArraySlice<UInt8>) -> String {
        b.isEmpty ? "(empty)" : Hex.spaced(b)
    }

    /// Spaced hex shortened to `limit` bytes for one-line summaries.
    static func short(_ b: ArraySlice<UInt8>, limit: Int = 16) -> String {
        if b.isEmpty { return "(empty)" }
        if b.count <= limit { return Hex.spaced(b) }
        return Hex.spaced(b.prefix(limit)) + " … (\(b.count) bytes)"
    }

    /// `Name (0x1b)`: a name with the number it came from, so unknown values stay readable.
    static func named(_ name: String, _ v: UInt8) -> String { name + " (" + hex8(v) + ")" }
    static func named(_ name: String, _ v: UInt16) -> String { name + " (" + hex16(v) + ")" }
}
