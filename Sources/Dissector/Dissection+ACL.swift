import Wire
import Sensors

/// ACL data: reassembly per handle, then L2CAP — LE signaling, ATT on the fixed channel and
/// on EATT channels, K-frames of credit-based channels.
extension Dissection {
    mutating func dissectACL(_ p: inout DissectedPacket) {
        let acl: ACLPacket
        do {
            acl = try ACLPacket.decode(p.bytes)
        } catch {
            p.name = "ACL Data"
            p.errors.append("ACL header: \(error)")
            return
        }
        p.connectionHandle = acl.handle
        p.peer = tables.peers[acl.handle]
        let out = tables.reassembler.feed(acl)
        // The two optional issues one by one: `out.issues` builds an array for every packet.
        if let issue = out.abandoned { p.errors.append("L2CAP reassembly: \(issue)") }
        if let issue = out.issue { p.errors.append("L2CAP reassembly: \(issue)") }
        guard let frame = out.frame else {
            p.name = "ACL Data"
            p.summary = "\(acl.packetBoundary.name), \(acl.data.count) bytes (L2CAP frame continues)"
            return
        }
        switch frame.channelID {
        case .att: dissectATT(frame.payload, handle: frame.handle, bearer: nil, &p)
        case .leSignaling: dissectSignaling(frame, &p)
        case .signaling: dissectBREDRSignaling(frame, &p)
        case .securityManager: dissectSMP(frame, &p)
        case let cid where cid.isBREDRDynamic && routesToBREDR(frame):
            dissectBREDRChannel(frame, &p)
        case let cid where cid.isLEDynamic: dissectKFrame(frame, &p)
        default:
            p.name = "L2CAP " + frame.channelID.name
            p.code = Hex.number(frame.channelID.rawValue, width: 4)
            p.summary = ByteCountText.phrase(frame.payload.count, "byte")
            if collectFields, !frame.payload.isEmpty { p.fields.add("Data", Hex.spaced(frame.payload)) }
        }
    }

    private mutating func dissectSignaling(_ frame: L2CAPFrame, _ p: inout DissectedPacket) {
        p.code = "0x0005"
        do {
            let cmd = try LESignalingCommand.decode(frame.payload)
            p.name = "LE Signaling " + cmd.name
            cmd.appendSummary(to: &p.summaryText)
            if collectFields { cmd.describeFields(into: &p.fields) }
            let direction = p.direction
            noteTransport(.le, of: frame.handle)
            withKnowledge(of: frame.handle) { $0.channels.apply(cmd, direction: direction) }
        } catch {
            p.name = "LE Signaling"
            p.errors.append("LE signaling: \(error)")
        }
    }

    /// A Security Manager PDU (CID 0x0006). Keys (LTK, IRK, CSRK) only with `--show-keys`.
    private mutating func dissectSMP(_ frame: L2CAPFrame, _ p: inout DissectedPacket) {
        let pdu: SMPPDU
        do {
            pdu = try SMPPDU.decode(frame.payload)
        } catch {
            p.name = "SMP"
            if let code = frame.payload.first {
                p.name = "SMP " + SMPCode(code).name
                p.code = Dissection.byteCodes[Int(code)]
            }
            p.errors.append("SMP: \(error)")
            if collectFields { p.fields.add("Data", Self.bytesText(frame.payload)) }
            return
        }
        p.name = "SMP " + pdu.name
        p.code = Dissection.byteCodes[Int(pdu.code.rawValue)]
        let keys: SMPKeyVisibility = options.showKeys ? .shown : .redacted
        if pdu.carriesKey && keys == .shown {
            // The summary never holds a key; with --show-keys the headline does.
            var fields = FieldList()
            pdu.describeFields(into: &fields, keys: .shown)
            p.summary = "key " + (fields.entries.last?.value ?? "")
        } else {
            p.summary = pdu.summary
        }
        if collectFields { pdu.describeFields(into: &p.fields, keys: keys) }
        if pdu.carriesKey && keys == .redacted, let r = Self.offsets(of: frame.payload.dropFirst(), in: p.bytes) {
            p.redactedBytes = r
            if collectFields { p.fields.add("Redacted", "octets \(r.lowerBound)–\(r.upperBound - 1) (the key) show as 00 in hex; --show-keys shows them") }
        }
    }

    /// Where `part` lies in `whole` when it is a slice of the same storage (an L2CAP frame that
    /// came in this one ACL packet); nil for a frame reassembled from several.
    static func offsets(of part: ArraySlice<UInt8>, in whole: ArraySlice<UInt8>) -> Range<Int>? {
        whole.withUnsafeBufferPointer { w in
            part.withUnsafeBufferPointer { p -> Range<Int>? in
                guard let wb = w.baseAddress, let pb = p.baseAddress, pb >= wb, pb + p.count <= wb + w.count else { return nil }
                let start = pb - wb
                return start..<(start + p.count)
            }
        }
    }

    /// A K-frame of a credit-based channel (CID 0x0040–0x007F): its SDU is reassembled on the
    /// channel; an EATT SDU is then decoded as ATT, any other shown as data. A CID whose set-up
    /// the capture does not hold is shown as bytes, as tshark does, and says so.
    private mutating func dissectKFrame(_ frame: L2CAPFrame, _ p: inout DissectedPacket) {
        let cid = frame.channelID.rawValue
        p.channel = cid
        let key = CreditBasedChannels.Key(direction: p.direction, cid: cid)
        var outcome = CreditBasedChannels.KFrame.unknownChannel
        withKnowledge(of: frame.handle) { outcome = $0.channels.receive(frame.payload, on: key) }
        switch outcome {
        case .unknownChannel:
            p.name = "L2CAP " + frame.channelID.name
            p.code = Hex.number(cid, width: 4)
            p.summaryText.append(ByteCountText.phrase(frame.payload.count, "byte"))
            let transport = tables.transports[frame.handle]
            p.summaryText.append(transport == .le ? " (channel set-up not in the capture: SPSM unknown, not decoded)"
                                 : " (link type and channel set-up not in the capture: PSM or SPSM unknown, not decoded)")
            if collectFields, !frame.payload.isEmpty { p.fields.add("Data", Hex.spaced(frame.payload)) }
        case let .segment(ep, have, total, first):
            p.name = "L2CAP K-frame"
            p.code = Hex.number(cid, width: 4)
            p.summary = "\(Self.channelText(ep)): SDU \(have) of \(total) bytes (continues)"
            if collectFields {
                describeChannel(ep, cid: cid, into: &p.fields)
                if first { p.fields.add("SDU Length", String(total)) }
                p.fields.add("Data", Self.bytesText(first ? frame.payload.dropFirst(2) : frame.payload))
            }
        case let .sdu(ep, sdu, segments):
            if ep.isEATT {
                if collectFields {
                    describeChannel(ep, cid: cid, into: &p.fields)
                    if segments { p.fields.add("SDU", "\(sdu.count) bytes, reassembled") }
                }
                dissectATT(sdu, handle: frame.handle, bearer: ep.bearer, &p)
                p.att?.bearerIsEnhanced = ep.enhanced
            } else {
                p.name = "L2CAP K-frame"
                p.code = Hex.number(cid, width: 4)
                p.summary = "\(Self.channelText(ep)): SDU \(sdu.count) bytes" + (segments ? ", reassembled" : "")
                if collectFields {
                    describeChannel(ep, cid: cid, into: &p.fields)
                    p.fields.add("SDU", Self.bytesText(sdu))
                }
            }
        case let .malformed(ep, reason):
            p.name = "L2CAP K-frame"
            p.code = Hex.number(cid, width: 4)
            p.summary = Self.channelText(ep)
            if collectFields { p.fields.add("Data", Self.bytesText(frame.payload)) }
            p.errors.append("K-frame on CID \(Hex.number(cid, width: 4)): \(reason)")
        }
    }

    /// Spaced hex, or `(empty)`.
    static func bytesText(_ b: ArraySlice<UInt8>) -> String {
        b.isEmpty ? "(empty)" : Hex.spaced(b)
    }

    /// `EATT` or `SPSM 0x0080`, for headlines.
    static func channelText(_ ep: CreditBasedChannels.Endpoint) -> String {
        ep.isEATT ? "EATT" : "SPSM " + Hex.number(ep.spsm, width: 4)
    }

    private func describeChannel(_ ep: CreditBasedChannels.Endpoint, cid: UInt16, into fields: inout FieldList) {
        let spsm = Hex.number(ep.spsm, width: 4) + (ep.isEATT ? " (EATT)" : "")
        let mode = ep.enhanced ? "enhanced credit based" : "LE credit based"
        fields.add("Channel", "CID \(Hex.number(cid, width: 4)), SPSM \(spsm), \(mode), MTU \(ep.mtu), MPS \(ep.mps)")
    }

    /// One ATT PDU, on the fixed channel (`bearer` nil) or an EATT channel.
    mutating func dissectATT(_ payload: ArraySlice<UInt8>, handle: UInt16, bearer: UInt16?, _ p: inout DissectedPacket) {
        let pdu: ATTPDU
        do {
            pdu = try ATTPDU.decode(payload)
        } catch {
            p.name = "ATT"
            if let op = payload.first {
                p.name = "ATT " + ATTOpcode(rawValue: op).name
                var att = ATTSummary(opcode: op, name: ATTOpcode(rawValue: op).name)
                att.bearer = bearer
                p.att = att
            }
            p.errors.append("ATT: \(error)")
            return
        }
        let opcode = pdu.opcode.rawValue
        p.name = Dissection.cachedName(&attNames, opcode) { "ATT " + pdu.name }
        p.code = Dissection.byteCodes[Int(opcode)]
        pdu.appendSummary(to: &p.summaryText)
        if collectFields { pdu.describeFields(into: &p.fields) }
        var att = ATTSummary(opcode: opcode, name: pdu.name)
        att.bearer = bearer
        // Changed in place: a copy taken out and written back copied its dictionaries.
        let direction = p.direction
        let bearerKey = bearer ?? L2CAPChannelID.att.rawValue
        withKnowledge(of: handle) { knowledge in
            knowledge.learn(from: pdu, direction: direction, bearer: bearerKey)
            switch pdu {
            case .handleValueNotification(let hv), .handleValueIndication(let hv),
                 .writeRequest(let hv), .writeCommand(let hv):
                att.handle = hv.handle
                att.value = hv.value
                Self.label(&att, hv.handle, knowledge)
            case .readRequest(let h), .readBlobRequest(let h, _):
                att.handle = h
                Self.label(&att, h, knowledge)
            case .readResponse(let value):
                att.value = value
                if let h = knowledge.takeReadHandle(responseDirection: direction, bearer: bearerKey) {
                    att.handle = h
                    Self.label(&att, h, knowledge)
                }
            case .errorResponse(let e):
                att.handle = e.attributeHandleInError
            default:
                break
            }
        }
        if let uuid = att.characteristic, let value = att.value, pdu.opcode.rawValue != 0x12, pdu.opcode.rawValue != 0x52,
           let decoded = SensorValueDecoder.decode(uuid: uuid, value: value) {
            att.decodedValue = decoded.summary
            if decoded.isMalformed { p.errors.append("\(decoded.characteristicName): \(decoded.summary)") }
        }
        p.att = att
    }

    @inline(__always)
    private static func label(_ att: inout ATTSummary, _ handle: UInt16, _ knowledge: LinkKnowledge) {
        att.characteristic = knowledge.attributeTypes[handle]
        if !knowledge.cachedHandles.isEmpty, att.characteristic != nil {
            att.characteristicFromCache = knowledge.cachedHandles.contains(handle)
        }
    }

    /// Runs `body` on the knowledge of link `handle`, created empty the first time.
    mutating func withKnowledge(of handle: UInt16, _ body: (inout LinkKnowledge) -> Void) {
        body(&tables.links[handle, default: LinkKnowledge()])
    }
}
