import Wire

/// btmon/xxd-style dump: offset, 16 bytes per line in two groups of 8, ASCII column.
public enum HexDump {
    private static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends the dump of `bytes` to `line`, each line indented by `indent` spaces.
    public static func append<C: Collection>(_ bytes: C, indent: Int, to line: inout [UInt8])
    where C.Element == UInt8, C.Index == Int {
        var offset = 0
        let n = bytes.count
        let base = bytes.startIndex
        while offset < n {
            for _ in 0..<indent { line.append(0x20) }
            for shift in stride(from: 12, through: 0, by: -4) {
                line.append(digits[(offset >> shift) & 0xf])
            }
            line.append(0x3a); line.append(0x20)
            let end = min(offset + 16, n)
            for i in offset..<(offset + 16) {
                if i == offset + 8 { line.append(0x20) }
                if i < end {
                    let b = bytes[base + i]
                    line.append(digits[Int(b >> 4)]); line.append(digits[Int(b & 0xf)]); line.append(0x20)
                } else {
                    line.append(0x20); line.append(0x20); line.append(0x20)
                }
            }
            line.append(0x20)
            for i in offset..<end {
                let b = bytes[base + i]
                line.append(b >= 0x20 && b < 0x7f ? b : 0x2e)
            }
            line.append(0x0a)
            offset = end
        }
    }

    public static func string<C: Collection>(_ bytes: C, indent: Int = 0) -> String
    where C.Element == UInt8, C.Index == Int {
        var out = [UInt8]()
        append(bytes, indent: indent, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
