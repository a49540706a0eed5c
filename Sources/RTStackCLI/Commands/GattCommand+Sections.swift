import Dissector
import HostCore
import JSON
import Wire

/// The output of `rtstack gatt` with a selection (`GattSelection`): one section per service or
/// range, in the shape of the whole tree.
extension GattCommand {
    static func sectionsText(_ sections: [GattSelection.Section], _ values: [UInt16: Result<[UInt8], any Error>],
                             peer: DeviceAddress) -> String {
        var s = "\(peer)\n"
        for section in sections {
            if let svc = section.service {
                s += serviceLine(svc)
            } else {
                s += "range \(Hex.number(section.range.lowerBound, width: 4))-\(Hex.number(section.range.upperBound, width: 4))\n"
            }
            if let included = section.included {
                s += included.isEmpty ? "  no included services\n" : includesText(included)
            }
            if let characteristics = section.characteristics {
                s += characteristics.isEmpty ? "  no characteristics\n" : characteristicsText(characteristics, values)
            }
            if let attributes = section.attributes {
                s += attributes.isEmpty ? "  no attributes\n" : attributes.map {
                    "  attribute \(Hex.number($0.handle, width: 4)) \(uuidText($0.uuid))\n"
                }.joined()
            }
        }
        return s
    }

    static func sectionsJSON(_ sections: [GattSelection.Section], _ values: [UInt16: Result<[UInt8], any Error>]) -> String {
        var o = JSONObject()
        o.add("sections", objects: sections.map { section in
            var so = section.service.map(serviceJSON) ?? JSONObject()
            if section.service == nil {
                so.add("start", Int(section.range.lowerBound))
                so.add("end", Int(section.range.upperBound))
            }
            if let included = section.included {
                so.add("included", objects: included.map { inc in
                    var io = JSONObject()
                    io.add("handle", Int(inc.declarationHandle))
                    io.add("start", Int(inc.startHandle))
                    io.add("end", Int(inc.endHandle))
                    if let u = inc.uuid { io.add("uuid", u.string) }
                    return io
                })
            }
            if let characteristics = section.characteristics {
                so.add("characteristics", objects: characteristicsJSON(characteristics, values))
            }
            if let attributes = section.attributes {
                so.add("attributes", objects: attributes.map(attributeJSON))
            }
            return so
        })
        return o.finished
    }
}
