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
        out.appendDecimal(p.index, width: 6)
        out.append(byte: 0x20)
        TextRenderer.seconds(p.relativeTime, into: &out)
        out.append(p.direction == .hostToController ? " < " : " > ")
        if let a = p.adapterIndex {
            out.append("hci")
            out.appendDecimal(Int(a))
            out.append(byte: 0x20)
        }
        out.append(TextRenderer.typeLabel(p.type))
        if let h = p.connectionHandle, p.type != .event {
            out.append(" h=")
            out.appendDecimal(Int(h))
        }
        if let c = p.channel {
            out.append(" cid=")
            out.appendLowerHexNumber(c, width: 4)
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
            // The field list holds its entries as the lines shown here.
            out.append(p.fields.text)
            if let a = p.att, let v = a.decodedValue {
                out.appendSpaces(8)
                if let c = a.characteristic {
                    if let name = c.name { out.append(name) } else { out.append(c) }
                    out.append(": ")
                }
                out.append(v)
                if a.characteristicFromCache { out.append(" (label from the GATT cache)") }
                out.append(byte: 0x0A)
            }
        }
        appendTail(errors: p.errors, bytes: p.redactedBytes == nil ? p.bytes : p.shownBytes, into: &out)
    }

    /// A monitor frame without an HCI packet: the same columns, with btmon's `=` or `@` in
    /// place of the direction and the adapter in place of the type.
    public func render(_ n: DissectedNote, into out: inout TextBuffer) {
        out.appendDecimal(n.index, width: 6)
        out.append(byte: 0x20)
        TextRenderer.seconds(n.relativeTime, into: &out)
        out.append(n.mark == "@" ? " @ " : " = ")
        out.append(n.adapterName)
        out.append(byte: 0x20)
        out.append(n.name)
        if !n.summary.isEmpty {
            out.append(": ")
            out.append(n.summary)
        }
        out.append(byte: 0x0A)
        if showFields { out.append(n.fields.text) }
        appendTail(errors: n.errors, bytes: n.payload, into: &out)
    }

    /// The decode problems, one `!` line each, then the hex dump when asked.
    private func appendTail(errors: [String], bytes: ArraySlice<UInt8>, into out: inout TextBuffer) {
        for e in errors {
            out.append("        ! ")
            out.append(e)
            out.append(byte: 0x0A)
        }
        if hexDump {
            HexDump.append(bytes, indent: 8, to: &out)
        }
    }

    public func render(_ n: DissectedNote) -> String {
        var out = TextBuffer()
        render(n, into: &out)
        return out.string
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
    static func seconds(_ t: Double, into out: inout TextBuffer) {
        // Clamped rather than converted with `Int64(_:)`, which traps: timestamps come from
        // the file, and two far apart enough (a corrupt record) made the decoder crash here.
        let scaled = (t * 1_000_000).rounded()
        let micros = t.isFinite ? Int64(exactly: scaled) ?? (scaled < 0 ? .min : .max) : 0
        let m = micros.magnitude
        let whole = m / 1_000_000
        let frac = m % 1_000_000
        if micros < 0 {
            var wholeLen = 1
            var x = whole
            while x >= 10 { x /= 10; wholeLen += 1 }
            out.appendSpaces(12 - wholeLen - 8)
            out.append(byte: 0x2D)
            out.appendDecimal(magnitude: whole)
        } else {
            out.appendDecimal(magnitude: whole, width: 5)
        }
        out.append(byte: 0x2E)
        out.appendDecimal(magnitude: frac, width: 6, padding: 0x30)
    }

    static func seconds(_ t: Double) -> String {
        var out = TextBuffer()
        seconds(t, into: &out)
        return out.string
    }
}
