import Wire

/// JSON written straight into a byte buffer, for `JSONRenderer`: one object per packet at
/// hundreds of thousands of packets per second leaves no room for a `String` per key and
/// value. The forms match `JSONObject` byte for byte (both are JSON Lines the same scripts read).
enum JSONText {
    /// `"key":` after a `,` unless it opens the object.
    static func key(_ k: String, first: Bool = false, into out: inout TextBuffer) {
        out.append(byte: first ? 0x7B : 0x2C)
        out.append(byte: 0x22)
        out.append(k)
        out.append(byte: 0x22)
        out.append(byte: 0x3A)
    }

    static func string(_ s: String, into out: inout TextBuffer) {
        var s = s
        s.withUTF8 { quoted($0, into: &out) }
    }

    /// A string from UTF-8 bytes, in double quotes, escaped the way `JSONObject.appendQuoted` does.
    static func quoted(_ utf8: UnsafeBufferPointer<UInt8>, into out: inout TextBuffer) {
        out.append(byte: 0x22)
        if !utf8.contains(where: needsEscape) {
            out.append(bytes: utf8)
        } else {
            for b in utf8 {
                switch b {
                case 0x22: out.append(byte: 0x5C); out.append(byte: 0x22)
                case 0x5C: out.append(byte: 0x5C); out.append(byte: 0x5C)
                case 0x0A: out.append(byte: 0x5C); out.append(byte: 0x6E)
                case 0x0D: out.append(byte: 0x5C); out.append(byte: 0x72)
                case 0x09: out.append(byte: 0x5C); out.append(byte: 0x74)
                case ..<0x20:
                    out.append("\\u00")
                    out.append(byte: b < 0x10 ? 0x30 : 0x31)
                    let low = b & 0x0F
                    out.append(byte: low < 10 ? 0x30 + low : 0x57 + low)
                default:
                    // Bytes of multi-byte scalars pass through unchanged, as whole scalars do.
                    out.append(byte: b)
                }
            }
        }
        out.append(byte: 0x22)
    }

    private static func needsEscape(_ b: UInt8) -> Bool { b < 0x20 || b == 0x22 || b == 0x5C }

    /// `JSONObject.number`: fixed point without exponent and trailing zeros, null when not finite.
    static func number(_ v: Double, decimals: Int, into out: inout TextBuffer) {
        guard v.isFinite else { out.append("null"); return }
        if v == v.rounded(), abs(v) < 1e15 {
            out.appendDecimal(Int(v))
            return
        }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(v) * scale).rounded()
        guard scaled < 9e18 else { out.append(String(v)); return }
        let n = UInt64(scaled)
        let p = UInt64(scale)
        if v < 0 { out.append(byte: 0x2D) }
        out.appendDecimal(magnitude: n / p)
        var frac = n % p
        guard frac != 0 else { return }
        var digits = decimals
        while frac % 10 == 0 { frac /= 10; digits -= 1 }
        out.append(byte: 0x2E)
        // Leading zeros of the fraction, then its significant digits.
        var width = 1
        var x = frac
        while x >= 10 { x /= 10; width += 1 }
        for _ in 0..<max(0, digits - width) { out.append(byte: 0x30) }
        out.appendDecimal(magnitude: frac)
    }
}
