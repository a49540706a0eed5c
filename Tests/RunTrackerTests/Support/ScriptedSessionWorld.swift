import HostCore
import RunTracker
import Sensors
import TestSupport
import Wire

/// The run session on the real `Host`, against a scripted controller with peripherals behind
/// it: commands are answered as Core Spec v5.4 Vol 4, Part E, §7 lays them out (built with the
/// Wire encoders), and each connected peripheral answers the ATT requests of a warm plan
/// (Read By Type of the Database Hash → Attribute Not Found, CCCD Write Request → Write
/// Response, Exchange MTU). Faults are injected between `settle()` calls.
///
/// Like the Runtime's driver, the host's packets and events are pulled after every input and
/// handed on (`settle`).
final class ScriptedSessionWorld {
    /// Legacy commands only (no extended advertising), 16 LE buffers of 251 bytes.
    private let profile: ControllerProfile = {
        var p = ControllerProfile()
        p.leBufferCount = 16
        return p
    }()
    private(set) var host: HCIHost!
    private(set) var session: SessionController!
    let cache = MemoryCache()
    var now: HostTime = 0
    private var takenEvents: [SessionEvent] = []
    /// What the session said so far (pulled from it, as the CLI does after each call).
    var sessionEvents: [SessionEvent] {
        while let e = session.pollEvent() { takenEvents.append(e) }
        return takenEvents
    }
    private(set) var hostEvents: [HostEvent] = []
    private(set) var opcodes: [HCIOpcode] = []
    private(set) var scanning = false
    private(set) var createPending: DeviceAddress?
    /// Commands to answer with this status instead of success.
    var failures: [HCIOpcode: HCIStatus] = [:]
    /// Commands never answered.
    var silent: Set<HCIOpcode> = []
    /// Zephyr's controller-state rules (scan commands refused while LE Create Connection is
    /// pending, no create while scanning), with LE Supported States that do not say so.
    var zephyrStateRules = false
    /// Commands refused under `zephyrStateRules`.
    private(set) var refusals: [HCIOpcode] = []
    private var pendingEvents: [HostEvent] = []
    private var unanswered: [HCICommandPacket] = []
    private var inboundATT: [(handle: UInt16, pdu: [UInt8])] = []
    private var aclInFlight: [UInt16: UInt16] = [:]
    private var connected: [UInt16: DeviceAddress] = [:]
    private var started = false

    init(configure: (inout SessionController.Configuration) -> Void) {
        var hostConfiguration = HostConfiguration(ownAddress: .randomStatic(BDAddress.random(.staticAddress, bits: 0x0123_4567_89AB)))
        hostConfiguration.scan.preferExtended = false
        var c = SessionController.Configuration()
        c.reconnect.initial = HostDuration.milliseconds(100)
        configure(&c)
        host = HCIHost(configuration: hostConfiguration)
        session = SessionController(configuration: c, host: host, cache: cache)
    }

    /// Brings the controller up, then starts the session (as the CLI does on `.controllerReady`).
    func start() {
        host.start(at: now)
        settle()
        started = true
        session.start(at: now)
        settle()
    }

    // MARK: The host's outputs

    private func send(_ packet: HCIPacket) {
        switch packet.type {
        case .command:
            guard let c = try? HCICommandPacket(packet) else { return }
            opcodes.append(c.opcode)
            unanswered.append(c)
        case .acl:
            // The host's ACL packets fit one each (251-byte LE buffers): an L2CAP frame on CID 4.
            guard let a = try? ACLPacket(packet), a.data.count >= 4 else { return }
            aclInFlight[a.handle, default: 0] += 1
            let d = Array(a.data)
            if d[2] == 0x04, d[3] == 0x00 { inboundATT.append((a.handle, Array(d[4...]))) }
        default:
            break
        }
    }


    // MARK: Driving

    /// Answers commands and ATT requests, and hands host events to the session, until quiet.
    func settle() {
        var rounds = 0
        while rounds < 10_000 {
            rounds += 1
            while let p = host.pollTransmit(at: now) { send(p) }
            while let e = host.pollEvent() { pendingEvents.append(e) }
            if !pendingEvents.isEmpty {
                let events = pendingEvents
                pendingEvents.removeAll()
                for e in events {
                    hostEvents.append(e)
                    if started { session.handle(e, at: now) }
                }
            } else if !unanswered.isEmpty {
                answer(unanswered.removeFirst())
            } else if !inboundATT.isEmpty {
                let (handle, pdu) = inboundATT.removeFirst()
                answerATT(pdu, on: handle)
            } else if !aclInFlight.isEmpty {
                let entries = aclInFlight.sorted { $0.key < $1.key }
                aclInFlight.removeAll()
                emit(.numberOfCompletedPackets(NumberOfCompletedPacketsEvent(entries: entries.map {
                    .init(connectionHandle: $0.key, numCompletedPackets: $0.value)
                })))
            } else {
                return
            }
        }
    }

    /// Moves the clock on and fires what is due (reconnect backoffs, timeouts).
    func advance(to t: HostTime) {
        now = t
        host.advanceTime(to: now)
        if let d = session.nextDeadline, d <= now { session.advanceTime(to: now) }
        settle()
    }

    func emit(_ event: HCIEvent) {
        host.receive(HCIPacket(type: .event, bytes: event.encoded), at: now)
    }

    // MARK: Peripherals

    func advertise(_ peer: DeviceAddress, services: [BluetoothUUID]) {
        guard scanning else { return }
        let data = AdvertisingData.Builder().flags([.leGeneralDiscoverableMode, .brEdrNotSupported])
            .serviceUUIDs(services, complete: true).bytes
        emit(.le(.advertisingReport(LEAdvertisingReportEvent(reports: [
            LEAdvertisingReport(eventType: .advInd, addressType: peer.type, address: peer.address,
                                data: data[...], rssi: -50),
        ]))))
        settle()
    }

    /// The pending LE Create Connection succeeds on `handle`.
    func completeConnection(handle: UInt16) {
        guard let peer = createPending else { return }
        createPending = nil
        connected[handle] = peer
        emit(.le(.connectionComplete(LEConnectionCompleteEvent(
            status: .success, connectionHandle: handle, role: .central, peerAddressType: peer.type,
            peerAddress: peer.address, connectionInterval: 36, peripheralLatency: 0, supervisionTimeout: 400))))
        settle()
    }

    /// ATT_HANDLE_VALUE_NTF (Vol 3, Part F, §3.4.7.1) from the peripheral on `handle`.
    func notify(handle: UInt16, attribute: UInt16, _ value: [UInt8]) {
        sendATT([0x1B, UInt8(attribute & 0xFF), UInt8(attribute >> 8)] + value, on: handle)
        settle()
    }

    /// The peer goes away: Disconnection Complete, Connection Timeout (0x08).
    func dropLink(handle: UInt16) {
        connected[handle] = nil
        aclInFlight[handle] = nil
        emit(.disconnectionComplete(DisconnectionCompleteEvent(connectionHandle: handle, reason: .connectionTimeout)))
        settle()
    }

    /// Hardware Error event (Vol 4, Part E, §7.7.16): the controller lost every connection.
    func hardwareError(_ code: UInt8) {
        scanning = false
        createPending = nil
        connected.removeAll()
        aclInFlight.removeAll()
        inboundATT.removeAll()
        emit(.hardwareError(HardwareErrorEvent(hardwareCode: code)))
        settle()
    }

    // MARK: Answers

    private func sendATT(_ pdu: [UInt8], on handle: UInt16) {
        let n = UInt16(pdu.count)
        let l2cap = [UInt8(n & 0xFF), UInt8(n >> 8), 0x04, 0x00] + pdu
        host.receive(ACLPacket(handle: handle, packetBoundary: .firstFlushable, data: l2cap[...]).hciPacket, at: now)
    }

    /// What a peripheral whose database the host has cached answers (Vol 3, Part F, §3.4).
    private func answerATT(_ pdu: [UInt8], on handle: UInt16) {
        guard connected[handle] != nil, let opcode = pdu.first else { return }
        switch opcode {
        case 0x02: // ATT_EXCHANGE_MTU_REQ → ATT_EXCHANGE_MTU_RSP, 247
            sendATT([0x03, 0xF7, 0x00], on: handle)
        case 0x12: // ATT_WRITE_REQ → ATT_WRITE_RSP
            sendATT([0x13], on: handle)
        case 0x08: // ATT_READ_BY_TYPE_REQ (the Database Hash) → Attribute Not Found
            let start = pdu.count >= 3 ? [pdu[1], pdu[2]] : [0x01, 0x00]
            sendATT([0x01, 0x08] + start + [0x0A], on: handle)
        default:   // Request Not Supported
            sendATT([0x01, opcode, 0x00, 0x00, 0x06], on: handle)
        }
    }

    private func complete(_ op: HCIOpcode, _ parameters: [UInt8]) {
        emit(.commandComplete(CommandCompleteEvent(numHCICommandPackets: 1, commandOpcode: op, returnParameters: parameters)))
    }

    private func complete<P: WireCodable>(_ op: HCIOpcode, _ parameters: P) {
        complete(op, parameters.encoded)
    }

    private func status(_ op: HCIOpcode, _ s: HCIStatus = .success) {
        emit(.commandStatus(CommandStatusEvent(status: s, numHCICommandPackets: 1, commandOpcode: op)))
    }

    private func answer(_ c: HCICommandPacket) {
        let op = c.opcode
        if silent.contains(op) { return }
        if let s = failures[op] ?? zephyrRefusal(c) {
            if failures[op] == nil { refusals.append(op) }
            if HCICommandCatalog.completesWithStatus(op) == true { status(op, s) } else { complete(op, [s.rawValue]) }
            return
        }
        if let info = profile.answer(op) {
            emit(info)
            return
        }
        switch op {
        case .reset:
            scanning = false
            createPending = nil
            complete(op, StatusReturnParameters())
        case .leSetScanEnable:
            scanning = (try? c.decode(LESetScanEnable.self))?.scanEnable ?? false
            complete(op, StatusReturnParameters())
        case .leCreateConnection:
            createPending = (try? c.decode(LECreateConnection.self)).map { DeviceAddress($0.peerAddress, type: $0.peerAddressType) }
            status(op)
        case .disconnect:
            status(op)
            if let d = try? c.decode(Disconnect.self) {
                connected[d.connectionHandle] = nil
                aclInFlight[d.connectionHandle] = nil
                emit(.disconnectionComplete(DisconnectionCompleteEvent(connectionHandle: d.connectionHandle,
                                                                       reason: .connectionTerminatedByLocalHost)))
            }
        case .leCreateConnectionCancel:
            complete(op, [HCIStatus.commandDisallowed.rawValue])
        case .leConnectionUpdate:
            status(op)
        default:
            complete(op, StatusReturnParameters())
        }
    }

    private func zephyrRefusal(_ c: HCICommandPacket) -> HCIStatus? {
        guard zephyrStateRules else { return nil }
        switch c.opcode {
        case .leSetScanParameters:
            return scanning || createPending != nil ? .commandDisallowed : nil
        case .leSetScanEnable:
            let on = (try? c.decode(LESetScanEnable.self))?.scanEnable ?? false
            return on && createPending != nil ? .commandDisallowed : nil
        case .leCreateConnection:
            return scanning ? .commandDisallowed : nil
        default:
            return nil
        }
    }

    // MARK: Reading the record

    func states(_ role: SensorRole) -> [SensorState] {
        sessionEvents.compactMap { if case let .state(r, s, _, _) = $0, r == role { return s } else { return nil } }
    }

    var notices: [String] {
        sessionEvents.compactMap { if case let .notice(n) = $0 { return n } else { return nil } }
    }

    func measurements(_ role: SensorRole) -> [DecodedSensorValue] {
        sessionEvents.compactMap { if case let .measurement(r, m, _, _) = $0, r == role { return m } else { return nil } }
    }

    var scanningEvents: [Bool] {
        hostEvents.compactMap { if case let .scanning(on) = $0 { return on } else { return nil } }
    }
}

