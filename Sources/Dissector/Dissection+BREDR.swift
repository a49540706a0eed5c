import Wire

/// ACL-U traffic: the BR/EDR signaling channel (CID 0x0001) and the connection-oriented
/// channels it opens — ATT on PSM 0x001F decoded as on LE, the others named by their PSM and
/// shown as bytes (as I- and S-frames in the retransmission and streaming modes).
extension Dissection {
    /// A link opened before the capture began shows its transport by the signaling channel
    /// it uses; a link whose opening event was seen keeps the transport that event gave.
    mutating func noteTransport(_ transport: LinkTransport, of handle: UInt16) {
        guard tables.transports[handle] == nil else { return }
        tables.transports[handle] = transport
        statistics.transports[LinkID(adapter: options.showsAdapter ? tablesAdapter : nil, handle: handle)] = transport
    }

    /// Whether a frame on a dynamic CID belongs to a BR/EDR channel: on a BR/EDR link always;
    /// on a link of unknown type when the CID lies above the LE range.
    func routesToBREDR(_ frame: L2CAPFrame) -> Bool {
        switch tables.transports[frame.handle] {
        case .brEdr?: return true
        case .le?: return false
        case nil: return !frame.channelID.isLEDynamic
        }
    }

    /// The commands of one C-frame on CID 0x0001 (often one, sometimes several).
    mutating func dissectBREDRSignaling(_ frame: L2CAPFrame, _ p: inout DissectedPacket) {
        p.code = "0x0001"
        noteTransport(.brEdr, of: frame.handle)
        let (commands, error) = BREDRSignalingCommand.decodeAll(frame.payload)
        if commands.count == 1, let command = commands.first {
            p.name = "L2CAP Signaling " + command.name
            command.appendSummary(to: &p.summaryText)
            if collectFields { command.describeFields(into: &p.fields) }
        } else {
            p.name = "L2CAP Signaling"
            p.summary = commands.isEmpty ? "no command" : commands.map(\.name).joined(separator: ", ")
            if collectFields {
                for command in commands {
                    p.fields.nested(command.name, command.summary) { command.describeFields(into: &$0) }
                }
            }
        }
        if let error {
            p.errors.append("L2CAP signaling: \(error)")
            if collectFields { p.fields.add("Data", Self.bytesText(frame.payload)) }
        }
        let direction = p.direction
        withKnowledge(of: frame.handle) { knowledge in
            for command in commands { knowledge.brEdrChannels.apply(command, direction: direction) }
        }
    }

    /// A frame on a BR/EDR connection-oriented channel. A CID whose set-up the capture does
    /// not hold is shown as bytes and says so.
    mutating func dissectBREDRChannel(_ frame: L2CAPFrame, _ p: inout DissectedPacket) {
        let cid = frame.channelID.rawValue
        p.channel = cid
        let key = ChannelEndpointKey(direction: p.direction, cid: cid)
        // Looked up in place: reading `tables.links[handle]` copies the link's knowledge
        // (a retain of each of its tables) for every frame.
        var found: BREDRChannels.Endpoint?
        var fcs = false
        withKnowledge(of: frame.handle) { knowledge in
            found = knowledge.brEdrChannels.endpoint(key)
            if found?.mode != .basic { fcs = knowledge.brEdrChannels.hasFCS(key) }
        }
        guard let ep = found else {
            p.name = "L2CAP " + frame.channelID.name
            p.code = Hex.number(cid, width: 4)
            p.summaryText.append(ByteCountText.phrase(frame.payload.count, "byte"))
            p.summaryText.append(" (channel set-up not in the capture: PSM unknown, not decoded)")
            if collectFields, !frame.payload.isEmpty { p.fields.add("Data", Hex.spaced(frame.payload)) }
            return
        }
        if ep.mode == .basic, ep.carriesATT {
            if collectFields { p.fields.add("Channel", ep.channelText) }
            dissectATT(frame.payload, handle: frame.handle, bearer: ep.bearer, &p)
            p.att?.transport = .brEdr
            return
        }
        // No code after the name: the line shows the CID already, and a number there would
        // read as the PSM.
        p.name = ep.name
        p.summaryText.append(ep.summaryPrefix)
        if collectFields { p.fields.add("Channel", ep.channelText) }
        guard ep.mode != .basic else {
            p.summaryText.append(ByteCountText.phrase(frame.payload.count, "byte"))
            if collectFields, !frame.payload.isEmpty { p.fields.add("Data", Hex.spaced(frame.payload)) }
            return
        }
        dissectControlledFrame(frame.payload, fcs: fcs, &p)
    }

    /// An I-frame or S-frame (§3.3): Enhanced Control Field, for a starting I-frame the SDU
    /// Length, the information payload, and the FCS when the channel uses one.
    private mutating func dissectControlledFrame(_ payload: ArraySlice<UInt8>, fcs: Bool, _ p: inout DissectedPacket) {
        let trailer = fcs ? 2 : 0
        guard payload.count >= 2 + trailer else {
            p.summaryText.append(ByteCountText.phrase(payload.count, "byte"))
            p.errors.append("L2CAP frame of \(payload.count) octet(s) is too short for its control field\(fcs ? " and FCS" : "")")
            if collectFields { p.fields.add("Data", Self.bytesText(payload)) }
            return
        }
        let b = payload.startIndex
        let control = L2CAPEnhancedControlField(rawValue: UInt16(payload[b]) | UInt16(payload[b + 1]) << 8)
        var information = payload.dropFirst(2).dropLast(trailer)
        p.summaryText.append(control.summary)
        if control.isIFrame {
            p.summaryText.append(", ")
            p.summaryText.append(ByteCountText.phrase(information.count, "byte"))
        }
        guard collectFields else { return }
        p.fields.add("Control", Hex.lowerNumber(control.rawValue, width: 4) + " (" + control.summary + ")")
        if control.isIFrame, control.sar == 1, information.count >= 2 {
            let i = information.startIndex
            p.fields.add("SDU Length", String(Int(information[i]) | Int(information[i + 1]) << 8))
            information = information.dropFirst(2)
        }
        if control.isIFrame || !information.isEmpty { p.fields.add("Data", Self.bytesText(information)) }
        if fcs {
            let f = payload.suffix(2)
            p.fields.add("FCS", Hex.lowerNumber(UInt16(f[f.startIndex]) | UInt16(f[f.startIndex + 1]) << 8, width: 4))
        }
    }
}
