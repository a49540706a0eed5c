// Field lists for `rtstack decode` and `--trace`: one entry per AD structure, labelled with the
// Assigned Numbers name of its type, details nested below it (btmon's layout).

extension ADStructure: FieldDescribing {
    /// `Complete Local Name: "HRM"`, `Flags: 0x06`, …
    public var summary: String {
        let v = shortValue
        return v.isEmpty ? type.name : type.name + ": " + v
    }

    /// The value on the structure's own line.
    var shortValue: String {
        guard let value = try? decodeValue() else { return "malformed (" + Hex.spaced(data) + ")" }
        switch value {
        case .flags(let f): return Hex.number(f.rawValue, width: 2)
        case .serviceUUIDs(let l):
            if l.uuids.count == 1, let u = l.uuids.first { return u.nameAndValue }
            return "\(l.uuids.count) UUIDs"
        case .localName(let n): return quoted(n.text)
        case .txPowerLevel(let p): return "\(p) dBm"
        case .classOfDevice(let c): return Hex.number(c, width: 6)
        case .peripheralConnectionIntervalRange(let r): return r.description
        case .serviceData(let d): return d.uuid.nameAndValue
        case .publicTargetAddresses(let list), .randomTargetAddresses(let list):
            return list.count == 1 ? list[0].string : "\(list.count) addresses"
        case .appearance(let a): return a.description
        case .advertisingInterval(let i): return i.description
        case .leBluetoothDeviceAddress(let d): return d.description + " (" + d.kindName + ")"
        case .leRole(let r): return r.name
        case .uri(let u): return u.description
        case .broadcastName(let s): return quoted(s)
        case .manufacturerSpecificData(let m): return m.company.description
        case .unparsed(_, let d): return Hex.spaced(d)
        }
    }

    public func describeFields(into fields: inout FieldList) {
        let value: ADValue
        do {
            value = try decodeValue()
        } catch {
            fields.nested(type.name, "malformed") { f in
                f.add("Data", Hex.spaced(data))
                f.add("Error", error.description)
            }
            return
        }
        switch value {
        case .flags(let flags):
            fields.nested(type.name, Hex.number(flags.rawValue, width: 2)) { f in
                for bit in 0..<8 where flags.rawValue & (1 << UInt8(bit)) != 0 {
                    f.add("Bit \(bit)", ADFlags.bitName(bit))
                }
            }
        case .serviceUUIDs(let list):
            fields.nested(type.name, "\(list.uuids.count) UUID(s)") { f in
                for u in list.uuids { f.add("UUID", u.nameAndValue) }
            }
        case .peripheralConnectionIntervalRange(let r):
            fields.nested(type.name) { f in
                f.add("Minimum", ConnectionIntervalRange.text(r.minimum, "minimum"))
                f.add("Maximum", ConnectionIntervalRange.text(r.maximum, "maximum"))
            }
        case .serviceData(let d):
            fields.nested(type.name, d.uuid.nameAndValue) { f in
                f.add("UUID", d.uuid.nameAndValue)
                f.add("Data", d.data.isEmpty ? "(none)" : Hex.spaced(d.data))
            }
        case .publicTargetAddresses(let list), .randomTargetAddresses(let list):
            fields.nested(type.name, "\(list.count) address(es)") { f in
                for a in list { f.add("Address", a.string) }
            }
        case .uri(let u):
            fields.nested(type.name, u.description) { f in
                f.add("Scheme", u.scheme.description)
                f.add("Remainder", quoted(u.remainder))
            }
        case .manufacturerSpecificData(let m):
            fields.nested(type.name, m.company.description) { f in
                f.add("Company", m.company.description)
                f.add("Data", m.data.isEmpty ? "(none)" : Hex.spaced(m.data))
            }
        default:
            fields.add(type.name, shortValue)
        }
    }
}

extension AdvertisingData: FieldDescribing {
    /// `"Thingy" · 4 AD structures`, with the issue count when there are issues.
    public var summary: String {
        var parts: [String] = []
        if let name = localName { parts.append(quoted(name)) }
        let n = structureCount
        parts.append("\(n) AD structure" + (n == 1 ? "" : "s"))
        if !issues.isEmpty { parts.append("\(issues.count) issue" + (issues.count == 1 ? "" : "s")) }
        return parts.joined(separator: " · ")
    }

    public func describeFields(into fields: inout FieldList) {
        for s in self { s.describeFields(into: &fields) }
        if let p = padding { fields.add("Padding", p.description) }
        for issue in issues { fields.add("Issue", issue.description) }
    }
}

/// Text in double quotes with control characters escaped, so a hostile name cannot break a
/// line of the dissector's output.
func quoted(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default:
            if scalar.value < 0x20 || scalar.value == 0x7F {
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out + "\""
}
