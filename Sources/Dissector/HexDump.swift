import Wire

/// btmon/xxd-style dump: offset, 16 bytes per line in two groups of 8, ASCII column.
public enum HexDump {
    /// Characters in a line after the indent: offset (4), `: `, 16 × 3 hex, group gap, space,
    /// up to 16 ASCII characters.
    private static let lineWidth = 4 + 2 + 48 + 1 + 1

    /// Appends the dump of `bytes` to `line`, each line indented by `indent` spaces.
    public static func append<C: Collection>(_ bytes: C, indent: Int, to line: inout [UInt8])
    where C.Element == UInt8, C.Index == Int {
        var text = TextBuffer()
        append(ArraySlice(bytes), indent: indent, to: &text)
        line.append(contentsOf: text.bytes)
    }

    /// Appends the dump of `bytes` to `out`, each line indented by `indent` spaces. Each line
    /// is written in place, through pointers: `--hex` output is mostly this.
    public static func append(_ bytes: ArraySlice<UInt8>, indent: Int, to out: inout TextBuffer) {
        bytes.withUnsafeBufferPointer { data in
            HexPairs.lower.withUnsafeBufferPointer { pairs in
                let n = data.count
                var offset = 0
                while offset < n {
                    let end = min(offset &+ 16, n)
                    out.appendSpaces(indent)
                    out.appendUninitialized(lineWidth &+ (end &- offset) &+ 1) { line in
                        writeLine(data, from: offset, to: end, pairs: pairs, into: line)
                    }
                    offset = end
                }
            }
        }
    }

    /// `oooo: hh hh … hh  hh … hh  ascii` and a line feed, for `data[start..<end]`.
    private static func writeLine(_ data: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int,
                                  pairs: UnsafeBufferPointer<UInt16>, into line: UnsafeMutableBufferPointer<UInt8>) {
        guard let base = line.baseAddress else { return }
        let raw = UnsafeMutableRawPointer(base)
        var o = 0
        var shift = 12
        while shift >= 0 {
            line[o] = digit(UInt8(truncatingIfNeeded: start >> shift))
            o &+= 1
            shift &-= 4
        }
        line[o] = 0x3a
        line[o &+ 1] = 0x20
        o &+= 2
        // Two groups of eight: the bytes there are, then spaces where a short last line has none.
        for group in 0..<2 {
            if group == 1 {
                line[o] = 0x20
                o &+= 1
            }
            let first = start &+ 8 &* group
            let present = max(0, min(end, first &+ 8) &- first)
            for i in first..<(first &+ present) {
                raw.storeBytes(of: pairs[Int(data[i])], toByteOffset: o, as: UInt16.self)
                line[o &+ 2] = 0x20
                o &+= 3
            }
            let missing = 3 &* (8 &- present)
            if missing > 0 {
                (base + o).update(repeating: 0x20, count: missing)
                o &+= missing
            }
        }
        line[o] = 0x20
        o &+= 1
        for i in start..<end {
            let b = data[i]
            line[o] = b >= 0x20 && b < 0x7f ? b : 0x2e
            o &+= 1
        }
        line[o] = 0x0a
    }

    /// The lower-case hex digit of the low four bits.
    @inline(__always) private static func digit(_ v: UInt8) -> UInt8 {
        let n = v & 0x0F
        return n < 10 ? 0x30 &+ n : 0x57 &+ n
    }

    public static func string<C: Collection>(_ bytes: C, indent: Int = 0) -> String
    where C.Element == UInt8, C.Index == Int {
        var out = TextBuffer()
        append(ArraySlice(bytes), indent: indent, to: &out)
        return out.string
    }
}
