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
        var out = [UInt8]()
        render(p, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    public func render(_ p: DissectedPacket, into out: inout [UInt8]) {
        TextRenderer.padded(p.index, width: 6, into: &out)
        out.append(0x20)
        TextRenderer.seconds(p.relativeTime, into: &out)
        out.append(0x20)
        out.append(p.direction == .hostToController ? 0x3C : 0x3E)
        out.append(0x20)
        out.append(contentsOf: TextRenderer.typeLabel(p.type).utf8)
        if let h = p.connectionHandle, p.type != .event {
            out.append(contentsOf: " h=".utf8)
            TextRenderer.decimal(Int(h), into: &out)
        }
        out.append(0x20)
        out.append(contentsOf: p.name.utf8)
        if !p.code.isEmpty {
            out.append(contentsOf: " (".utf8)
            out.append(contentsOf: p.code.utf8)
            out.append(0x29)
        }
        if !p.summary.isEmpty {
            out.append(contentsOf: ": ".utf8)
            out.append(contentsOf: p.summary.utf8)
        }
        out.append(0x0A)
        if showFields {
            for e in p.fields.entries {
                TextRenderer.spaces(2 * (e.level + 4), into: &out)
                out.append(contentsOf: e.label.utf8)
                if !e.value.isEmpty {
                    out.append(contentsOf: ": ".utf8)
                    out.append(contentsOf: e.value.utf8)
                }
                out.append(0x0A)
            }
            if let a = p.att, let v = a.decodedValue {
                TextRenderer.spaces(8, into: &out)
                if let c = a.characteristic {
                    out.append(contentsOf: (c.name ?? c.string).utf8)
                    out.append(contentsOf: ": ".utf8)
                }
                out.append(contentsOf: v.utf8)
                out.append(0x0A)
            }
        }
        for e in p.errors {
            out.append(contentsOf: "        ! ".utf8)
            out.append(contentsOf: e.utf8)
            out.append(0x0A)
        }
        if hexDump {
            HexDump.append(p.bytes, indent: 8, to: &out)
        }
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

    static func spaces(_ n: Int, into out: inout [UInt8]) {
        for _ in 0..<n { out.append(0x20) }
    }

    static func decimal(_ v: Int, into out: inout [UInt8]) {
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = v.magnitude
        var count = 0
        withUnsafeMutableBytes(of: &digits) { d in
            repeat {
                d[count] = 0x30 + UInt8(n % 10)
                n /= 10
                count += 1
            } while n > 0 && count < 20
            if v < 0 { out.append(0x2D) }
            for i in stride(from: count - 1, through: 0, by: -1) { out.append(d[i]) }
        }
    }

    static func padded(_ v: Int, width: Int, into out: inout [UInt8]) {
        var len = 1
        var x = v.magnitude
        while x >= 10 { x /= 10; len += 1 }
        if v < 0 { len += 1 }
        spaces(max(0, width - len), into: &out)
        decimal(v, into: &out)
    }

    /// Seconds with microsecond precision, right-aligned to 12 characters.
    static func seconds(_ t: Double, into out: inout [UInt8]) {
        let micros = t.isFinite ? Int64((t * 1_000_000).rounded()) : 0
        let m = micros.magnitude
        let whole = Int(m / 1_000_000)
        let frac = Int(m % 1_000_000)
        var wholeLen = 1
        var x = whole
        while x >= 10 { x /= 10; wholeLen += 1 }
        let len = wholeLen + 7 + (micros < 0 ? 1 : 0)
        spaces(max(0, 12 - len), into: &out)
        if micros < 0 { out.append(0x2D) }
        decimal(whole, into: &out)
        out.append(0x2E)
        var div = 100_000
        while div > 0 {
            out.append(0x30 + UInt8(frac / div % 10))
            div /= 10
        }
    }

    static func seconds(_ t: Double) -> String {
        var out = [UInt8]()
        seconds(t, into: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
