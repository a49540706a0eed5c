import Wire
import Capture
import Sensors

/// Turns capture records into `DissectedPacket`s, keeping the state a reader of a trace keeps
/// in their head: ACL fragments per handle until their L2CAP frame is complete, the peer of
/// each connection, and which characteristic each attribute handle is.
///
/// Malformed bytes never stop it: each problem is attached to its packet and counted.
public final class PacketDissector {
    /// All state lives in one struct that each call changes in one access: stored properties
    /// of a class are checked for exclusive access at run time on every use, and those checks
    /// cost more than some of the packets.
    private var state: Dissection

    /// Build `fields` for each packet (the text and JSON views want them; counting does not).
    public var collectFields: Bool {
        get { state.collectFields }
        set { state.collectFields = newValue }
    }

    public var statistics: DecodeStatistics { state.statistics }

    public init(collectFields: Bool = true) {
        state = Dissection(collectFields: collectFields)
    }

    public func dissect(_ record: CaptureRecord) -> DissectedPacket {
        var p = DissectedPacket(index: 0, timestampMicros: 0, relativeTime: 0, direction: record.direction,
                                type: record.packet.type, bytes: record.packet.bytes)
        dissect(record, into: &p)
        return p
    }

    /// `dissect(_:)` into a packet whose memory (summary text, fields) is reused: a decoder
    /// that renders each packet before the next passes the same one every time and allocates
    /// nothing for them after the first few packets.
    public func dissect(_ record: CaptureRecord, into p: inout DissectedPacket) {
        state.dissect(record, into: &p)
    }

    /// Records a read error of the capture itself (e.g. a truncated last record) in the totals.
    public func noteCaptureError(_ message: String) {
        state.noteCaptureError(message)
    }
}

/// The work and the state of a `PacketDissector`.
struct Dissection {
    var collectFields: Bool
    private(set) var statistics = DecodeStatistics()

    private var reassembler = ACLReassembler()
    private var links: [UInt16: LinkKnowledge] = [:]
    private var firstTimestamp: Int64?
    private var index = 0
    /// Headline names built once per event code, LE subevent and ATT opcode: making
    /// "LE Meta: LE Advertising Report" for every report cost more than decoding the report.
    private var eventNames = [String?](repeating: nil, count: 256)
    private var leEventNames = [String?](repeating: nil, count: 256)
    private var attNames = [String?](repeating: nil, count: 256)

    init(collectFields: Bool) {
        self.collectFields = collectFields
    }

    mutating func dissect(_ record: CaptureRecord, into p: inout DissectedPacket) {
        index += 1
        let first = firstTimestamp ?? record.timestampMicros
        if firstTimestamp == nil { firstTimestamp = first }
        p.reset(
            index: index, timestampMicros: record.timestampMicros,
            relativeTime: Double(record.timestampMicros &- first) / 1_000_000,
            direction: record.direction, type: record.packet.type, bytes: record.packet.bytes)
        switch record.packet.type {
        case .command: dissectCommand(&p)
        case .event: dissectEvent(&p)
        case .acl: dissectACL(&p)
        case .sco: dissectIsochronous(&p, name: "SCO Data")
        case .iso: dissectIsochronous(&p, name: "ISO Data")
        }
        statistics.count(p)
    }

    /// The name in `cache[key]`, made by `make` the first time.
    private static func cachedName(_ cache: inout [String?], _ key: UInt8, _ make: () -> String) -> String {
        if let name = cache[Int(key)] { return name }
        let name = make()
        cache[Int(key)] = name
        return name
    }

    mutating func noteCaptureError(_ message: String) {
        statistics.decodeErrors += 1
        if statistics.errorSamples.count < 10 { statistics.errorSamples.append(message) }
    }

    // MARK: Commands

    private mutating func dissectCommand(_ p: inout DissectedPacket) {
        let cmd: HCICommandPacket
        do {
            cmd = try HCICommandPacket(bytes: p.bytes)
        } catch {
            p.name = "Command"
            p.errors.append("command header: \(error)")
            return
        }
        p.name = cmd.opcode.name
        p.code = Hex.number(cmd.opcode.rawValue, width: 4)
        switch HCICommandCatalog.decodeParameters(opcode: cmd.opcode, cmd.parameters) {
        case .success(let value)?:
            value.appendSummary(to: &p.summaryText)
            if collectFields { value.describeFields(into: &p.fields) }
        case .failure(let error)?:
            p.errors.append("\(cmd.opcode.name) parameters: \(error)")
            if collectFields { p.fields.add("Parameters", Hex.spaced(cmd.parameters)) }
        case nil:
            p.summary = cmd.parameters.isEmpty ? "" : ByteCountText.phrase(cmd.parameters.count, "parameter byte")
            if collectFields, !cmd.parameters.isEmpty { p.fields.add("Parameters", Hex.spaced(cmd.parameters)) }
        }
    }

    // MARK: Events

    private mutating func dissectEvent(_ p: inout DissectedPacket) {
        let event: HCIEvent
        do {
            event = try HCIEvent(bytes: p.bytes)
        } catch {
            p.name = "Event"
            if let code = p.bytes.first { p.code = Hex.number(code, width: 2) }
            p.errors.append("event: \(error)")
            return
        }
        if let sub = event.leSubevent {
            p.name = Dissection.cachedName(&leEventNames, sub.rawValue) { event.name }
        } else {
            p.name = Dissection.cachedName(&eventNames, event.code.rawValue) { event.name }
        }
        p.code = Dissection.byteCodes[Int(event.code.rawValue)]
        switch event {
        case .commandComplete(let cc):
            describeCommandComplete(cc, &p)
        case .commandStatus(let cs):
            // The headline names the command and how it went; the fields are the event's.
            p.summaryText.append(cs.commandOpcode.name)
            p.summaryText.append(": ")
            p.summaryText.append(cs.status.description)
            if collectFields { cs.describeFields(into: &p.fields) }
        default:
            if collectFields {
                event.describe(summary: &p.summaryText, fields: &p.fields)
            } else {
                event.appendSummary(to: &p.summaryText)
            }
        }
        switch event {
        case .disconnectionComplete(let d):
            p.connectionHandle = d.connectionHandle
            _ = reassembler.reset(handle: d.connectionHandle)
            links[d.connectionHandle]?.pendingRequest = [:]
        case .le(let le):
            dissectLEMeta(le, &p)
        default:
            break
        }
    }

    /// Return parameters this catalog decodes take the place of the event's raw hex line.
    private func describeCommandComplete(_ cc: CommandCompleteEvent, _ p: inout DissectedPacket) {
        switch HCICommandCatalog.decodeReturnParameters(opcode: cc.commandOpcode, cc.returnParameters) {
        case .success(let value)?:
            cc.appendSummary(to: &p.summaryText)
            let returned = value.summary
            if !returned.isEmpty {
                p.summaryText.append(": ")
                p.summaryText.append(returned)
            }
            if collectFields {
                p.fields.add("Num HCI command packets") { $0.appendDecimal(Int(cc.numHCICommandPackets)) }
                p.fields.add("Command opcode") { $0.append(cc.commandOpcode) }
                p.fields.nested("Return parameters") { value.describeFields(into: &$0) }
            }
        case let result:
            cc.appendSummary(to: &p.summaryText)
            if collectFields { cc.describeFields(into: &p.fields) }
            if case .failure(let error)? = result {
                p.errors.append("\(cc.commandOpcode.name) return parameters: \(error)")
            }
        }
    }

    private mutating func dissectLEMeta(_ le: LEMetaEvent, _ p: inout DissectedPacket) {
        switch le {
        case .connectionComplete(let c) where c.status.isSuccess:
            p.connectionHandle = c.connectionHandle
            connectionOpened(handle: c.connectionHandle, peer: c.peer)
        case .enhancedConnectionCompleteV1(let c) where c.status.isSuccess:
            p.connectionHandle = c.connectionHandle
            connectionOpened(handle: c.connectionHandle, peer: c.peer)
        case .enhancedConnectionCompleteV2(let c) where c.status.isSuccess:
            p.connectionHandle = c.connectionHandle
            connectionOpened(handle: c.connectionHandle, peer: c.peer)
        default:
            break
        }
    }

    private mutating func connectionOpened(handle: UInt16, peer: DeviceAddress) {
        links[handle] = LinkKnowledge(peer: peer)
        statistics.links[handle] = peer.description
        _ = reassembler.reset(handle: handle)
    }

    // MARK: ACL, L2CAP, ATT

    private mutating func dissectACL(_ p: inout DissectedPacket) {
        let acl: ACLPacket
        do {
            acl = try ACLPacket.decode(p.bytes)
        } catch {
            p.name = "ACL Data"
            p.errors.append("ACL header: \(error)")
            return
        }
        p.connectionHandle = acl.handle
        let out = reassembler.feed(acl)
        // The two optional issues one by one: `out.issues` builds an array for every packet.
        if let issue = out.abandoned { p.errors.append("L2CAP reassembly: \(issue)") }
        if let issue = out.issue { p.errors.append("L2CAP reassembly: \(issue)") }
        guard let frame = out.frame else {
            p.name = "ACL Data"
            p.summary = "\(acl.packetBoundary.name), \(acl.data.count) bytes (L2CAP frame continues)"
            return
        }
        switch frame.channelID {
        case .att: dissectATT(frame, &p)
        case .leSignaling: dissectSignaling(frame, &p)
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
        } catch {
            p.name = "LE Signaling"
            p.errors.append("LE signaling: \(error)")
        }
    }

    private mutating func dissectATT(_ frame: L2CAPFrame, _ p: inout DissectedPacket) {
        let pdu: ATTPDU
        do {
            pdu = try ATTPDU.decode(frame.payload)
        } catch {
            p.name = "ATT"
            if let op = frame.payload.first {
                p.name = "ATT " + ATTOpcode(rawValue: op).name
                p.att = ATTSummary(opcode: op, name: ATTOpcode(rawValue: op).name)
            }
            p.errors.append("ATT: \(error)")
            return
        }
        let handle = frame.handle
        let opcode = pdu.opcode.rawValue
        p.name = Dissection.cachedName(&attNames, opcode) { "ATT " + pdu.name }
        p.code = Dissection.byteCodes[Int(opcode)]
        pdu.appendSummary(to: &p.summaryText)
        if collectFields { pdu.describeFields(into: &p.fields) }
        var att = ATTSummary(opcode: opcode, name: pdu.name)
        // Changed in place: a copy taken out and written back copied its dictionaries.
        let direction = p.direction
        withKnowledge(of: handle) { knowledge in
            knowledge.learn(from: pdu, direction: direction)
            switch pdu {
            case .handleValueNotification(let hv), .handleValueIndication(let hv),
                 .writeRequest(let hv), .writeCommand(let hv):
                att.handle = hv.handle
                att.value = hv.value
                att.characteristic = knowledge.attributeTypes[hv.handle]
            case .readRequest(let h), .readBlobRequest(let h, _):
                att.handle = h
                att.characteristic = knowledge.attributeTypes[h]
            case .readResponse(let value):
                att.value = value
                if let h = knowledge.takeReadHandle(responseDirection: direction) {
                    att.handle = h
                    att.characteristic = knowledge.attributeTypes[h]
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

    /// Runs `body` on the knowledge of link `handle`, created empty the first time.
    private mutating func withKnowledge(of handle: UInt16, _ body: (inout LinkKnowledge) -> Void) {
        body(&links[handle, default: LinkKnowledge()])
    }

    /// `0x00`…`0xFF`, the code shown after event and ATT names.
    private static let byteCodes: [String] = (0...255).map { Hex.number($0, width: 2) }

    private mutating func dissectIsochronous(_ p: inout DissectedPacket, name: String) {
        p.name = name
        var r = ByteReader(p.bytes)
        if let hf = try? r.u16("handle") {
            p.connectionHandle = hf & 0x0FFF
        }
        p.summary = ByteCountText.phrase(max(0, p.bytes.count - HCIPacket.headerLength(p.type)), "byte")
    }
}
