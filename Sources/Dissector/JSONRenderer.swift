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
        out.append("{\"index\":")
        out.appendDecimal(p.index)
        out.append(",\"time\":")
        JSONText.number(p.relativeTime, decimals: 6, into: &out)
        out.append(",\"timestamp_us\":")
        out.appendDecimal(Int(p.timestampMicros))
        out.append(",\"direction\":")
        JSONText.plain(p.direction.jsonName, into: &out)
        out.append(",\"type\":")
        JSONText.plain(p.type.name, into: &out)
        out.append(",\"name\":")
        JSONText.string(p.name, into: &out)
        if !p.code.isEmpty {
            out.append(",\"code\":")
            JSONText.string(p.code, into: &out)
        }
        if let h = p.connectionHandle {
            out.append(",\"handle\":")
            out.appendDecimal(Int(h))
        }
        if !p.summaryText.isEmpty {
            out.append(",\"summary\":")
            p.summaryText.withUnsafeBufferPointer { JSONText.quoted($0, into: &out) }
        }
        out.append(",\"hex\":")
        hex(p.bytes, into: &out)
        if let a = p.att {
            out.append(",\"att\":{\"opcode\":")
            out.appendDecimal(Int(a.opcode))
            out.append(",\"name\":")
            JSONText.string(a.name, into: &out)
            if let h = a.handle {
                out.append(",\"handle\":")
                out.appendDecimal(Int(h))
            }
            if let v = a.value {
                out.append(",\"value\":")
                hex(v, into: &out)
            }
            if let c = a.characteristic {
                // Hex digits and dashes: nothing to escape.
                out.append(",\"uuid\":\"")
                out.append(c)
                out.append(byte: 0x22)
            }
            if let d = a.decodedValue {
                out.append(",\"decoded\":")
                JSONText.string(d, into: &out)
            }
            out.append(byte: 0x7D)
        }
        if includeFields, !p.fields.isEmpty {
            out.append(",\"fields\":[")
            p.fields.text.withUnsafeBufferPointer { text in
                for (i, s) in p.fields.spans.enumerated() {
                    // Label, `: ` and value lie together in the line: one scan covers both.
                    let both = s.label.lowerBound..<max(s.label.upperBound, s.value.upperBound)
                    JSONText.field(level: s.level, label: UnsafeBufferPointer(rebasing: text[s.label]),
                                   value: UnsafeBufferPointer(rebasing: text[s.value]),
                                   clean: !JSONText.needsEscaping(UnsafeBufferPointer(rebasing: text[both])),
                                   first: i == 0, into: &out)
                }
            }
            out.append(byte: 0x5D)
        }
        if !p.errors.isEmpty {
            out.append(",\"errors\":[")
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
