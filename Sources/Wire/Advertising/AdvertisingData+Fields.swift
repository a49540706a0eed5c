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
        var t = TextBuffer()
        guard let value = try? decodeValue() else {
            t.append("malformed (")
            t.appendSpacedHex(data)
            t.append(byte: 0x29)
            return t.string
        }
        ADStructure.appendShortValue(value, to: &t)
        return t.string
    }

    /// `shortValue` of a decoded value, written into a buffer.
    static func appendShortValue(_ value: ADValue, to t: inout TextBuffer) {
        switch value {
        case .flags(let f): t.appendHexNumber(f.rawValue, width: 2)
        case .serviceUUIDs(let l):
            if l.uuids.count == 1, let u = l.uuids.first {
                t.append(u.nameAndValue)
            } else {
                t.appendDecimal(l.uuids.count)
                t.append(" UUIDs")
            }
        case .localName(let n): appendQuoted(n.text, to: &t)
        case .txPowerLevel(let p):
            t.appendDecimal(Int(p))
            t.append(" dBm")
        case .classOfDevice(let c): t.appendHexNumber(c, width: 6)
        case .peripheralConnectionIntervalRange(let r): t.append(r.description)
        case .serviceData(let d): t.append(d.uuid.nameAndValue)
        case .publicTargetAddresses(let list), .randomTargetAddresses(let list):
            if list.count == 1 {
                t.append(list[0].string)
            } else {
                t.appendDecimal(list.count)
                t.append(" addresses")
            }
        case .appearance(let a): t.append(a.description)
        case .advertisingInterval(let i): t.append(i.description)
        case .leBluetoothDeviceAddress(let d):
            t.append(d.description)
            t.append(" (")
            t.append(d.kindName)
            t.append(byte: 0x29)
        case .leRole(let r): t.append(r.name)
        case .uri(let u): t.append(u.description)
        case .broadcastName(let s): appendQuoted(s, to: &t)
        case .manufacturerSpecificData(let m): t.append(m.company)
        case .unparsed(_, let d): t.appendSpacedHex(d)
        }
    }

    /// Labels of the Flags bits, so that listing them builds no strings.
    private static let bitLabels = ["Bit 0", "Bit 1", "Bit 2", "Bit 3", "Bit 4", "Bit 5", "Bit 6", "Bit 7"]

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
            fields.nested(type.name, value: { $0.appendHexNumber(flags.rawValue, width: 2) }) { f in
                for bit in 0..<8 where flags.rawValue & (1 << UInt8(bit)) != 0 {
                    f.add(ADStructure.bitLabels[bit], ADFlags.bitName(bit))
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
            fields.nested(type.name, value: { $0.append(m.company) }) { f in
                f.add("Company") { $0.append(m.company) }
                f.add("Data") { t in
                    if m.data.isEmpty { t.append("(none)") } else { t.appendSpacedHex(m.data) }
                }
            }
        default:
            fields.add(type.name) { ADStructure.appendShortValue(value, to: &$0) }
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
        AdvertisingData.describeFields(of: bytes, into: &fields)
    }

    /// `AdvertisingData(bytes).describeFields(into:)` in one walk over the structures, the
    /// issues gathered on the way: every advertising report's field list comes through here.
    static func describeFields(of bytes: ArraySlice<UInt8>, into fields: inout FieldList) {
        var walk = ADStructureIterator(bytes)
        var issues: [ADIssue] = []
        while let place = walk.nextPlace() {
            let s = ADStructure(type: place.type, data: bytes[place.data], offset: place.offset)
            s.describeFields(into: &fields)
            if let error = s.problem { issues.append(.malformedStructure(offset: s.offset, type: s.type, error: error)) }
        }
        if let overrun = walk.overrun { issues.append(overrun) }
        if let p = walk.padding { fields.add("Padding", p.description) }
        for issue in issues { fields.add("Issue", issue.description) }
    }
}

/// Text in double quotes with control characters escaped, so a hostile name cannot break a
/// line of the dissector's output.
func quoted(_ s: String) -> String {
    var t = TextBuffer(capacity: s.utf8.count + 2)
    appendQuoted(s, to: &t)
    return t.string
}

/// `quoted(_:)` written into a buffer.
func appendQuoted(_ s: String, to t: inout TextBuffer) {
    t.append(byte: 0x22)
    for scalar in s.unicodeScalars {
        switch scalar {
        case "\"": t.append("\\\"")
        case "\\": t.append("\\\\")
        case "\n": t.append("\\n")
        case "\r": t.append("\\r")
        case "\t": t.append("\\t")
        default:
            if scalar.value < 0x20 || scalar.value == 0x7F {
                t.append("\\u{")
                t.append(String(scalar.value, radix: 16))
                t.append(byte: 0x7D)
            } else {
                UTF8.encode(scalar) { t.append(byte: $0) }
            }
        }
    }
    t.append(byte: 0x22)
}
