import Wire

/// JSON Lines form of a packet: the fixed keys scripts rely on (index, time, direction, type,
/// name, hex; handle and att for ATT traffic), then summary, fields and errors.
public struct JSONRenderer: Sendable {
    public var includeFields: Bool

    public init(includeFields: Bool = true) {
        self.includeFields = includeFields
    }

    public func render(_ p: DissectedPacket) -> String {
        var out = TextBuffer()
        render(p, into: &out)
        return out.string
    }

    /// Appends the packet's object (without a line end) to `out`.
    public func render(_ p: DissectedPacket, into out: inout TextBuffer) {
        JSONText.key("index", first: true, into: &out)
        out.appendDecimal(p.index)
        JSONText.key("time", into: &out)
        JSONText.number(p.relativeTime, decimals: 6, into: &out)
        JSONText.key("timestamp_us", into: &out)
        out.appendDecimal(Int(p.timestampMicros))
        JSONText.key("direction", into: &out)
        JSONText.string(p.direction.jsonName, into: &out)
        JSONText.key("type", into: &out)
        JSONText.string(p.type.name, into: &out)
        JSONText.key("name", into: &out)
        JSONText.string(p.name, into: &out)
        if !p.code.isEmpty {
            JSONText.key("code", into: &out)
            JSONText.string(p.code, into: &out)
        }
        if let h = p.connectionHandle {
            JSONText.key("handle", into: &out)
            out.appendDecimal(Int(h))
        }
        if !p.summaryText.isEmpty {
            JSONText.key("summary", into: &out)
            p.summaryText.withUnsafeBufferPointer { JSONText.quoted($0, into: &out) }
        }
        JSONText.key("hex", into: &out)
        hex(p.bytes, into: &out)
        if let a = p.att {
            JSONText.key("att", into: &out)
            JSONText.key("opcode", first: true, into: &out)
            out.appendDecimal(Int(a.opcode))
            JSONText.key("name", into: &out)
            JSONText.string(a.name, into: &out)
            if let h = a.handle {
                JSONText.key("handle", into: &out)
                out.appendDecimal(Int(h))
            }
            if let v = a.value {
                JSONText.key("value", into: &out)
                hex(v, into: &out)
            }
            if let c = a.characteristic {
                JSONText.key("uuid", into: &out)
                JSONText.string(c.string, into: &out)
            }
            if let d = a.decodedValue {
                JSONText.key("decoded", into: &out)
                JSONText.string(d, into: &out)
            }
            out.append(byte: 0x7D)
        }
        if includeFields, !p.fields.isEmpty {
            JSONText.key("fields", into: &out)
            out.append(byte: 0x5B)
            p.fields.text.withUnsafeBufferPointer { text in
                for (i, s) in p.fields.spans.enumerated() {
                    if i > 0 { out.append(byte: 0x2C) }
                    JSONText.key("level", first: true, into: &out)
                    out.appendDecimal(s.level)
                    JSONText.key("label", into: &out)
                    JSONText.quoted(UnsafeBufferPointer(rebasing: text[s.label]), into: &out)
                    JSONText.key("value", into: &out)
                    JSONText.quoted(UnsafeBufferPointer(rebasing: text[s.value]), into: &out)
                    out.append(byte: 0x7D)
                }
            }
            out.append(byte: 0x5D)
        }
        if !p.errors.isEmpty {
            JSONText.key("errors", into: &out)
            out.append(byte: 0x5B)
            for (i, e) in p.errors.enumerated() {
                if i > 0 { out.append(byte: 0x2C) }
                JSONText.string(e, into: &out)
            }
            out.append(byte: 0x5D)
        }
        out.append(byte: 0x7D)
    }

    private func hex(_ bytes: ArraySlice<UInt8>, into out: inout TextBuffer) {
        out.append(byte: 0x22)
        out.appendCompactHex(bytes)
        out.append(byte: 0x22)
    }
}
