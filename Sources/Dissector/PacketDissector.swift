import Wire
import Capture
import Sensors

/// Turns capture records into `DissectedPacket`s, keeping the state a reader of a trace keeps
/// in their head: ACL fragments per handle until their L2CAP frame is complete, the SDU of each
/// credit-based channel, the peer of each connection, and which characteristic each attribute
/// handle is — per adapter, since a Linux monitor capture interleaves several.
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

    public var options: DissectorOptions {
        get { state.options }
        set { state.options = newValue }
    }

    public var statistics: DecodeStatistics { state.statistics }

    public init(collectFields: Bool = true, options: DissectorOptions = DissectorOptions()) {
        state = Dissection(collectFields: collectFields, options: options)
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

    /// A Linux monitor frame that carries no HCI packet (New Index, System Note, Control
    /// Command …). Frames that do carry one go through `dissect(_:)` as records.
    public func dissect(monitor frame: MonitorFrame) -> DissectedNote {
        state.dissect(monitor: frame)
    }

    /// A connection that was open before the capture began (the monitor asks the kernel for
    /// them at start), so its packets get their peer and GATT labels.
    public func assumeConnection(adapter: UInt16, handle: UInt16, peer: DeviceAddress) {
        state.assumeConnection(adapter: adapter, handle: handle, peer: peer)
    }

    /// Records a read error of the capture itself (e.g. a truncated last record) in the totals.
    public func noteCaptureError(_ message: String) {
        state.noteCaptureError(message)
    }
}

/// The per-adapter tables: connection handles are the adapter's own, so two adapters of one
/// machine (btvirt's hci0 and hci1 both use handle 0x002A) must not share them.
struct AdapterTables {
    var reassembler = ACLReassembler()
    var links: [UInt16: LinkKnowledge] = [:]
    /// The peer of each open connection, apart from `links` so that reading it copies no
    /// dictionaries.
    var peers: [UInt16: DeviceAddress] = [:]
    /// Each link's transport: from the event that opened it; for a link opened before the
    /// capture began, from the signaling channel its traffic uses; absent until then. Apart
    /// from `links` too: every frame on a dynamic CID reads it.
    var transports: [UInt16: LinkTransport] = [:]
}

/// The work and the state of a `PacketDissector`.
struct Dissection {
    var collectFields: Bool
    var options: DissectorOptions
    var statistics = DecodeStatistics()

    /// The tables of the adapter the last packet came from; the others wait in `otherTables`.
    var tables = AdapterTables()
    var tablesAdapter: UInt16 = 0
    var otherTables: [UInt16: AdapterTables] = [:]
    /// What the monitor said about each adapter and each control socket.
    var adapterNames: [UInt16: String] = [:]
    var controlSockets: [UInt32: MonitorControlOpen] = [:]

    private var firstTimestamp: Int64?
    var index = 0
    /// Headline names built once per event code, LE subevent and ATT opcode: making
    /// "LE Meta: LE Advertising Report" for every report cost more than decoding the report.
    private var eventNames = [String?](repeating: nil, count: 256)
    private var leEventNames = [String?](repeating: nil, count: 256)
    var attNames = [String?](repeating: nil, count: 256)
    /// Advertising reports seen before, with what they decoded to.
    private var repeatedEvents = RepeatedEventMemo()

    init(collectFields: Bool, options: DissectorOptions) {
        self.collectFields = collectFields
        self.options = options
    }

    mutating func dissect(_ record: CaptureRecord, into p: inout DissectedPacket) {
        index += 1
        p.reset(
            index: index, timestampMicros: record.timestampMicros,
            relativeTime: relativeTime(record.timestampMicros),
            direction: record.direction, type: record.packet.type, bytes: record.packet.bytes)
        if record.adapterIndex != tablesAdapter { switchTables(to: record.adapterIndex) }
        if options.showsAdapter { p.adapterIndex = record.adapterIndex }
        switch record.packet.type {
        case .command: dissectCommand(&p)
        case .event: dissectEvent(&p)
        case .acl: dissectACL(&p)
        case .sco: dissectIsochronous(&p, name: "SCO Data")
        case .iso: dissectIsochronous(&p, name: "ISO Data")
        }
        statistics.count(p)
    }

    mutating func relativeTime(_ timestampMicros: Int64) -> Double {
        let first = firstTimestamp ?? timestampMicros
        if firstTimestamp == nil { firstTimestamp = first }
        return Double(timestampMicros &- first) / 1_000_000
    }

    /// Parks the current adapter's tables and takes out `adapter`'s.
    mutating func switchTables(to adapter: UInt16) {
        otherTables[tablesAdapter] = tables
        tables = otherTables.removeValue(forKey: adapter) ?? AdapterTables()
        tablesAdapter = adapter
    }

    mutating func assumeConnection(adapter: UInt16, handle: UInt16, peer: DeviceAddress) {
        if adapter != tablesAdapter { switchTables(to: adapter) }
        connectionOpened(handle: handle, peer: peer)
    }

    /// The name in `cache[key]`, made by `make` the first time.
    static func cachedName(_ cache: inout [String?], _ key: UInt8, _ make: () -> String) -> String {
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
        if let handle = CommandConnectionHandle.of(cmd.opcode, cmd.parameters) {
            p.peer = tables.peers[handle]
        } else if let peer = CommandConnectionHandle.peer(cmd.opcode, cmd.parameters) {
            p.peer = peer
        }
        if KeyCommands.handles(cmd.opcode) {
            KeyCommands.describe(cmd, keys: options.showKeys ? .shown : .redacted, into: &p, collectFields: collectFields)
            return
        }
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
        if RepeatedEventMemo.applies(to: p.bytes) {
            if repeatedEvents.replay(into: &p) { return }
            decodeEvent(&p)
            repeatedEvents.remember(&p)
            return
        }
        decodeEvent(&p)
    }

    private mutating func decodeEvent(_ p: inout DissectedPacket) {
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
        case .unknown(.connectionComplete, let parameters):
            dissectConnectionComplete(parameters, &p)
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
            p.peer = tables.peers[d.connectionHandle]
            _ = tables.reassembler.reset(handle: d.connectionHandle)
            tables.links[d.connectionHandle]?.disconnected()
        case .le(let le):
            dissectLEMeta(le, &p)
        default:
            if let handle = EventConnection.handle(of: event) { p.peer = tables.peers[handle] }
        }
    }

    /// HCI_Connection_Complete: a BR/EDR link (the host core, an LE central, keeps it among
    /// the events it does not decode; a decoder of a phone's capture needs it).
    private mutating func dissectConnectionComplete(_ parameters: ArraySlice<UInt8>, _ p: inout DissectedPacket) {
        var r = ByteReader(parameters)
        let event: ConnectionCompleteEvent
        do {
            event = try ConnectionCompleteEvent(decoding: &r)
        } catch {
            p.errors.append("Connection Complete: \(error)")
            if collectFields { p.fields.add("Parameters", Hex.spaced(parameters)) }
            return
        }
        event.appendSummary(to: &p.summaryText)
        if collectFields { event.describeFields(into: &p.fields) }
        p.connectionHandle = event.connectionHandle
        p.peer = event.peer
        if event.status.isSuccess { connectionOpened(handle: event.connectionHandle, peer: event.peer, transport: .brEdr) }
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
        if let (handle, peer) = EventConnection.opened(by: le) {
            p.connectionHandle = handle
            p.peer = peer
            connectionOpened(handle: handle, peer: peer, transport: .le)
        } else if let handle = EventConnection.handle(of: le) {
            p.peer = tables.peers[handle]
        } else if options.resolvesAdvertisers {
            switch le {
            case .advertisingReport(let e): for r in e.reports { p.peer = r.advertiser; break }
            case .extendedAdvertisingReport(let e): for r in e.reports { p.peer = r.advertiser; break }
            default: break
            }
        }
    }

    /// `transport` nil: a connection the capture did not see open (`assumeConnection`).
    mutating func connectionOpened(handle: UInt16, peer: DeviceAddress, transport: LinkTransport? = nil) {
        tables.links[handle] = LinkKnowledge(peer: peer, cachedTypes: options.labels.types(for: peer))
        tables.peers[handle] = peer
        tables.transports[handle] = transport
        let link = LinkID(adapter: options.showsAdapter ? tablesAdapter : nil, handle: handle)
        statistics.links[link] = peer.description
        statistics.transports[link] = transport
        _ = tables.reassembler.reset(handle: handle)
    }

    /// `0x00`…`0xFF`, the code shown after event and ATT names.
    static let byteCodes: [String] = (0...255).map { Hex.number($0, width: 2) }

    private mutating func dissectIsochronous(_ p: inout DissectedPacket, name: String) {
        p.name = name
        var r = ByteReader(p.bytes)
        if let hf = try? r.u16("handle") {
            p.connectionHandle = hf & 0x0FFF
        }
        p.summary = ByteCountText.phrase(max(0, p.bytes.count - HCIPacket.headerLength(p.type)), "byte")
    }
}
