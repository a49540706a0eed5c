import Wire

/// JSON Lines form of a packet: the fixed keys scripts rely on (index, time, direction, type,
/// name, hex; handle and att for ATT traffic), then summary, fields and errors.
public struct JSONRenderer: Sendable {
    public var includeFields: Bool

    public init(includeFields: Bool = true) {
        self.includeFields = includeFields
    }

    public func render(_ p: DissectedPacket) -> String {
        var o = JSONObject()
        o.add("index", p.index)
        o.add("time", p.relativeTime)
        o.add("timestamp_us", Int(p.timestampMicros))
        o.add("direction", p.direction.jsonName)
        o.add("type", p.type.name)
        o.add("name", p.name)
        if !p.code.isEmpty { o.add("code", p.code) }
        if let h = p.connectionHandle { o.add("handle", Int(h)) }
        if !p.summary.isEmpty { o.add("summary", p.summary) }
        o.add("hex", Hex.string(p.bytes))
        if let a = p.att {
            var att = JSONObject()
            att.add("opcode", Int(a.opcode))
            att.add("name", a.name)
            if let h = a.handle { att.add("handle", Int(h)) }
            if let v = a.value { att.add("value", Hex.string(v)) }
            if let c = a.characteristic { att.add("uuid", c.string) }
            if let d = a.decodedValue { att.add("decoded", d) }
            o.add("att", att)
        }
        if includeFields, !p.fields.entries.isEmpty {
            var list = [JSONObject]()
            list.reserveCapacity(p.fields.entries.count)
            for e in p.fields.entries {
                var f = JSONObject()
                f.add("level", e.level)
                f.add("label", e.label)
                f.add("value", e.value)
                list.append(f)
            }
            o.add("fields", objects: list)
        }
        if !p.errors.isEmpty { o.add("errors", strings: p.errors) }
        return o.finished
    }
}
