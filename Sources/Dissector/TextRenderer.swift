import Wire

/// btmon-style text: a headline per packet, decoded fields indented below it, and with
/// `hexDump` the raw bytes (after the H4 indicator) as offset/hex/ASCII lines.
public struct TextRenderer: Sendable {
    public var hexDump: Bool
    public var showFields: Bool

    public init(hexDump: Bool = false, showFields: Bool = true) {
        self.hexDump = hexDump
        self.showFields = showFields
    }

    public func render(_ p: DissectedPacket) -> String {
        var s = ""
        s.reserveCapacity(128)
        let idx = String(p.index)
        s.append(String(repeating: " ", count: max(0, 6 - idx.count)))
        s.append(idx)
        s.append(" ")
        s.append(TextRenderer.seconds(p.relativeTime))
        s.append(" ")
        s.append(p.direction.arrow)
        s.append(" ")
        s.append(TextRenderer.typeLabel(p.type))
        if let h = p.connectionHandle, p.type != .event {
            s.append(" h=")
            s.append(String(h))
        }
        s.append(" ")
        s.append(p.name)
        if !p.code.isEmpty {
            s.append(" (")
            s.append(p.code)
            s.append(")")
        }
        if !p.summary.isEmpty {
            s.append(": ")
            s.append(p.summary)
        }
        s.append("\n")
        if showFields {
            for e in p.fields.entries {
                s.append(String(repeating: "  ", count: e.level + 4))
                s.append(e.label)
                if !e.value.isEmpty {
                    s.append(": ")
                    s.append(e.value)
                }
                s.append("\n")
            }
            if let a = p.att, let v = a.decodedValue {
                s.append("        ")
                s.append(a.characteristic.map { ($0.name ?? $0.string) + ": " } ?? "")
                s.append(v)
                s.append("\n")
            }
        }
        for e in p.errors {
            s.append("        ! ")
            s.append(e)
            s.append("\n")
        }
        if hexDump {
            HexDump.append(p.bytes, indent: "        ", to: &s)
        }
        return s
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

    /// Seconds with microsecond precision, right-aligned to 12 characters.
    static func seconds(_ t: Double) -> String {
        let micros = Int64((t * 1_000_000).rounded())
        let neg = micros < 0
        let m = neg ? -micros : micros
        let frac = String(m % 1_000_000)
        let s = (neg ? "-" : "") + String(m / 1_000_000) + "." + String(repeating: "0", count: 6 - frac.count) + frac
        return String(repeating: " ", count: max(0, 12 - s.count)) + s
    }
}
