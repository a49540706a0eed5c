import Wire

/// btmon-style text: a headline per packet, decoded fields indented below it, and with
/// `hexDump` the raw bytes (after the H4 indicator) as offset/hex/ASCII lines.
///
/// Renders straight into a byte buffer: `rtstack decode` prints hundreds of thousands of lines
/// per second, and building intermediate Strings cost more than decoding the packets.
public struct TextRenderer: Sendable {
    public var hexDump: Bool
    public var showFields: Bool

    public init(hexDump: Bool = false, showFields: Bool = true) {
        self.hexDump = hexDump
        self.showFields = showFields
    }

    public func render(_ p: DissectedPacket) -> String {
        var out = TextBuffer()
        render(p, into: &out)
        return out.string
    }

    public func render(_ p: DissectedPacket, into out: inout [UInt8]) {
        var text = TextBuffer()
        render(p, into: &text)
        out.append(contentsOf: text.bytes)
    }

    public func render(_ p: DissectedPacket, into out: inout TextBuffer) {
        TextRenderer.padded(p.index, width: 6, into: &out)
        out.append(byte: 0x20)
        TextRenderer.seconds(p.relativeTime, into: &out)
        out.append(p.direction == .hostToController ? " < " : " > ")
        out.append(TextRenderer.typeLabel(p.type))
        if let h = p.connectionHandle, p.type != .event {
            out.append(" h=")
            out.appendDecimal(Int(h))
        }
        out.append(byte: 0x20)
        out.append(p.name)
        if !p.code.isEmpty {
            out.append(" (")
            out.append(p.code)
            out.append(byte: 0x29)
        }
        if !p.summaryText.isEmpty {
            out.append(": ")
            out.append(p.summaryText)
        }
        out.append(byte: 0x0A)
        if showFields {
            p.fields.text.withUnsafeBufferPointer { text in
                for s in p.fields.spans {
                    TextRenderer.fieldLine(indent: 2 * (s.level + 4), label: UnsafeBufferPointer(rebasing: text[s.label]),
                                           value: UnsafeBufferPointer(rebasing: text[s.value]), into: &out)
                }
            }
            if let a = p.att, let v = a.decodedValue {
                out.appendSpaces(8)
                if let c = a.characteristic {
                    out.append(c.name ?? c.string)
                    out.append(": ")
                }
                out.append(v)
                out.append(byte: 0x0A)
            }
        }
        for e in p.errors {
            out.append("        ! ")
            out.append(e)
            out.append(byte: 0x0A)
        }
        if hexDump {
            HexDump.append(p.bytes, indent: 8, to: &out)
        }
    }

    /// `indent` spaces, the label, `: ` and the value unless it is empty, a line end: written
    /// in one piece, as field lines are most of the output.
    static func fieldLine(indent: Int, label: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>,
                          into out: inout TextBuffer) {
        let length = indent + label.count + (value.isEmpty ? 0 : 2 + value.count) + 1
        out.appendUninitialized(length) { line in
            var o = indent
            UnsafeMutableBufferPointer(rebasing: line[0..<indent]).update(repeating: 0x20)
            copy(label, to: line, at: &o)
            if !value.isEmpty {
                line[o] = 0x3A
                line[o + 1] = 0x20
                o += 2
                copy(value, to: line, at: &o)
            }
            line[o] = 0x0A
        }
    }

    private static func copy(_ source: UnsafeBufferPointer<UInt8>, to line: UnsafeMutableBufferPointer<UInt8>, at o: inout Int) {
        if let from = source.baseAddress, let to = line.baseAddress, source.count > 0 {
            (to + o).update(from: from, count: source.count)
        }
        o += source.count
    }

    static func typeLabel(_ t: H4PacketType) -> String {
        switch t {
        case .command: return "CMD"
        case .event: return "EVT"
        case .acl: return "ACL"
        case .sco: return "SCO"
        case .iso: return "ISO"
        }
    }

    /// `v` right-aligned in `width` characters.
    static func padded(_ v: Int, width: Int, into out: inout TextBuffer) {
        var len = 1
        var x = v.magnitude
        while x >= 10 { x /= 10; len += 1 }
        if v < 0 { len += 1 }
        out.appendSpaces(width - len)
        out.appendDecimal(v)
    }

    /// Seconds with microsecond precision, right-aligned to 12 characters.
    static func seconds(_ t: Double, into out: inout TextBuffer) {
        let micros = t.isFinite ? Int64((t * 1_000_000).rounded()) : 0
        let m = micros.magnitude
        let whole = Int(m / 1_000_000)
        let frac = Int(m % 1_000_000)
        var wholeLen = 1
        var x = whole
        while x >= 10 { x /= 10; wholeLen += 1 }
        let len = wholeLen + 7 + (micros < 0 ? 1 : 0)
        out.appendSpaces(12 - len)
        if micros < 0 { out.append(byte: 0x2D) }
        out.appendDecimal(whole)
        out.append(byte: 0x2E)
        out.appendUninitialized(6) { digits in
            var rest = frac
            for i in stride(from: 5, through: 0, by: -1) {
                digits[i] = 0x30 &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            }
        }
    }

    static func seconds(_ t: Double) -> String {
        var out = TextBuffer()
        seconds(t, into: &out)
        return out.string
    }
}
