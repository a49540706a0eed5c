import Wire

/// btmon/xxd-style dump: offset, 16 bytes per line in two groups of 8, ASCII column.
public enum HexDump {
    private static let digits: [UInt8] = Array("0123456789abcdef".utf8)

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
    /// is written in place: `--hex` output is mostly this.
    public static func append(_ bytes: ArraySlice<UInt8>, indent: Int, to out: inout TextBuffer) {
        let n = bytes.count
        let base = bytes.startIndex
        var offset = 0
        while offset < n {
            let end = min(offset + 16, n)
            out.appendSpaces(indent)
            out.appendUninitialized(lineWidth + (end - offset) + 1) { line in
                digits.withUnsafeBufferPointer { digits in
                    var o = 0
                    for shift in stride(from: 12, through: 0, by: -4) {
                        line[o] = digits[(offset >> shift) & 0xf]
                        o += 1
                    }
                    line[o] = 0x3a; line[o + 1] = 0x20; o += 2
                    for i in offset..<(offset + 16) {
                        if i == offset + 8 { line[o] = 0x20; o += 1 }
                        if i < end {
                            let b = bytes[base + i]
                            line[o] = digits[Int(b >> 4)]
                            line[o + 1] = digits[Int(b & 0xf)]
                        } else {
                            line[o] = 0x20
                            line[o + 1] = 0x20
                        }
                        line[o + 2] = 0x20
                        o += 3
                    }
                    line[o] = 0x20; o += 1
                    for i in offset..<end {
                        let b = bytes[base + i]
                        line[o] = b >= 0x20 && b < 0x7f ? b : 0x2e
                        o += 1
                    }
                    line[o] = 0x0a
                }
            }
            offset = end
        }
    }

    public static func string<C: Collection>(_ bytes: C, indent: Int = 0) -> String
    where C.Element == UInt8, C.Index == Int {
        var out = TextBuffer()
        append(ArraySlice(bytes), indent: indent, to: &out)
        return out.string
    }
}
