import JSON
import Wire

/// JSON written straight into a byte buffer, for `JSONRenderer`: one object per packet at
/// hundreds of thousands of packets per second leaves no room for a `String` per key and
/// value. The forms match `JSONObject` byte for byte (both are JSON Lines the same scripts
/// read). Keys are written by the renderer with their punctuation (`,"name":`), one piece each.
enum JSONText {
    static func string(_ s: String, into out: inout TextBuffer) {
        if s.utf8.withContiguousStorageIfAvailable({ quoted($0, into: &out) }) == nil {
            var s = s
            s.withUTF8 { quoted($0, into: &out) }
        }
    }

    /// `s` in double quotes without looking for anything to escape: for the fixed words of
    /// an enumeration (`Direction.jsonName`, `H4PacketType.name`), on every packet.
    static func plain(_ s: String, into out: inout TextBuffer) {
        out.append(byte: 0x22)
        out.append(s)
        out.append(byte: 0x22)
    }

    /// A string from UTF-8 bytes, in double quotes, escaped the way `JSONObject.appendQuoted`
    /// does. Nearly nothing the decoder shows needs escaping: that case is one scan and one
    /// copy.
    static func quoted(_ utf8: UnsafeBufferPointer<UInt8>, into out: inout TextBuffer) {
        if !needsEscaping(utf8) {
            out.appendUninitialized(utf8.count &+ 2) { to in
                to[0] = 0x22
                if let from = utf8.baseAddress, let base = to.baseAddress, utf8.count > 0 {
                    (base + 1).update(from: from, count: utf8.count)
                }
                to[utf8.count &+ 1] = 0x22
            }
            return
        }
        out.append(byte: 0x22)
        for b in utf8 {
            switch b {
            case 0x22: out.append("\\\"")
            case 0x5C: out.append("\\\\")
            case 0x0A: out.append("\\n")
            case 0x0D: out.append("\\r")
            case 0x09: out.append("\\t")
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
        out.append(byte: 0x22)
    }

    /// Whether any byte is a control character, `"` or `\\`. Looks at eight bytes a step
    /// (every label and value of every packet is scanned, and nearly none has one).
    static func needsEscaping(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = utf8.baseAddress else { return false }
        let raw = UnsafeRawPointer(base)
        var i = 0
        while i &+ 8 <= utf8.count {
            if containsEscapable(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) { return true }
            i &+= 8
        }
        if i < utf8.count, utf8.count >= 8 {
            // The last bytes as one more word, overlapping the ones already looked at.
            return containsEscapable(raw.loadUnaligned(fromByteOffset: utf8.count &- 8, as: UInt64.self))
        }
        // Fewer than eight bytes: gathered into one word over spaces (which need no escaping).
        var w: UInt64 = 0x2020_2020_2020_2020
        var shift: UInt64 = 0
        while i < utf8.count {
            w = w & ~(0xFF << shift) | UInt64(utf8[i]) << shift
            shift &+= 8
            i &+= 1
        }
        return containsEscapable(w)
    }

    @inline(__always) private static func containsEscapable(_ w: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        // A byte of `x` is zero exactly when `(x - ones) & ~x & highs` is not zero (no false
        // positives for "any"); likewise `(w - n * ones) & ~w & highs` for a byte below n.
        let below20 = (w &- ones &* 0x20) & ~w & highs
        let quote = w ^ (ones &* 0x22)
        let backslash = w ^ (ones &* 0x5C)
        let isQuote = (quote &- ones) & ~quote & highs
        let isBackslash = (backslash &- ones) & ~backslash & highs
        return below20 | isQuote | isBackslash != 0
    }

    /// Whether a field list's text holds anything JSON must escape: a control character, `"`
    /// or `\\` — line feeds aside, as long as there are exactly `lineFeeds` of them (one ends
    /// each line; one more sits inside a value). One scan of the whole text, so that when it
    /// finds nothing no field needs a scan of its own. Exact per byte (no borrow between
    /// bytes), eight bytes a step.
    static func needsEscaping(_ utf8: UnsafeBufferPointer<UInt8>, lineFeeds: Int) -> Bool {
        guard let base = utf8.baseAddress else { return lineFeeds != 0 }
        let raw = UnsafeRawPointer(base)
        let space = SIMD16<UInt8>(repeating: 0x20)
        let lf = SIMD16<UInt8>(repeating: 0x0A)
        let quote = SIMD16<UInt8>(repeating: 0x22)
        let backslash = SIMD16<UInt8>(repeating: 0x5C)
        var seen = 0
        var i = 0
        // Sixteen bytes a step (vector compares): every field list of every packet passes
        // here. A lane of a mask is all ones where it holds; two 64-bit words say whether
        // any does (`any(_:)` is a generic call here, ten times slower).
        @inline(__always) func words(_ m: SIMDMask<SIMD16<Int8>>) -> (UInt64, UInt64) {
            let w = unsafeBitCast(m, to: SIMD2<UInt64>.self)
            return (w[0], w[1])
        }
        while i &+ 16 <= utf8.count {
            let v = raw.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
            let special = words((v .== quote) .| (v .== backslash))
            if special.0 | special.1 != 0 { return true }
            let control = v .< space
            let c = words(control)
            if c.0 | c.1 != 0 {
                let isLF = v .== lf
                let other = words(control .& .!isLF)
                if other.0 | other.1 != 0 { return true }
                let l = words(isLF)
                seen &+= (l.0.nonzeroBitCount &+ l.1.nonzeroBitCount) >> 3
            }
            i &+= 16
        }
        while i < utf8.count {
            let b = utf8[i]
            if b == 0x0A { seen &+= 1 } else if b < 0x20 || b == 0x22 || b == 0x5C { return true }
            i &+= 1
        }
        return seen != lineFeeds
    }

    /// High bit of each byte of `w` set exactly where the byte equals `c`.
    @inline(__always) private static func equal(_ w: UInt64, _ c: UInt64) -> UInt64 {
        let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let x = w ^ (0x0101_0101_0101_0101 &* c)
        return ~(((x & lows) &+ lows) | x) & 0x8080_8080_8080_8080
    }

    /// One entry of the `fields` array: `{"level":N,"label":"…","value":"…"}`, with `,` before
    /// it unless it is the first. Written in one piece when nothing needs escaping, which is
    /// nearly always: a field list has a dozen entries or more per packet.
    /// `clean` says that neither label nor value needs escaping (the caller scans them).
    static func field(level: Int, label: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>,
                      clean: Bool, first: Bool, into out: inout TextBuffer) {
        let opening: StaticString = first ? "{\"level\":" : ",{\"level\":"
        guard (0..<10).contains(level), clean else {
            out.append(first ? "{\"level\":" : ",{\"level\":")
            out.appendDecimal(level)
            out.append(",\"label\":")
            quoted(label, into: &out)
            out.append(",\"value\":")
            quoted(value, into: &out)
            out.append(byte: 0x7D)
            return
        }
        let labelOpening: StaticString = ",\"label\":\""
        let valueOpening: StaticString = "\",\"value\":\""
        let n = opening.utf8CodeUnitCount &+ 1 &+ labelOpening.utf8CodeUnitCount &+ label.count
            &+ valueOpening.utf8CodeUnitCount &+ value.count &+ 2
        out.appendUninitialized(n) { to in
            var o = 0
            put(opening, to, &o)
            to[o] = 0x30 &+ UInt8(truncatingIfNeeded: level)
            o &+= 1
            put(labelOpening, to, &o)
            put(label, to, &o)
            put(valueOpening, to, &o)
            put(value, to, &o)
            to[o] = 0x22
            to[o &+ 1] = 0x7D
        }
    }

    @inline(__always)
    private static func put(_ s: StaticString, _ to: UnsafeMutableBufferPointer<UInt8>, _ o: inout Int) {
        put(UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount), to, &o)
    }

    @inline(__always)
    private static func put(_ bytes: UnsafeBufferPointer<UInt8>, _ to: UnsafeMutableBufferPointer<UInt8>, _ o: inout Int) {
        if let from = bytes.baseAddress, let base = to.baseAddress, bytes.count > 0 {
            TextBuffer.copy(from: from, to: base + o, count: bytes.count)
        }
        o &+= bytes.count
    }

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
        // The fraction's leading zeros, then its significant digits.
        out.appendDecimal(magnitude: frac, width: digits, padding: 0x30)
    }
}
