extension BREDRSignalingCommand: FieldDescribing {
    /// The command name, e.g. `Configuration Request`.
    public var name: String { code.name }

    /// One phrase after the name (the name itself is not repeated).
    public var summary: String {
        let id = "ident \(identifier)"
        switch self {
        case let .commandReject(_, reject):
            return "\(id) reason \(reject.reason.name)"
        case let .connectionRequest(_, p):
            return "\(id) psm \(p.psm) scid \(L2CAPText.hex16(p.sourceCID.rawValue))"
        case let .connectionResponse(_, p):
            return "\(id) dcid \(L2CAPText.hex16(p.destinationCID.rawValue)) scid \(L2CAPText.hex16(p.sourceCID.rawValue)) \(p.result.name)"
        case let .configurationRequest(_, p):
            return "\(id) dcid \(L2CAPText.hex16(p.destinationCID.rawValue))" + Self.optionsText(p.options, continues: p.continues)
        case let .configurationResponse(_, p):
            return "\(id) scid \(L2CAPText.hex16(p.sourceCID.rawValue)) \(p.result.name)" + Self.optionsText(p.options, continues: p.continues)
        case let .disconnectionRequest(_, p), let .disconnectionResponse(_, p):
            return "\(id) dcid \(L2CAPText.hex16(p.destinationCID.rawValue)) scid \(L2CAPText.hex16(p.sourceCID.rawValue))"
        case let .echoRequest(_, data), let .echoResponse(_, data):
            return "\(id) data \(L2CAPText.short(data))"
        case let .informationRequest(_, type):
            return "\(id) \(type.name)"
        case let .informationResponse(_, p):
            return "\(id) \(p.infoType.name): " + (p.isSuccess ? Self.informationText(p) : p.resultName)
        case let .unknown(code, _, data):
            return "\(id) code \(L2CAPText.hex8(code.rawValue)) data \(L2CAPText.short(data))"
        }
    }

    /// `, MTU 672, Flush Timeout infinite` (or `, no options`), and `, continues` when more follow.
    private static func optionsText(_ options: [L2CAPConfigurationOption], continues: Bool) -> String {
        var s = options.isEmpty ? ", no options" : ""
        for o in options { s += ", " + o.description }
        return s + (continues ? ", continues" : "")
    }

    /// What a successful Information Response tells, in a few words.
    private static func informationText(_ p: L2CAPInformationResponse) -> String {
        if let mtu = p.connectionlessMTU { return "\(mtu)" }
        if let mask = p.extendedFeatures {
            let names = L2CAPInformationResponse.featureNames(mask)
            return Hex.lowerNumber(mask, width: 8) + (names.isEmpty ? "" : " (" + names.joined(separator: ", ") + ")")
        }
        if let channels = p.fixedChannels { return fixedChannelsText(channels) }
        return L2CAPText.short(p.data)
    }

    /// `0x0000000000000086 (CIDs 0x0001, 0x0002, 0x0007)`.
    static func fixedChannelsText(_ bitmap: UInt64) -> String {
        var cids: [String] = []
        for bit in 0..<64 where bitmap & (1 << UInt64(bit)) != 0 { cids.append(L2CAPText.hex16(UInt16(bit))) }
        return Hex.lowerNumber(bitmap, width: 16) + (cids.isEmpty ? "" : " (CIDs " + cids.joined(separator: ", ") + ")")
    }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Code", code.description)
        fields.add("Identifier", L2CAPText.hex8(identifier))
        switch self {
        case let .commandReject(_, reject):
            reject.describeFields(into: &fields)
        case let .connectionRequest(_, p):
            fields.add("PSM", p.psm.description)
            fields.add("Source CID", L2CAPText.hex16(p.sourceCID.rawValue))
        case let .connectionResponse(_, p):
            fields.add("Destination CID", L2CAPText.hex16(p.destinationCID.rawValue))
            fields.add("Source CID", L2CAPText.hex16(p.sourceCID.rawValue))
            fields.add("Result", p.result.description)
            fields.add("Status", L2CAPText.named(p.statusName, p.status))
        case let .configurationRequest(_, p):
            fields.add("Destination CID", L2CAPText.hex16(p.destinationCID.rawValue))
            fields.add("Flags", L2CAPText.hex16(p.flags) + (p.continues ? " (continuation)" : ""))
            Self.describe(p.options, into: &fields)
        case let .configurationResponse(_, p):
            fields.add("Source CID", L2CAPText.hex16(p.sourceCID.rawValue))
            fields.add("Flags", L2CAPText.hex16(p.flags) + (p.continues ? " (continuation)" : ""))
            fields.add("Result", p.result.description)
            Self.describe(p.options, into: &fields)
        case let .disconnectionRequest(_, p), let .disconnectionResponse(_, p):
            p.describeFields(into: &fields)
        case let .echoRequest(_, data), let .echoResponse(_, data), let .unknown(_, _, data):
            fields.add("Data", L2CAPText.bytes(data))
        case let .informationRequest(_, type):
            fields.add("InfoType", type.description)
        case let .informationResponse(_, p):
            fields.add("InfoType", p.infoType.description)
            fields.add("Result", L2CAPText.named(p.resultName, p.result))
            if let mtu = p.connectionlessMTU {
                fields.add("Connectionless MTU", String(mtu))
            } else if let mask = p.extendedFeatures {
                fields.nested("Extended features", Hex.lowerNumber(mask, width: 8)) { f in
                    for name in L2CAPInformationResponse.featureNames(mask) { f.add("Feature", name) }
                }
            } else if let channels = p.fixedChannels {
                fields.add("Fixed channels", Self.fixedChannelsText(channels))
            } else if !p.data.isEmpty {
                fields.add("Data", L2CAPText.bytes(p.data))
            }
        }
    }

    private static func describe(_ options: [L2CAPConfigurationOption], into fields: inout FieldList) {
        for o in options { fields.add("Option", o.description) }
    }
}
