extension LESignalingCommand: FieldDescribing {
    /// The command name, for a headline such as `LE L2CAP: Connection Parameter Update Request (0x12) ident 3 len 8`.
    public var name: String { code.name }

    /// One phrase after the name (the name itself is not repeated).
    public var summary: String {
        let id = "ident \(identifier)"
        switch self {
        case let .commandReject(_, reject):
            return "\(id) reason \(reject.reason.name)"
        case let .disconnectionRequest(_, p), let .disconnectionResponse(_, p):
            return "\(id) dcid \(L2CAPText.hex16(p.destinationCID.rawValue)) scid \(L2CAPText.hex16(p.sourceCID.rawValue))"
        case let .connectionParameterUpdateRequest(_, p):
            return "\(id) interval \(p.intervalMin)-\(p.intervalMax) latency \(p.peripheralLatency) timeout \(p.timeoutMultiplier)"
        case let .connectionParameterUpdateResponse(_, result):
            return "\(id) \(result.name)"
        case let .leCreditBasedConnectionRequest(_, p):
            return "\(id) spsm \(L2CAPText.hex16(p.spsm)) scid \(L2CAPText.hex16(p.sourceCID.rawValue)) mtu \(p.mtu) mps \(p.mps) credits \(p.initialCredits)"
        case let .leCreditBasedConnectionResponse(_, p):
            return "\(id) dcid \(L2CAPText.hex16(p.destinationCID.rawValue)) mtu \(p.mtu) mps \(p.mps) credits \(p.initialCredits) \(p.result.name)"
        case let .flowControlCreditInd(_, p):
            return "\(id) cid \(L2CAPText.hex16(p.cid.rawValue)) credits \(p.credits)"
        case let .creditBasedConnectionRequest(_, p):
            return "\(id) spsm \(L2CAPText.hex16(p.spsm)) scid \(L2CAPChannelIDList.text(p.sourceCIDs)) mtu \(p.mtu) mps \(p.mps) credits \(p.initialCredits)"
        case let .creditBasedConnectionResponse(_, p):
            return "\(id) dcid \(L2CAPChannelIDList.text(p.destinationCIDs)) mtu \(p.mtu) mps \(p.mps) credits \(p.initialCredits) \(p.result.name)"
        case let .creditBasedReconfigureRequest(_, p):
            return "\(id) dcid \(L2CAPChannelIDList.text(p.destinationCIDs)) mtu \(p.mtu) mps \(p.mps)"
        case let .creditBasedReconfigureResponse(_, result):
            return "\(id) \(result.name)"
        case let .unknown(code, _, data):
            return "\(id) code \(L2CAPText.hex8(code.rawValue)) data \(L2CAPText.short(data))"
        }
    }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Code", code.description)
        fields.add("Identifier", L2CAPText.hex8(identifier))
        switch self {
        case let .commandReject(_, reject):
            reject.describeFields(into: &fields)
        case let .disconnectionRequest(_, p), let .disconnectionResponse(_, p):
            p.describeFields(into: &fields)
        case let .connectionParameterUpdateRequest(_, p):
            fields.add("Interval Min", "\(p.intervalMin) (\(Self.milliseconds(Int(p.intervalMin) * 125, scale: 100)) ms)")
            fields.add("Interval Max", "\(p.intervalMax) (\(Self.milliseconds(Int(p.intervalMax) * 125, scale: 100)) ms)")
            fields.add("Peripheral Latency", String(p.peripheralLatency))
            fields.add("Timeout Multiplier", "\(p.timeoutMultiplier) (\(Int(p.timeoutMultiplier) * 10) ms)")
        case let .connectionParameterUpdateResponse(_, result):
            fields.add("Result", result.description)
        case let .leCreditBasedConnectionRequest(_, p):
            fields.add("SPSM", L2CAPText.hex16(p.spsm))
            fields.add("Source CID", L2CAPText.hex16(p.sourceCID.rawValue))
            fields.add("MTU", String(p.mtu))
            fields.add("MPS", String(p.mps))
            fields.add("Initial Credits", String(p.initialCredits))
        case let .leCreditBasedConnectionResponse(_, p):
            fields.add("Destination CID", L2CAPText.hex16(p.destinationCID.rawValue))
            fields.add("MTU", String(p.mtu))
            fields.add("MPS", String(p.mps))
            fields.add("Initial Credits", String(p.initialCredits))
            fields.add("Result", p.result.description)
        case let .flowControlCreditInd(_, p):
            fields.add("CID", L2CAPText.hex16(p.cid.rawValue))
            fields.add("Credits", String(p.credits))
        case let .creditBasedConnectionRequest(_, p):
            fields.add("SPSM", L2CAPText.hex16(p.spsm))
            fields.add("MTU", String(p.mtu))
            fields.add("MPS", String(p.mps))
            fields.add("Initial Credits", String(p.initialCredits))
            fields.add("Source CID", L2CAPChannelIDList.text(p.sourceCIDs))
        case let .creditBasedConnectionResponse(_, p):
            fields.add("MTU", String(p.mtu))
            fields.add("MPS", String(p.mps))
            fields.add("Initial Credits", String(p.initialCredits))
            fields.add("Result", p.result.description)
            fields.add("Destination CID", L2CAPChannelIDList.text(p.destinationCIDs))
        case let .creditBasedReconfigureRequest(_, p):
            fields.add("MTU", String(p.mtu))
            fields.add("MPS", String(p.mps))
            fields.add("Destination CID", L2CAPChannelIDList.text(p.destinationCIDs))
        case let .creditBasedReconfigureResponse(_, result):
            fields.add("Result", result.description)
        case let .unknown(_, _, data):
            fields.add("Data", L2CAPText.bytes(data))
        }
    }

    /// `value / scale` with two decimals, without Foundation (1.25 ms units are exact in
    /// hundredths).
    static func milliseconds(_ value: Int, scale: Int) -> String {
        let whole = value / scale
        let fraction = value % scale
        return "\(whole)." + (fraction < 10 ? "0" : "") + String(fraction)
    }
}
