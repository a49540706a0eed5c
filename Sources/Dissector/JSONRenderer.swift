import Wire
import Capture

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

    /// The `fields` arrays already written for repeated decodings (`decodingID`), so that a
    /// flood of repeated advertising reports writes each array once, and afterwards only the
    /// value that changes (`decodingVariableField`). Bounded.
    public struct FieldsMemo: Sendable {
        fileprivate struct Fragment: Sendable {
            var text: TextBuffer
            /// Where the variable field's value lies in `text`.
            var variable: Range<Int>?
        }

        fileprivate var fragments: [Int: Fragment] = [:]
        public init() {}
    }

    /// `render(_:into:)`, reusing the `fields` array of an earlier packet with the same
    /// `decodingID`.
    public func render(_ p: DissectedPacket, into out: inout TextBuffer, memo: inout FieldsMemo) {
        guard let id = p.decodingID, includeFields else {
            render(p, into: &out)
            return
        }
        renderHead(p, into: &out)
        if let fragment = memo.fragments[id], replay(fragment, p, into: &out) {
            // written
        } else {
            var text = TextBuffer()
            let variable = appendFields(p.fields, into: &text, noting: p.decodingVariableField)
            out.append(text)
            if p.decodingVariableField == nil || variable != nil {
                if memo.fragments.count >= RepeatedEventMemo.capacity { memo.fragments.removeAll(keepingCapacity: true) }
                memo.fragments[id] = FieldsMemo.Fragment(text: text, variable: variable)
            }
        }
        appendErrors(p.errors, into: &out)
        out.append(byte: 0x7D)
    }

    /// Writes `fragment` with `p`'s value of the variable field; false (nothing written) when
    /// the two do not fit together or the value would need escaping.
    private func replay(_ fragment: FieldsMemo.Fragment, _ p: DissectedPacket, into out: inout TextBuffer) -> Bool {
        guard let range = fragment.variable else {
            guard p.decodingVariableField == nil else { return false }
            out.append(fragment.text)
            return true
        }
        guard let index = p.decodingVariableField, p.fields.spans.indices.contains(index) else { return false }
        let span = p.fields.spans[index]
        return p.fields.text.withUnsafeBufferPointer { t in
            let value = UnsafeBufferPointer(rebasing: t[span.value])
            guard !JSONText.needsEscaping(value) else { return false }
            fragment.text.withUnsafeBufferPointer { f in
                out.append(bytes: UnsafeBufferPointer(rebasing: f[0..<range.lowerBound]))
                out.append(bytes: value)
                out.append(bytes: UnsafeBufferPointer(rebasing: f[range.upperBound...]))
            }
            return true
        }
    }

    /// Appends the packet's object (without a line end) to `out`.
    public func render(_ p: DissectedPacket, into out: inout TextBuffer) {
        renderHead(p, into: &out)
        appendFields(p.fields, into: &out)
        appendErrors(p.errors, into: &out)
        out.append(byte: 0x7D)
    }

    /// Everything before the fields.
    private func renderHead(_ p: DissectedPacket, into out: inout TextBuffer) {
        Self.openObject(index: p.index, relativeTime: p.relativeTime, timestampMicros: p.timestampMicros, into: &out)
        out.append(",\"direction\":")
        JSONText.plain(p.direction.jsonName, into: &out)
        out.append(",\"type\":")
        JSONText.plain(p.type.name, into: &out)
        if let a = p.adapterIndex {
            out.append(",\"adapter\":")
            out.appendDecimal(Int(a))
        }
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
        if let c = p.channel {
            out.append(",\"cid\":")
            out.appendDecimal(Int(c))
        }
        if !p.summaryText.isEmpty {
            out.append(",\"summary\":")
            p.summaryText.withUnsafeBufferPointer { JSONText.quoted($0, into: &out) }
        }
        out.append(",\"hex\":")
        if let r = p.redactedBytes {
            hex(p.shownBytes, into: &out)
            out.append(",\"redacted\":[")
            out.appendDecimal(r.lowerBound)
            out.append(byte: 0x2C)
            out.appendDecimal(r.upperBound)
            out.append(byte: 0x5D)
        } else {
            hex(p.bytes, into: &out)
        }
        if let a = p.att {
            out.append(",\"att\":{\"opcode\":")
            out.appendDecimal(Int(a.opcode))
            out.append(",\"name\":")
            JSONText.string(a.name, into: &out)
            if let h = a.handle {
                out.append(",\"handle\":")
                out.appendDecimal(Int(h))
            }
            if let b = a.bearer {
                out.append(a.transport == .brEdr ? ",\"bearer\":\"br-edr\",\"bearer_cid\":"
                           : a.bearerIsEnhanced ? ",\"bearer\":\"eatt\",\"bearer_cid\":" : ",\"bearer\":\"le-credit\",\"bearer_cid\":")
                out.appendDecimal(Int(b))
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
                if a.characteristicFromCache { out.append(",\"uuid_source\":\"gatt-cache\"") }
            }
            if let d = a.decodedValue {
                out.append(",\"decoded\":")
                JSONText.string(d, into: &out)
            }
            out.append(byte: 0x7D)
        }
    }

    /// Appends `,"fields":[…]`; returns where the value of entry `noting` lies in `out` (nil
    /// when not asked, or when that value needed escaping).
    @discardableResult
    private func appendFields(_ fields: FieldList, into out: inout TextBuffer, noting: Int? = nil) -> Range<Int>? {
        guard includeFields, !fields.isEmpty else { return nil }
        var noted: Range<Int>?
        out.append(",\"fields\":[")
        fields.text.withUnsafeBufferPointer { text in
            // Nearly always nothing in the whole list needs escaping: one scan then says so
            // for every field.
            let allClean = !JSONText.needsEscaping(text, lineFeeds: fields.spans.count)
            for (i, s) in fields.spans.enumerated() {
                // Label, `: ` and value lie together in the line: one scan covers both.
                let both = s.label.lowerBound..<max(s.label.upperBound, s.value.upperBound)
                let clean = allClean || !JSONText.needsEscaping(UnsafeBufferPointer(rebasing: text[both]))
                JSONText.field(level: s.level, label: UnsafeBufferPointer(rebasing: text[s.label]),
                               value: UnsafeBufferPointer(rebasing: text[s.value]),
                               clean: clean, first: i == 0, into: &out)
                if i == noting, clean {
                    // The entry ends with the value, its closing quote and brace.
                    noted = (out.count - 2 - s.value.count)..<(out.count - 2)
                }
            }
        }
        out.append(byte: 0x5D)
        return noted
    }

    /// `{"index":N,"time":S,"timestamp_us":N`: how every line starts.
    private static func openObject(index: Int, relativeTime: Double, timestampMicros: Int64, into out: inout TextBuffer) {
        out.append("{\"index\":")
        out.appendDecimal(index)
        out.append(",\"time\":")
        JSONText.number(relativeTime, decimals: 6, into: &out)
        out.append(",\"timestamp_us\":")
        out.appendDecimal(Int(timestampMicros))
    }

    private func appendErrors(_ errors: [String], into out: inout TextBuffer) {
        guard !errors.isEmpty else { return }
        out.append(",\"errors\":[")
        for (i, e) in errors.enumerated() {
            if i > 0 { out.append(byte: 0x2C) }
            JSONText.string(e, into: &out)
        }
        out.append(byte: 0x5D)
    }

    /// A monitor frame without an HCI packet: `"type":"monitor"`, the adapter (absent for frames
    /// about no adapter), name, code (the monitor opcode), summary, hex of the payload, fields.
    public func render(_ n: DissectedNote, into out: inout TextBuffer) {
        Self.openObject(index: n.index, relativeTime: n.relativeTime, timestampMicros: n.timestampMicros, into: &out)
        out.append(",\"type\":\"monitor\"")
        if n.adapterIndex != MonitorFrame.noAdapter {
            out.append(",\"adapter\":")
            out.appendDecimal(Int(n.adapterIndex))
        }
        out.append(",\"name\":")
        JSONText.string(n.name, into: &out)
        out.append(",\"code\":")
        out.appendDecimal(Int(n.opcode.rawValue))
        if !n.summary.isEmpty {
            out.append(",\"summary\":")
            JSONText.string(n.summary, into: &out)
        }
        out.append(",\"hex\":")
        hex(n.payload, into: &out)
        appendFields(n.fields, into: &out)
        appendErrors(n.errors, into: &out)
        out.append(byte: 0x7D)
    }

    public func render(_ n: DissectedNote) -> String {
        var out = TextBuffer()
        render(n, into: &out)
        return out.string
    }

    private func hex(_ bytes: ArraySlice<UInt8>, into out: inout TextBuffer) {
        out.append(byte: 0x22)
        out.appendCompactHex(bytes)
        out.append(byte: 0x22)
    }
}
