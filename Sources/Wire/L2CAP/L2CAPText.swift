/// Text forms shared by the ACL, L2CAP and ATT field descriptions, so a handle or a CID looks
/// the same everywhere (`0x002a`, lower-case, as btmon prints them).
enum L2CAPText {
    /// `0x` and four lower-case hex digits (`0x%04x`).
    static func hex16(_ v: UInt16) -> String { Hex.lowerNumber(v, width: 4) }

    /// `0x` and two lower-case hex digits (`0x%02x`).
    static func hex8(_ v: UInt8) -> String { Hex.lowerNumber(v, width: 2) }

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

/// The same forms written into a `TextBuffer`: ATT notifications and writes are most of a
/// connection's packets, and their lines are built from these.
extension L2CAPText {
    /// `hex16(_:)`.
    static func hex16(_ v: UInt16, into t: inout TextBuffer) { t.appendLowerHexNumber(v, width: 4) }

    /// `bytes(_:)`.
    static func bytes(_ b: ArraySlice<UInt8>, into t: inout TextBuffer) {
        if b.isEmpty { t.append("(empty)") } else { t.appendSpacedHex(b) }
    }

    /// `short(_:limit:)`.
    static func short(_ b: ArraySlice<UInt8>, limit: Int = 16, into t: inout TextBuffer) {
        if b.isEmpty {
            t.append("(empty)")
        } else if b.count <= limit {
            t.appendSpacedHex(b)
        } else {
            t.appendSpacedHex(b.prefix(limit))
            t.append(" … (")
            t.appendDecimal(b.count)
            t.append(" bytes)")
        }
    }

    /// `named(_:_:)` for one-byte values.
    static func named(_ name: String, _ v: UInt8, into t: inout TextBuffer) {
        t.append(name)
        t.append(" (")
        t.appendLowerHexNumber(v, width: 2)
        t.append(byte: 0x29)
    }
}
