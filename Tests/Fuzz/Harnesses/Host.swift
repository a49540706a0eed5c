// libFuzzer harness: the whole host core over HCI (HostCore.HCIHost) fed arbitrary packet sequences after a
// normal connection.
//
// Each run brings a Host up on a scripted controller (bring-up answered, LE Create Connection
// answered, LE Connection Complete on handle 0x0040, the ATT MTU exchange answered), then reads
// the input as steps, each [operation][time step] operands…:
//   operation low nibble: what happens; high nibble `p`: its variant (see `Step` below).
//   time step: < 128 is that many milliseconds; 128… is (t − 127) × 500 ms, so the 30 s ATT
//   and the 2 s command timeouts are reachable.
// The first input byte picks the setup (controller buffers, plan, legacy or extended
// commands) and how many times the steps run (1, 2 or 8 passes: a long input made of a short
// one, for the memory bounds).
//
// After every step the harness checks, from what the host puts on the wire (a model of the
// controller and the peer, independent of the host's own bookkeeping):
//   - ACL credits: `aclCreditsInUse` within 0…`aclCreditCapacity`, and never more ACL packets
//     unacknowledged at the controller than its buffer count (Number Of Completed Packets and
//     Disconnection Complete give them back, Core Spec v5.4 Vol 4, Part E, §4.1.1);
//   - command flow control: no command beyond the Num_HCI_Command_Packets granted (§4.4; a
//     command unanswered past its timeout counts as lost and frees one, as the host documents);
//   - at most one LE Create Connection pending (§7.8.12): none sent while one awaits its
//     LE Connection Complete (or, after LE Create Connection Cancel, the host's cancel guard);
//   - at most one ATT request in flight per bearer (Vol 3, Part F, §3.3.2) and no ATT PDU
//     longer than the ATT_MTU (§3.2.8);
//   - every command and ACL packet the host sends decodes, ACL data within the controller's
//     ACL data length;
//   - memory: links, queued connections, queued ACL packets and waiting commands stay within
//     fixed bounds, however long the input.
// A broken rule traps (fatalError), so libFuzzer reports the input.
import Glibc
import Wire
@testable import HostCore

/// FUZZ_TRACE=1: print every step, packet and host event (to read a crash input).
private let tracing = getenv("FUZZ_TRACE") != nil

private func trace(_ text: @autoclosure () -> String) {
    if tracing { fputs(text() + "\n", stderr) }
}

private func describe(_ packet: HCIPacket) -> String {
    switch packet.type {
    case .command:
        guard let c = try? HCICommandPacket(packet) else { break }
        return "command " + c.opcode.name + " " + Hex.spaced(c.parameters)
    case .event:
        guard let e = try? HCIEvent.decode(packet.bytes) else { break }
        return "event " + e.name + ": " + e.summary
    case .acl:
        guard let a = try? ACLPacket(packet) else { break }
        return "ACL " + a.summary + " " + Hex.spaced(a.data.prefix(24))
    default:
        break
    }
    return "\(packet.type.name) " + Hex.spaced(packet.bytes.prefix(24))
}

// MARK: - Setup constants

private let ownAddress = BDAddress(bigEndian: [0xC1, 0x23, 0x45, 0x67, 0x89, 0xAB]) ?? .zero
private let peers: [DeviceAddress] = (1...4).map {
    DeviceAddress(BDAddress(bigEndian: [0xF0, 0, 0, 0, 0, UInt8($0)]) ?? .zero, type: .randomDevice)
}
private let firstHandle: UInt16 = 0x0040
private let heartRateService = BluetoothUUID(0x180D)
private let heartRateMeasurement = BluetoothUUID(0x2A37)

/// ATT request opcodes (Core Spec v5.4 Vol 3, Part F, §3.4): each waits for a response.
private let attRequests: Set<UInt8> = [0x02, 0x04, 0x06, 0x08, 0x0A, 0x0C, 0x0E, 0x10, 0x12, 0x16, 0x18, 0x20]
private let attResponses: Set<UInt8> = [0x01, 0x03, 0x05, 0x07, 0x09, 0x0B, 0x0D, 0x0F, 0x11, 0x13, 0x17, 0x19, 0x21]

/// Memory bounds, per the host's design: four peers at most, one pending create, a few
/// commands at a time, and ACL packets bounded by what the application asked for plus a fixed
/// allowance for the host's own traffic and its answers to the peer.
private let maximumWaitingCommands = 32
private let hostACLAllowance = 256
private let aclPerUserOperation = 48

private func plan(_ variant: UInt8) -> LinkPlan {
    var plan = LinkPlan()
    switch variant & 3 {
    case 0:
        plan.subscriptions = [Subscription(characteristic: heartRateMeasurement)]
        plan.reconnect = ReconnectPolicy()
    case 1:
        plan.mtu = nil
        plan.discover = false
    case 2:
        let measurement = GATTCharacteristic(uuid: heartRateMeasurement, declarationHandle: 0x0010, valueHandle: 0x0011,
                                             properties: 0x10, endHandle: 0x0012,
                                             descriptors: [GATTDescriptor(uuid: BluetoothUUID(0x2902), handle: 0x0012)])
        plan.cachedDatabase = GATTDatabase(services: [GATTService(uuid: heartRateService, startHandle: 0x000F, endHandle: 0x0012,
                                                                  characteristics: [measurement])])
        plan.subscriptions = [Subscription(service: heartRateService, characteristic: heartRateMeasurement)]
        plan.reconnect = ReconnectPolicy()
    default:
        plan.mtu = 517
        plan.subscriptions = [Subscription(characteristic: heartRateMeasurement, mode: .indicate),
                              Subscription(characteristic: BluetoothUUID(0x2A53))]
        var policy = ReconnectPolicy()
        policy.maximumAttempts = 3
        plan.reconnect = policy
    }
    return plan
}

// MARK: - The scripted controller and the model of the wire

private struct SentCommand {
    var opcode: HCIOpcode
    var deadline: HostTime
    /// The handle of a Disconnect.
    var handle: UInt16?
}

/// One bearer as seen on the wire.
private struct BearerModel {
    /// Response opcode the request on the wire waits for.
    var outstanding: UInt8?
    var outstandingRequest: [UInt8] = []
    /// Responses the peer sent while no request was on the wire: the host may have matched one
    /// to a request still in its ACL queue.
    var early: [[UInt8]] = []
    var mtu = 23
}

private final class ScriptedController {
    weak var host: HCIHost?
    let configuration: HostConfiguration
    let aclDataLength: UInt16
    let aclCount: UInt8
    let extended: Bool
    var now: HostTime = 0
    var step = 0

    /// Commands not answered yet (the harness answers them when the input says so).
    var unanswered: [HCICommandPacket] = []

    // Model of the controller and the peers.
    var commandCredits = 1
    var sent: [SentCommand] = []
    var aclInFlight: [UInt16: Int] = [:]
    var createPending: (peer: BDAddress, cancelledAt: HostTime?)?
    var bearers: [UInt16: BearerModel] = [:]
    var outbound: [UInt16: [UInt8]] = [:]
    var inbound: [UInt16: ACLReassembler] = [:]
    var userOperations = 0

    /// What the controller says at bring-up: buffers and extended commands as the setup byte says.
    let profile: ControllerProfile

    init(configuration: HostConfiguration, aclDataLength: UInt16, aclCount: UInt8, extended: Bool) {
        self.configuration = configuration
        self.aclDataLength = aclDataLength
        self.aclCount = aclCount
        self.extended = extended
        var p = ControllerProfile()
        p.hciVersion = 0x0C
        p.publicAddress = BDAddress(bigEndian: [0, 0x1B, 0xDC, 0, 0, 1]) ?? .zero
        p.supportedCommands = [UInt8](repeating: extended ? 0xFF : 0x3F, count: 64)
        p.leFeatures = extended ? [.leEncryption, .leExtendedAdvertising] : [.leEncryption]
        p.leBufferLength = aclDataLength
        p.leBufferCount = aclCount
        p.sharedBufferLength = aclDataLength
        p.sharedBufferCount = UInt16(aclCount)
        p.leStates = LESupportedStates(rawValue: extended ? 0x0000_03FF_FFFF_FFFF : 0x0000_0000_0000_FFFF)
        profile = p
    }

    func fail(_ message: String) -> Never {
        fatalError("step \(step): \(message)")
    }

    // MARK: The host's outputs

    /// Pulls everything the host has to send and to say, as the runtime's loop does after
    /// every input: the model sees each packet before the next input reaches the host.
    func pump() {
        guard let host else { return }
        while let p = host.pollTransmit(at: now) { send(p) }
        while let e = host.pollEvent() { deliver(e) }
    }

    func send(_ packet: HCIPacket) {
        trace("  host → " + describe(packet))
        switch packet.type {
        case .command: sentCommand(packet)
        case .acl: sentACL(packet)
        default: fail("the host sent a \(packet.type.name) packet")
        }
    }

    func deliver(_ event: HostEvent) {
        if case let .warning(w) = event { _ = w.description }
        trace("  event: \(event)")
    }

    private func sentCommand(_ packet: HCIPacket) {
        guard let c = try? HCICommandPacket(packet) else { fail("undecodable command [\(Hex.spaced(packet.bytes))]") }
        if case let .failure(error)? = HCICommandCatalog.decodeParameters(opcode: c.opcode, c.parameters) {
            fail("\(c.opcode.name) with malformed parameters: \(error)")
        }
        if c.opcode == .reset {
            // The host restarts the controller: nothing of the past will be answered.
            resetModel()
            commandCredits = 1
        }
        if commandCredits <= 0 { fail("\(c.opcode.name) sent without a command credit") }
        commandCredits -= 1
        var record = SentCommand(opcode: c.opcode,
                                 deadline: now &+ (c.opcode == .reset ? configuration.resetTimeout : configuration.commandTimeout))
        switch c.opcode {
        case .leCreateConnection, .leExtendedCreateConnection:
            if let pending = createPending {
                let guardOver = pending.cancelledAt.map { now >= $0 &+ configuration.createConnectionCancelTimeout } ?? false
                if !guardOver { fail("a second LE Create Connection while one is pending") }
            }
            let peer = c.opcode == .leCreateConnection
                ? (try? c.decode(LECreateConnection.self))?.peerAddress
                : (try? c.decode(LEExtendedCreateConnection.self))?.peerAddress
            createPending = (peer ?? .zero, nil)
        case .leCreateConnectionCancel:
            if createPending != nil, createPending?.cancelledAt == nil { createPending?.cancelledAt = now }
        case .disconnect:
            record.handle = (try? c.decode(Disconnect.self))?.connectionHandle
        default:
            break
        }
        sent.append(record)
        unanswered.append(c)
    }

    private func sentACL(_ packet: HCIPacket) {
        guard let a = try? ACLPacket(packet) else { fail("undecodable ACL packet [\(Hex.spaced(packet.bytes))]") }
        let limit = host?.controllerInfo?.aclDataLength ?? Int(aclDataLength)
        if a.data.count > limit { fail("ACL packet of \(a.data.count) bytes above the data length \(limit)") }
        aclInFlight[a.handle, default: 0] += 1
        let total = aclInFlight.values.reduce(0, +)
        let capacity = host?.aclCreditCapacity ?? Int(aclCount)
        if total > capacity { fail("\(total) ACL packets at the controller, which has \(capacity) buffers") }

        // Cut the host's L2CAP frames out of its ACL packets.
        var buffer = a.packetBoundary.isStart ? [] : (outbound[a.handle] ?? [])
        if !a.packetBoundary.isStart, outbound[a.handle] == nil { fail("continuing ACL fragment without a start") }
        buffer += a.data
        outbound[a.handle] = buffer
        guard buffer.count >= 4 else { return }
        let length = Int(buffer[0]) | Int(buffer[1]) << 8
        if buffer.count > 4 + length { fail("ACL fragments longer than their L2CAP frame") }
        guard buffer.count == 4 + length else { return }
        outbound[a.handle] = nil
        let channel = UInt16(buffer[2]) | UInt16(buffer[3]) << 8
        if channel == 0x0004 { sentATT(Array(buffer[4...]), handle: a.handle) }
    }

    private func sentATT(_ pdu: [UInt8], handle: UInt16) {
        guard let opcode = pdu.first else { fail("empty ATT PDU sent") }
        var bearer = bearers[handle] ?? BearerModel()
        if pdu.count > bearer.mtu { fail("ATT PDU of \(pdu.count) bytes above ATT_MTU \(bearer.mtu) [\(Hex.spaced(pdu.prefix(8)))…]") }
        if attRequests.contains(opcode) {
            if bearer.outstanding != nil {
                fail("ATT request \(Hex.number(opcode, width: 2)) while \(Hex.spaced(bearer.outstandingRequest.prefix(8))) awaits its response")
            }
            let expected = opcode + 1
            if let i = bearer.early.firstIndex(where: { $0.first == expected || $0.first == 0x01 }) {
                // The peer answered before the request left the host's queue.
                // Responses are matched in order; the ones before it were ignored by the host.
                let response = bearer.early[i]
                bearer.early.removeFirst(i + 1)
                answered(&bearer, request: pdu, response: response)
            } else {
                bearer.early.removeAll()
                bearer.outstanding = expected
                bearer.outstandingRequest = pdu
            }
        }
        bearers[handle] = bearer
    }

    private func answered(_ bearer: inout BearerModel, request: [UInt8], response: [UInt8]) {
        bearer.outstanding = nil
        if request.first == 0x02, request.count == 3, response.count == 3, response[0] == 0x03 {
            let client = Int(request[1]) | Int(request[2]) << 8
            let server = Int(response[1]) | Int(response[2]) << 8
            bearer.mtu = max(bearer.mtu, 23, min(client, server))
        }
    }

    // MARK: What the controller says (the model sees it before the host does)

    func resetModel() {
        sent.removeAll()
        aclInFlight.removeAll()
        createPending = nil
        bearers.removeAll()
        outbound.removeAll()
        inbound.removeAll()
    }

    func forgetHandle(_ handle: UInt16) {
        aclInFlight[handle] = nil
        bearers[handle] = nil
        outbound[handle] = nil
        inbound[handle] = nil
    }

    func isConnected(_ handle: UInt16) -> Bool {
        host?.links.contains { $0.connection?.handle == handle } ?? false
    }

    /// Updates the model for an event about to be given to the host.
    func observeEvent(_ bytes: ArraySlice<UInt8>) {
        guard let event = try? HCIEvent.decode(bytes) else { return }
        switch event {
        case let .commandComplete(e):
            commandCredits = Int(e.numHCICommandPackets)
            commandAnswered(e.commandOpcode, status: e.leadingStatus ?? .success)
        case let .commandStatus(e):
            commandCredits = Int(e.numHCICommandPackets)
            commandAnswered(e.commandOpcode, status: e.status)
        case let .numberOfCompletedPackets(e):
            for entry in e.entries {
                let h = entry.connectionHandle
                aclInFlight[h] = max(0, (aclInFlight[h] ?? 0) - Int(entry.numCompletedPackets))
            }
        case let .disconnectionComplete(e):
            if e.status.isSuccess { forgetHandle(e.connectionHandle) }
        case .hardwareError:
            resetModel()
            commandCredits = 1
        case let .le(le):
            let complete: LEConnectionCompleteEvent?
            switch le {
            case let .connectionComplete(c): complete = c
            case let .enhancedConnectionCompleteV1(c): complete = c.connectionComplete
            case let .enhancedConnectionCompleteV2(c): complete = c.connectionComplete
            default: complete = nil
            }
            guard let c = complete else { return }
            if !c.status.isSuccess || c.peerAddress == createPending?.peer { createPending = nil }
            if c.status.isSuccess, !isConnected(c.connectionHandle) { forgetHandle(c.connectionHandle) }
        default:
            break
        }
    }

    private func commandAnswered(_ opcode: HCIOpcode, status: HCIStatus) {
        guard opcode.rawValue != 0, let i = sent.firstIndex(where: { $0.opcode == opcode }) else { return }
        let command = sent.remove(at: i)
        switch opcode {
        case .leCreateConnection, .leExtendedCreateConnection:
            if !status.isSuccess { createPending = nil }
        case .disconnect:
            if status == .unknownConnectionIdentifier, let h = command.handle { forgetHandle(h) }
        default:
            break
        }
    }

    /// Updates the model for an ACL packet about to be given to the host.
    func observeACL(_ bytes: ArraySlice<UInt8>) {
        guard let packet = try? ACLPacket.decode(bytes), isConnected(packet.handle) else { return }
        var reassembler = inbound[packet.handle] ?? ACLReassembler(maximumPayloadLength: configuration.maximumInboundL2CAPPayload)
        let output = reassembler.feed(packet)
        inbound[packet.handle] = reassembler
        guard let frame = output.frame, frame.channelID == .att, let opcode = frame.payload.first,
              attResponses.contains(opcode) else { return }
        var bearer = bearers[packet.handle] ?? BearerModel()
        if let expected = bearer.outstanding {
            if opcode == expected || opcode == 0x01 {
                answered(&bearer, request: bearer.outstandingRequest, response: Array(frame.payload))
            }
        } else if bearer.early.count < 8 {
            bearer.early.append(Array(frame.payload))
        }
        bearers[packet.handle] = bearer
    }

    /// Commands past their timeout count as lost, as the host takes them: each frees a credit.
    func expire(at now: HostTime) {
        let expired = sent.filter { $0.deadline <= now }
        guard !expired.isEmpty else { return }
        sent.removeAll { $0.deadline <= now }
        commandCredits = max(commandCredits, 1)
        if expired.contains(where: { $0.opcode == .leCreateConnection || $0.opcode == .leExtendedCreateConnection }) {
            createPending = nil
        }
    }

    // MARK: Feeding the host

    func feed(_ packet: HCIPacket) {
        trace("  → host " + describe(packet))
        switch packet.type {
        case .event: observeEvent(packet.bytes)
        case .acl: observeACL(packet.bytes)
        default: break
        }
        host?.receive(packet, at: now)
        pump()
    }

    func emit(_ event: HCIEvent) {
        feed(HCIPacket(type: .event, bytes: event.encoded))
    }

    func complete(_ opcode: HCIOpcode, _ parameters: [UInt8], credits: UInt8 = 1) {
        emit(.commandComplete(CommandCompleteEvent(numHCICommandPackets: credits, commandOpcode: opcode,
                                                   returnParameters: parameters)))
    }

    func status(_ opcode: HCIOpcode, _ status: HCIStatus = .success, credits: UInt8 = 1) {
        emit(.commandStatus(CommandStatusEvent(status: status, numHCICommandPackets: credits, commandOpcode: opcode)))
    }

    func connectionComplete(peer: BDAddress, handle: UInt16, status: HCIStatus = .success, kind: UInt8 = 0,
                            role: LERole = .central) {
        let v1 = LEEnhancedConnectionCompleteV1Event(status: status, connectionHandle: handle, role: role,
                                                     peerAddressType: .randomDevice, peerAddress: peer,
                                                     connectionInterval: 36, supervisionTimeout: 400)
        switch kind % 3 {
        case 0:
            emit(.le(.connectionComplete(LEConnectionCompleteEvent(
                status: status, connectionHandle: handle, role: role, peerAddressType: .randomDevice, peerAddress: peer,
                connectionInterval: 36, supervisionTimeout: 400))))
        case 1: emit(.le(.enhancedConnectionCompleteV1(v1)))
        default: emit(.le(.enhancedConnectionCompleteV2(LEEnhancedConnectionCompleteV2Event(v1))))
        }
    }

    /// One L2CAP frame from the peer, cut to the controller's ACL data length.
    func l2cap(handle: UInt16, channel: UInt16, _ payload: [UInt8], fragment: Int = 27) {
        let frame = L2CAPFrame(handle: handle, channelID: L2CAPChannelID(channel), payload: payload)
        for p in ACLFragmenter(maximumDataLength: max(1, fragment), firstPacketBoundary: .firstFlushable).fragment(frame) {
            feed(p.hciPacket)
        }
    }

    /// The answer a well-behaved controller gives; `fault` makes it fail with that status.
    func answerNext(fault: HCIStatus? = nil, credits: UInt8 = 1, completeCancel: Bool = true) {
        guard !unanswered.isEmpty else { return }
        let c = unanswered.removeFirst()
        let op = c.opcode
        if let fault, !fault.isSuccess {
            if HCICommandCatalog.completesWithStatus(op) == true {
                status(op, fault, credits: credits)
            } else {
                complete(op, [fault.rawValue], credits: credits)
            }
            return
        }
        if let info = profile.answer(op, credits: credits) {
            emit(info)
            return
        }
        switch op {
        case .leCreateConnection, .leExtendedCreateConnection, .leConnectionUpdate, .leReadRemoteFeatures,
             .readRemoteVersionInformation:
            status(op, credits: credits)
        case .leCreateConnectionCancel:
            let pending = createPending
            complete(op, [pending == nil ? HCIStatus.commandDisallowed.rawValue : 0], credits: credits)
            if completeCancel, let p = pending {
                connectionComplete(peer: p.peer, handle: 0, status: .unknownConnectionIdentifier)
            }
        case .disconnect:
            status(op, credits: credits)
            if let d = try? c.decode(Disconnect.self) {
                emit(.disconnectionComplete(DisconnectionCompleteEvent(connectionHandle: d.connectionHandle,
                                                                       reason: .connectionTerminatedByLocalHost)))
            }
        default:
            complete(op, [0], credits: credits)
        }
    }

    func answerAll() {
        var n = 0
        while !unanswered.isEmpty, n < 200 {
            n += 1
            answerNext()
        }
    }

    /// Handles the host's links use now, in link order.
    var connectedHandles: [UInt16] {
        host?.links.compactMap { $0.connection?.handle } ?? []
    }

    /// The response opcode the host waits for on `handle`, if its request is on the wire.
    func outstandingResponse(_ handle: UInt16) -> UInt8? { bearers[handle]?.outstanding }
}

// MARK: - Invariants

private func checkInvariants(_ host: HCIHost, _ controller: ScriptedController) {
    func fail(_ message: String) -> Never { controller.fail(message) }
    if host.aclCreditsInUse < 0 || host.aclCreditsInUse > host.aclCreditCapacity {
        fail("ACL credits in use \(host.aclCreditsInUse) outside 0…\(host.aclCreditCapacity)")
    }
    if host.commandCredits < 0 { fail("command credits \(host.commandCredits)") }
    if let pending = host.pendingConnection, host.state(of: pending) != .initiating {
        fail("pending connection \(pending) is \(String(describing: host.state(of: pending)))")
    }
    let links = host.links
    if links.filter({ $0.state == .initiating }).count > 1 { fail("more than one link initiating") }
    if links.count > peers.count { fail("\(links.count) links for \(peers.count) peers") }
    if host.queuedConnections.count > peers.count { fail("\(host.queuedConnections.count) connections queued") }
    let handles = links.compactMap { $0.connection?.handle }
    if Set(handles).count != handles.count { fail("two links on one connection handle") }
    let aclBound = hostACLAllowance + aclPerUserOperation * controller.userOperations
    if host.aclPacketsQueued > aclBound {
        fail("\(host.aclPacketsQueued) ACL packets queued (bound \(aclBound) after \(controller.userOperations) operations)")
    }
    // One Disconnect may wait per stray connection (a handle the host did not ask for).
    if host.commands.waitingCount > maximumWaitingCommands + host.strayHandles.count {
        fail("\(host.commands.waitingCount) commands waiting (\(host.strayHandles.count) stray handles)")
    }
    if host.strayHandles.count > 0x0F00 { fail("\(host.strayHandles.count) stray handles") }
}

// MARK: - Steps

private func runStep(_ op: UInt8, _ input: inout FuzzInput, host: HCIHost, controller c: ScriptedController,
                     userOperationsAllowed: Bool) {
    let p = op >> 4
    let handles = c.connectedHandles
    func pickHandle(_ n: UInt8) -> UInt16 {
        if n < 3, !handles.isEmpty { return handles[Int(n) % handles.count] }
        return n == 3 ? firstHandle : UInt16(input.u16() & 0x0FFF)
    }
    switch op & 0x0F {
    case 0:
        // A raw event packet (code, length, parameters as given).
        c.feed(HCIPacket(type: .event, bytes: input.chunk()))
    case 1:
        // An event with this code and a true length.
        let code = input.u8()
        let parameters = input.chunk()
        c.feed(HCIPacket(type: .event, bytes: [code, UInt8(truncatingIfNeeded: parameters.count)] + parameters))
    case 2:
        // An LE Meta event with this subevent.
        let subevent = input.u8()
        let parameters = input.chunk().prefix(254)
        c.feed(HCIPacket(type: .event, bytes: [0x3E, UInt8(parameters.count + 1), subevent] + parameters))
    case 3:
        // A raw ACL packet (header as given).
        c.feed(HCIPacket(type: .acl, bytes: input.chunk16(limit: 600)))
    case 4:
        // ACL data with a true length, any Packet_Boundary_Flag.
        let handle = pickHandle(p & 3)
        let data = input.chunk()
        c.feed(ACLPacket(handle: handle, packetBoundary: ACLPacketBoundary(bits: UInt16(p >> 2)), data: data[...]).hciPacket)
    case 5:
        // A whole L2CAP frame on ATT, LE signaling, SMP or any channel, fragmented.
        let handle = pickHandle(p & 3)
        let channels: [UInt16] = [0x0004, 0x0005, 0x0006, 0]
        var channel = channels[Int(p >> 2)]
        if channel == 0 { channel = input.u16() }
        c.l2cap(handle: handle, channel: channel, input.chunk16(limit: 1100), fragment: p & 2 == 0 ? 27 : 251)
    case 6:
        // An answer to the request on the wire: its response opcode (or Error Response), then
        // the given parameters.
        let handle = pickHandle(p & 3)
        let opcode = p & 4 == 0 ? (c.outstandingResponse(handle) ?? 0x0B) : 0x01
        c.l2cap(handle: handle, channel: 0x0004, [opcode] + input.chunk())
    case 7:
        // The controller answers the oldest command: normally, with a failure status, or with
        // other Num_HCI_Command_Packets.
        let fault: HCIStatus? = p & 1 == 0 ? nil : HCIStatus(rawValue: input.u8())
        let credits: UInt8 = p & 2 == 0 ? 1 : input.u8()
        c.answerNext(fault: fault, credits: credits, completeCancel: p & 4 == 0)
    case 8:
        // Number Of Completed Packets: everything in flight, or given entries.
        if p == 0 {
            let entries = c.aclInFlight.filter { $0.value > 0 }.sorted { $0.key < $1.key }
                .map { NumberOfCompletedPacketsEvent.Entry(connectionHandle: $0.key, numCompletedPackets: UInt16($0.value)) }
            if !entries.isEmpty { c.emit(.numberOfCompletedPackets(NumberOfCompletedPacketsEvent(entries: entries))) }
        } else {
            let entries = (0..<Int(p & 3) + 1).map { _ in
                NumberOfCompletedPacketsEvent.Entry(connectionHandle: pickHandle(input.u8() & 3), numCompletedPackets: UInt16(input.u8()))
            }
            c.emit(.numberOfCompletedPackets(NumberOfCompletedPacketsEvent(entries: entries)))
        }
    case 9:
        // Disconnection Complete (success or not) for a connected handle or any other.
        let handle = pickHandle(p & 3)
        let status: HCIStatus = p & 4 == 0 ? .success : HCIStatus(rawValue: input.u8())
        c.emit(.disconnectionComplete(DisconnectionCompleteEvent(status: status, connectionHandle: handle,
                                                                 reason: HCIStatus(rawValue: input.u8()))))
    case 10:
        // LE Connection Complete: for the pending create (succeeding on a new handle or
        // failing), or out of the blue for any peer, as central or peripheral.
        let peer = p & 8 == 0 ? (c.createPending?.peer ?? peers[0].address) : peers[Int(input.u8()) & 3].address
        let ok = p & 1 == 0
        let handle = input.u16() & 0x0FFF
        c.connectionComplete(peer: peer, handle: handle, status: ok ? .success : HCIStatus(rawValue: input.u8() | 1),
                             kind: p >> 1, role: p & 6 == 6 ? .peripheral : .central)
    case 11:
        // Application: connect to one of four peers with one of four plans.
        guard userOperationsAllowed else { return }
        c.userOperations += 1
        _ = host.connect(to: peers[Int(p & 3)], plan: plan(p >> 2), at: c.now)
    case 12:
        // Application: disconnect or cancel a link; scan on or off.
        guard userOperationsAllowed else { return }
        c.userOperations += 1
        let links = host.links
        switch p & 3 {
        case 0, 1:
            if !links.isEmpty { host.disconnect(links[Int(p >> 2) % links.count].id, at: c.now) }
        case 2:
            host.startScan(p & 4 == 0 ? nil : ScanConfiguration(), at: c.now)
        default:
            host.stopScan(at: c.now)
        }
    case 13:
        // Application: a GATT operation on a link.
        guard userOperationsAllowed else { return }
        c.userOperations += 1
        let links = host.links
        guard !links.isEmpty else { return }
        let link = links[Int(input.u8()) % links.count].id
        let handle = input.u16()
        let operation: GATTOperation
        switch p % 13 {
        case 0: operation = .read(handle: handle)
        case 1: operation = .readLong(handle: handle)
        case 2: operation = .write(handle: handle, value: input.chunk())
        case 3: operation = .writeWithoutResponse(handle: handle, value: input.chunk())
        case 4: operation = .writeLong(handle: handle, value: input.chunk16(limit: 600))
        case 5:
            let mode = Int(input.u8() & 3)
            operation = mode == 0 ? .unsubscribe(valueHandle: handle)
                : .subscribe(valueHandle: handle, mode: [.notify, .indicate, .automatic][mode - 1])
        case 6: operation = .discoverAll
        case 7: operation = .exchangeMTU(input.u16())
        case 8:
            let end = input.u16()
            operation = .readByType(BluetoothUUID(input.u16()), range: min(handle, end)...max(handle, end))
        case 9: operation = .discoverPrimaryServices(handle & 1 == 0 ? nil : heartRateService)
        case 10: operation = .readMultiple(handles: [handle, input.u16()])
        case 11:
            operation = .readMultipleVariable(handles: [handle, input.u16(), input.u16()],
                                              when: input.u8() & 1 == 0 ? .always : .ifServerSupportsEATT, fallback: input.u8() & 1 == 0)
        default: operation = .reliableWrite([(handle, input.chunk()), (input.u16(), input.chunk())])
        }
        host.perform(operation, on: link, at: c.now)
    case 14:
        // Hardware Error (the host resets the controller), or the host restarted.
        if p == 15, userOperationsAllowed {
            host.start(at: c.now)
        } else {
            c.emit(.hardwareError(HardwareErrorEvent(hardwareCode: p)))
        }
    default:
        // Packets a controller never sends the host: commands, SCO, ISO.
        let types: [H4PacketType] = [.command, .sco, .iso]
        c.feed(HCIPacket(type: types[Int(p) % 3], bytes: input.chunk()))
    }
}

// MARK: - Entry point

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHost(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let setup = input.u8()
    let passes = [1, 1, 2, 8][Int(setup & 3)]
    let extended = setup & 4 != 0
    let bigBuffers = setup & 8 != 0

    let configuration = HostConfiguration(ownAddress: .randomStatic(ownAddress))
    let controller = ScriptedController(configuration: configuration, aclDataLength: bigBuffers ? 251 : 27,
                                        aclCount: bigBuffers ? 3 : 8, extended: extended)
    let host = HCIHost(configuration: configuration)
    controller.host = host

    // A normal start: bring-up, one connection, the MTU exchange answered.
    host.start(at: 0)
    controller.pump()
    controller.answerAll()
    guard host.isReady else { fatalError("bring-up did not finish") }
    _ = host.connect(to: peers[0], plan: plan(setup >> 4), at: controller.now)
    controller.pump()
    controller.answerAll()
    controller.connectionComplete(peer: peers[0].address, handle: firstHandle)
    controller.answerAll()
    if controller.outstandingResponse(firstHandle) == 0x03 {
        controller.l2cap(handle: firstHandle, channel: 0x0004, [0x03, 185, 0])
    }
    checkInvariants(host, controller)

    for pass in 0..<passes {
        var script = input
        while !script.isAtEnd {
            controller.step += 1
            let op = script.u8()
            let t = script.u8()
            trace("step \(controller.step) (pass \(pass)): op \(Hex.number(op, width: 2)) time +\(t)")
            let dt: UInt64 = t < 128 ? HostDuration.milliseconds(UInt64(t)) : HostDuration.milliseconds(UInt64(t - 127) * 500)
            if dt > 0 {
                controller.now &+= dt
                controller.expire(at: controller.now)
                host.advanceTime(to: controller.now)
                controller.pump()
                checkInvariants(host, controller)
            }
            runStep(op, &script, host: host, controller: controller, userOperationsAllowed: pass == 0)
            controller.pump()
            checkInvariants(host, controller)
        }
    }

    // Whatever happened, a controller that answers everything and a quiet minute leave no
    // credit in use at a link that is gone.
    controller.answerAll()
    return 0
}
