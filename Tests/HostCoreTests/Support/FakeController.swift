@testable import HostCore
import TestSupport
import Wire

/// A scripted in-memory controller. It records everything the host sends, answers commands
/// with Command Complete / Command Status laid out as Core Spec v5.4 Vol 4, Part E, §7 says
/// (built with the Wire encoders), and lets a test inject advertising reports, connection
/// completes, disconnections, Number Of Completed Packets, errors and silences.
///
/// It checks the host's flow control as it goes (`violations`): no command beyond the
/// Num_HCI_Command_Packets it granted, no ACL packet beyond its buffer count, at most one
/// LE Create Connection pending.
///
/// It pulls the host's outputs (`pollTransmit`, `pollEvent`) whenever the test reads the record
/// or calls `run()`, so a test reads what the host has sent so far; commands wait in
/// `unanswered` until the test calls `run()`.
final class FakeController {
    enum Answer {
        /// Command Complete (or Command Status) with this failure status.
        case status(HCIStatus)
        /// No answer at all (for timeouts).
        case silent
        /// No answer until `release(_:)` (a slow H4 UART, a busy controller).
        case held
    }

    // MARK: What the controller says about itself

    var hciVersion: UInt8 = 0x09
    var manufacturer: UInt16 = 0xFFFF
    var publicAddress = BDAddress(string: "00:1B:DC:0F:AA:01") ?? .zero
    /// LE Read Buffer Size (27 × 64 as Bumble's).
    var leBufferLength: UInt16 = 27
    var leBufferCount: UInt8 = 64
    /// Read Buffer Size (used when the LE values are 0).
    var sharedBufferLength: UInt16 = 310
    var sharedBufferCount: UInt16 = 10
    /// LE only: BR/EDR Not Supported (bit 37), LE Supported (Controller) (bit 38).
    var lmpFeatures: UInt64 = 1 << 37 | 1 << 38
    var leFeatures: LEFeatureSet = [.leEncryption, .leExtendedAdvertising]
    /// Every combination allowed.
    var leStates = LESupportedStates(rawValue: 0x0000_03FF_FFFF_FFFF)
    var supportedCommands = [UInt8](repeating: 0xFF, count: 64)
    /// LE Read Filter Accept List Size. 0 by default, so that a test that queues several
    /// links sees them created one at a time; the accept-list tests give it a size.
    var filterAcceptListSize: UInt8 = 0
    /// The above as the shared description answers bring-up with.
    var profile: ControllerProfile {
        var p = ControllerProfile()
        p.hciVersion = hciVersion
        p.manufacturer = manufacturer
        p.publicAddress = publicAddress
        p.leBufferLength = leBufferLength
        p.leBufferCount = leBufferCount
        p.sharedBufferLength = sharedBufferLength
        p.sharedBufferCount = sharedBufferCount
        p.lmpFeatures = lmpFeatures
        p.leFeatures = leFeatures
        p.leStates = leStates
        p.supportedCommands = supportedCommands
        p.filterAcceptListSize = filterAcceptListSize
        return p
    }
    /// Num_HCI_Command_Packets in every answer.
    var numHCICommandPackets: UInt8 = 1
    var answers: [HCIOpcode: Answer] = [:]
    /// Command Disallowed for LE Create Connection while scanning (as some controllers).
    var disallowCreateWhileScanning = false
    /// The controller-state rules Zephyr's link layer enforces (its initiator is its scanner):
    /// scan parameters only while neither scanning nor initiating (§7.8.10 and the shared
    /// scanner), no scan enable while LE Create Connection is pending, no create while scanning.
    /// Each refusal is Command Disallowed (0x0C) and counted in `refusals`.
    var strictStateRules = false
    /// LE Create Connection Cancel is followed by LE Connection Complete (0x02); Bumble's is not.
    var cancelProducesConnectionComplete = true
    /// Disconnect is followed at once by Disconnection Complete (reason 0x16).
    var disconnectCompletes = true
    /// LE Enable Encryption: its Command Status, then (on success) Encryption Change with
    /// `encryptionChangeStatus` — or Encryption Key Refresh Complete on a link already
    /// encrypted — v2 with the key size when `encryptionChangeV2`, else v1 and Read Encryption
    /// Key Size answers `encryptionKeySize`.
    var encryptionStatus: HCIStatus = .success
    var encryptionChangeStatus: HCIStatus = .success
    var encryptionChangeV2 = false
    var encryptionKeySize: UInt8 = 16
    private(set) var encryptedHandles: Set<UInt16> = []

    // MARK: What happened

    /// Held strongly so that a test may drop its own reference; the host holds the fake as its
    /// sink, so the pair lives as long as the test process (a deliberate, test-only cycle).
    var host: HCIHost?
    var now: HostTime = 0
    private var sentRecord: [HCIPacket] = []
    private var commandRecord: [HCICommandPacket] = []
    private var aclRecord: [ACLPacket] = []
    private var eventRecord: [HostEvent] = []
    private(set) var violations: [String] = []
    /// Commands not yet answered, oldest first.
    private var waiting: [HCICommandPacket] = []
    /// Commands kept unanswered by `Answer.held`, oldest first.
    private(set) var held: [HCICommandPacket] = []

    var sent: [HCIPacket] { pull(); return sentRecord }
    var commands: [HCICommandPacket] { pull(); return commandRecord }
    var aclSent: [ACLPacket] { pull(); return aclRecord }
    var events: [HostEvent] { pull(); return eventRecord }
    var unanswered: [HCICommandPacket] { pull(); return waiting }

    /// Takes what the host has for the controller and for the application, as a driver does
    /// after every input.
    func pull() {
        guard let host else { return }
        while true {
            var any = false
            while let p = host.pollTransmit(at: now) {
                any = true
                send(p)
            }
            while let e = host.pollEvent() {
                any = true
                deliver(e)
            }
            if !any { return }
        }
    }
    private(set) var scanning = false
    private(set) var createPending: DeviceAddress?
    /// The pending create uses the Filter Accept List (Initiator_Filter_Policy 1).
    private(set) var createUsesAcceptList = false
    /// The Filter Accept List as the host wrote it.
    private(set) var acceptList: [DeviceAddress] = []
    /// Commands refused under `strictStateRules`.
    private(set) var refusals: [HCIOpcode] = []
    private(set) var aclInFlight: [UInt16: Int] = [:]
    private(set) var maxACLInFlight = 0
    private var creditsLeft = 1
    /// Off: ACL packets are only counted, not copied into the record (allocation measurements).
    var recordsACL = true
    /// Off: notifications are tallied in `notificationTally` instead of stored in `events`, so
    /// that recording them allocates nothing (allocation measurements).
    var recordsNotifications = true
    /// What arrived per link while `recordsNotifications` was off.
    private var tallyRecord: [LinkID: NotificationTally] = [:]
    var notificationTally: [LinkID: NotificationTally] { pull(); return tallyRecord }

    struct NotificationTally: Equatable {
        var count = 0
        var handles: Set<UInt16> = []
        /// Sum of every value byte, to check content without keeping it.
        var valueByteSum = 0
    }

    var aclInFlightTotal: Int { aclInFlight.values.reduce(0, +) }
    var opcodes: [HCIOpcode] { commands.map(\.opcode) }
    var warnings: [HostWarning] {
        events.compactMap { if case let .warning(w) = $0 { return w } else { return nil } }
    }

    func attach(_ host: HCIHost) { self.host = host }

    /// The host, once everything it has to send is taken (its ACL credits and queues then
    /// read as a driver's would after the call).
    var pulledHost: HCIHost {
        pull()
        return host!
    }

    /// Forgets the record (not the controller's state).
    func clearRecord() {
        pull()
        sentRecord.removeAll()
        commandRecord.removeAll()
        aclRecord.removeAll()
        eventRecord.removeAll()
    }

    // MARK: The host's outputs

    private func send(_ packet: HCIPacket) {
        if !recordsACL, packet.type == .acl {
            let handle = packet.bytes.count >= 2
                ? UInt16(packet.bytes[packet.bytes.startIndex]) | UInt16(packet.bytes[packet.bytes.startIndex + 1] & 0x0F) << 8 : 0
            aclInFlight[handle, default: 0] += 1
            return
        }
        let copy = HCIPacket(type: packet.type, bytes: Array(packet.bytes))
        sentRecord.append(copy)
        switch packet.type {
        case .command:
            guard let c = try? HCICommandPacket(copy) else {
                violations.append("undecodable command \(Hex.spaced(packet.bytes))")
                return
            }
            // HCI_Reset needs no grant: it is how a host starts over with a controller that
            // stopped answering (the host may send one command after a reset, §4.4).
            if c.opcode == .reset { creditsLeft = max(creditsLeft, 1) }
            if creditsLeft <= 0 { violations.append("\(c.opcode.name) sent without a command credit") }
            creditsLeft -= 1
            commandRecord.append(c)
            waiting.append(c)
        case .acl:
            guard let a = try? ACLPacket(copy) else {
                violations.append("undecodable ACL \(Hex.spaced(packet.bytes))")
                return
            }
            aclRecord.append(a)
            aclInFlight[a.handle, default: 0] += 1
            maxACLInFlight = max(maxACLInFlight, aclInFlightTotal)
            if aclInFlightTotal > aclCapacity {
                violations.append("ACL packet beyond the \(aclCapacity) buffers")
            }
        default:
            violations.append("host sent a \(packet.type.name) packet")
        }
    }

    private func deliver(_ event: HostEvent) {
        if !recordsNotifications, case let .notification(link, handle, value) = event {
            tallyRecord[link, default: NotificationTally()].count += 1
            tallyRecord[link, default: NotificationTally()].handles.insert(handle)
            for byte in value { tallyRecord[link, default: NotificationTally()].valueByteSum += Int(byte) }
            return
        }
        eventRecord.append(event)
    }

    var aclCapacity: Int {
        leBufferLength == 0 || leBufferCount == 0 ? Int(sharedBufferCount) : Int(leBufferCount)
    }

    // MARK: Driving

    /// Answers every pending command (and those the answers cause) until the host is quiet.
    func run() {
        var guardCount = 0
        pull()
        while !waiting.isEmpty, guardCount < 10_000 {
            guardCount += 1
            answer(waiting.removeFirst())
            pull()
        }
    }

    /// Answers the held commands of `opcode` as it would have at once, and holds it no more.
    func release(_ opcode: HCIOpcode) {
        answers[opcode] = nil
        let due = held.filter { $0.opcode == opcode }
        held.removeAll { $0.opcode == opcode }
        for c in due {
            answer(c)
            pull()
        }
    }

    /// Starts the host and answers bring-up.
    func bringUp() {
        host?.start(at: now)
        run()
    }

    func emit(_ event: HCIEvent) {
        if case .commandComplete(let e) = event { creditsLeft = Int(e.numHCICommandPackets) }
        if case .commandStatus(let e) = event { creditsLeft = Int(e.numHCICommandPackets) }
        host?.receive(HCIPacket(type: .event, bytes: event.encoded), at: now)
        pull()
        checkInvariants()
    }

    /// The rules the host keeps whatever happens (Docs/host-core.md): ACL credits within
    /// 0…capacity, command credits never negative, at most one LE Create Connection pending.
    func checkInvariants() {
        guard let host else { return }
        if host.aclCreditsInUse < 0 || host.aclCreditsInUse > host.aclCreditCapacity {
            violations.append("ACL credits in use \(host.aclCreditsInUse) outside 0…\(host.aclCreditCapacity)")
        }
        if host.commandCredits < 0 { violations.append("command credits \(host.commandCredits)") }
        if let pending = host.pendingConnection, host.state(of: pending) != .initiating {
            violations.append("pending connection \(pending) is \(String(describing: host.state(of: pending)))")
        }
        // Links waiting for their turn again (`queuedConnections`) are initiating to the
        // application but on no create.
        let waitingAgain = Set(host.queuedConnections)
        let initiating = host.links.filter { $0.state == .initiating && !waitingAgain.contains($0.id) }.count
        let allowed = max(1, host.initiatingConnections.count)
        if initiating > allowed { violations.append("\(initiating) links initiating at once, \(allowed) on the create") }
    }

    func complete(_ opcode: HCIOpcode, _ parameters: [UInt8]) {
        emit(.commandComplete(CommandCompleteEvent(numHCICommandPackets: numHCICommandPackets,
                                                   commandOpcode: opcode, returnParameters: parameters)))
    }

    func complete<P: WireCodable>(_ opcode: HCIOpcode, _ parameters: P) {
        complete(opcode, parameters.encoded)
    }

    func status(_ opcode: HCIOpcode, _ status: HCIStatus = .success) {
        emit(.commandStatus(CommandStatusEvent(status: status, numHCICommandPackets: numHCICommandPackets,
                                               commandOpcode: opcode)))
    }

    /// A NOP Command Complete (opcode 0x0000) that only grants credits.
    func grantCredits(_ n: UInt8) {
        emit(.commandComplete(CommandCompleteEvent(numHCICommandPackets: n, commandOpcode: HCIOpcode(rawValue: 0))))
    }

    private func answer(_ c: HCICommandPacket) {
        let op = c.opcode
        if let a = answers[op] {
            switch a {
            case .silent:
                return
            case .held:
                held.append(c)
                return
            case let .status(s):
                if HCICommandCatalog.completesWithStatus(op) == true { status(op, s) } else { complete(op, [s.rawValue]) }
                return
            }
        }
        if strictStateRules, let refused = strictRefusal(c) {
            refusals.append(op)
            if HCICommandCatalog.completesWithStatus(op) == true { status(op, refused) } else { complete(op, [refused.rawValue]) }
            return
        }
        if let info = profile.answer(op, credits: numHCICommandPackets) {
            emit(info)
            return
        }
        switch op {
        case .reset:
            scanning = false
            createPending = nil
            acceptList.removeAll()
            aclInFlight.removeAll()
            complete(op, StatusReturnParameters())
        case .leSetRandomAddress:
            // §7.8.4: Command Disallowed while scanning or initiating (the address a running
            // scan or create uses cannot change under it).
            if scanning || createPending != nil {
                violations.append("LE Set Random Address while \(scanning ? "scanning" : "initiating")")
                complete(op, [HCIStatus.commandDisallowed.rawValue])
            } else {
                complete(op, StatusReturnParameters())
            }
        case .setEventMask, .leSetEventMask, .writeLEHostSupport,
             .leSetScanParameters, .leSetExtendedScanParameters, .leClearResolvingList, .leAddDeviceToResolvingList,
             .leSetPrivacyMode, .leSetAddressResolutionEnable:
            complete(op, StatusReturnParameters())
        case .leSetScanEnable:
            scanning = (try? c.decode(LESetScanEnable.self))?.scanEnable ?? false
            complete(op, StatusReturnParameters())
        case .leSetExtendedScanEnable:
            scanning = (try? c.decode(LESetExtendedScanEnable.self))?.enable ?? false
            complete(op, StatusReturnParameters())
        case .leCreateConnection, .leExtendedCreateConnection:
            let peer = ControllerProfile.createTarget(c)
            if createPending != nil {
                violations.append("second LE Create Connection while one is pending")
                status(op, .commandDisallowed)
            } else if disallowCreateWhileScanning && scanning {
                status(op, .commandDisallowed)
            } else {
                createPending = peer
                createUsesAcceptList = ControllerProfile.createUsesAcceptList(c)
                if createUsesAcceptList && acceptList.isEmpty {
                    violations.append("LE Create Connection with an empty Filter Accept List")
                }
                status(op)
            }
        case .leClearFilterAcceptList, .leAddDeviceToFilterAcceptList:
            // §7.8.15–16: not while a create uses the list.
            if createPending != nil && createUsesAcceptList {
                violations.append("\(op.name) while a create uses the Filter Accept List")
                complete(op, [HCIStatus.commandDisallowed.rawValue])
            } else if op == .leClearFilterAcceptList {
                acceptList.removeAll()
                complete(op, StatusReturnParameters())
            } else if acceptList.count >= Int(filterAcceptListSize) {
                complete(op, [HCIStatus.memoryCapacityExceeded.rawValue])
            } else {
                if let e = try? c.decode(LEAddDeviceToFilterAcceptList.self) {
                    acceptList.append(DeviceAddress(e.address, type: e.addressType == .randomDevice ? .randomDevice : .publicDevice))
                }
                complete(op, StatusReturnParameters())
            }
        case .leCreateConnectionCancel:
            guard let peer = createPending else {
                complete(op, [HCIStatus.commandDisallowed.rawValue])
                return
            }
            complete(op, StatusReturnParameters())
            if cancelProducesConnectionComplete {
                createPending = nil
                emitLE(.connectionComplete(LEConnectionCompleteEvent(
                    status: .unknownConnectionIdentifier, connectionHandle: 0, peerAddressType: peer.type,
                    peerAddress: peer.address, connectionInterval: 0, supervisionTimeout: 0)))
            }
        case .disconnect:
            status(op)
            if disconnectCompletes, let d = try? c.decode(Disconnect.self) {
                disconnectionComplete(handle: d.connectionHandle, reason: .connectionTerminatedByLocalHost)
            }
        case .leConnectionUpdate:
            status(op)
        case .leEnableEncryption:
            status(op, encryptionStatus)
            guard encryptionStatus.isSuccess, let e = try? c.decode(LEEnableEncryption.self) else { return }
            let handle = e.connectionHandle
            if encryptedHandles.contains(handle), encryptionChangeStatus.isSuccess {
                emit(.encryptionKeyRefreshComplete(EncryptionKeyRefreshCompleteEvent(connectionHandle: handle)))
                return
            }
            let on: EncryptionEnabled = encryptionChangeStatus.isSuccess ? .on : .off
            if encryptionChangeStatus.isSuccess { encryptedHandles.insert(handle) }
            if encryptionChangeV2 {
                emit(.encryptionChangeV2(EncryptionChangeV2Event(status: encryptionChangeStatus, connectionHandle: handle,
                                                                 encryptionEnabled: on, encryptionKeySize: encryptionKeySize)))
            } else {
                emit(.encryptionChangeV1(EncryptionChangeV1Event(status: encryptionChangeStatus, connectionHandle: handle,
                                                                 encryptionEnabled: on)))
            }
        case .leReadRemoteFeatures:
            status(op)
            let handle = (try? c.decode(LEReadRemoteFeatures.self))?.connectionHandle ?? 0
            emitLE(.readRemoteFeaturesComplete(LEReadRemoteFeaturesCompleteEvent(connectionHandle: handle, leFeatures: 0x01)))
        case .readEncryptionKeySize:
            let handle = (try? c.decode(ReadEncryptionKeySize.self))?.connectionHandle ?? 0
            complete(op, ReadEncryptionKeySize.ReturnParameters(connectionHandle: handle, keySize: encryptionKeySize))
        case .leLongTermKeyRequestNegativeReply:
            let handle = (try? c.decode(LELongTermKeyRequestNegativeReply.self))?.connectionHandle ?? 0
            complete(op, ConnectionHandleReturnParameters(connectionHandle: handle))
        default:
            complete(op, [HCIStatus.unknownHCICommand.rawValue])
        }
    }

    /// What a controller keeping `strictStateRules` refuses, nil for what it takes.
    private func strictRefusal(_ c: HCICommandPacket) -> HCIStatus? {
        switch c.opcode {
        case .leSetScanParameters, .leSetExtendedScanParameters:
            return scanning || createPending != nil ? .commandDisallowed : nil
        case .leSetScanEnable:
            let on = (try? c.decode(LESetScanEnable.self))?.scanEnable ?? false
            return on && createPending != nil ? .commandDisallowed : nil
        case .leSetExtendedScanEnable:
            let on = (try? c.decode(LESetExtendedScanEnable.self))?.enable ?? false
            return on && createPending != nil ? .commandDisallowed : nil
        case .leCreateConnection, .leExtendedCreateConnection:
            return scanning ? .commandDisallowed : nil
        default:
            return nil
        }
    }

    // MARK: Injected events

    func emitLE(_ event: LEMetaEvent) {
        emit(.le(event))
    }

    enum CompletionKind { case legacy, enhancedV1, enhancedV2 }

    /// The pending create succeeds (or fails with `status`).
    func connectionComplete(peer: DeviceAddress, handle: UInt16, status: HCIStatus = .success,
                            kind: CompletionKind = .legacy, role: LERole = .central) {
        if createUsesAcceptList, createPending != nil, status.isSuccess, !acceptList.contains(where: { $0.address == peer.address }) {
            violations.append("connection with \(peer), which is not on the Filter Accept List the create uses")
        }
        createPending = nil
        let legacy = LEConnectionCompleteEvent(status: status, connectionHandle: handle, role: role,
                                               peerAddressType: peer.type, peerAddress: peer.address,
                                               connectionInterval: 36, peripheralLatency: 0, supervisionTimeout: 400)
        switch kind {
        case .legacy:
            emitLE(.connectionComplete(legacy))
        case .enhancedV1, .enhancedV2:
            let v1 = LEEnhancedConnectionCompleteV1Event(status: status, connectionHandle: handle, role: role,
                                                         peerAddressType: peer.type, peerAddress: peer.address,
                                                         connectionInterval: 36, supervisionTimeout: 400)
            emitLE(kind == .enhancedV1 ? .enhancedConnectionCompleteV1(v1)
                                       : .enhancedConnectionCompleteV2(LEEnhancedConnectionCompleteV2Event(v1)))
        }
    }

    func disconnectionComplete(handle: UInt16, reason: HCIStatus) {
        aclInFlight[handle] = nil
        encryptedHandles.remove(handle)
        emit(.disconnectionComplete(DisconnectionCompleteEvent(connectionHandle: handle, reason: reason)))
    }

    /// Number Of Completed Packets for these handles (counts beyond what is in flight are sent
    /// as given: the host must clamp them).
    func completePackets(_ entries: [(handle: UInt16, count: UInt16)]) {
        for e in entries {
            aclInFlight[e.handle] = max(0, (aclInFlight[e.handle] ?? 0) - Int(e.count))
        }
        emit(.numberOfCompletedPackets(NumberOfCompletedPacketsEvent(entries: entries.map {
            .init(connectionHandle: $0.handle, numCompletedPackets: $0.count)
        })))
    }

    /// Completes everything in flight, one entry per handle.
    func completeAllPackets() {
        let entries = aclInFlight.filter { $0.value > 0 }.sorted { $0.key < $1.key }
            .map { (handle: $0.key, count: UInt16($0.value)) }
        if !entries.isEmpty { completePackets(entries) }
    }

    func hardwareError(_ code: UInt8) {
        emit(.hardwareError(HardwareErrorEvent(hardwareCode: code)))
    }

    /// Inbound ACL data from a peer.
    func acl(handle: UInt16, boundary: ACLPacketBoundary = .firstFlushable, _ data: [UInt8]) {
        let packet = ACLPacket(handle: handle, packetBoundary: boundary, data: data[...])
        host?.receive(packet.hciPacket, at: now)
        pull()
        checkInvariants()
    }

    /// One L2CAP frame from a peer in a single ACL packet.
    func l2cap(handle: UInt16, channel: UInt16, _ payload: [UInt8]) {
        let length = UInt16(payload.count)
        acl(handle: handle, [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(channel & 0xFF), UInt8(channel >> 8)] + payload)
    }

    func advertisingReport(_ reports: [LEAdvertisingReport]) {
        emitLE(.advertisingReport(LEAdvertisingReportEvent(reports: reports)))
    }

    func extendedAdvertisingReport(_ reports: [LEExtendedAdvertisingReport]) {
        emitLE(.extendedAdvertisingReport(LEExtendedAdvertisingReportEvent(reports: reports)))
    }

    // MARK: Reading the record

    /// L2CAP frames the host sent (reassembled from its ACL packets), in order.
    var l2capSent: [(handle: UInt16, channel: UInt16, payload: [UInt8])] {
        var out: [(UInt16, UInt16, [UInt8])] = []
        var partial: [UInt16: [UInt8]] = [:]
        for p in aclSent {
            var buffer = p.packetBoundary.isStart ? [] : partial[p.handle] ?? []
            buffer += p.data
            if buffer.count >= 4 {
                let length = Int(buffer[0]) | Int(buffer[1]) << 8
                if buffer.count >= 4 + length {
                    out.append((p.handle, UInt16(buffer[2]) | UInt16(buffer[3]) << 8, Array(buffer[4..<(4 + length)])))
                    partial[p.handle] = nil
                    continue
                }
            }
            partial[p.handle] = buffer
        }
        return out
    }

    func commands<C: HCICommand>(_ type: C.Type) -> [C] {
        commands.compactMap { $0.opcode == C.opcode ? try? $0.decode(C.self) : nil }
    }

    func count(_ opcode: HCIOpcode) -> Int { commands.filter { $0.opcode == opcode }.count }
}

// MARK: - Test helpers

/// The random static own address every test host uses (top bits 0b11).
let testOwnAddress = BDAddress.random(.staticAddress, bits: 0x0123_4567_89AB)

/// A peripheral address for tests: F0:00:00:00:00:0n, random static.
func peer(_ n: UInt8) -> DeviceAddress {
    DeviceAddress(BDAddress(bigEndian: [0xF0, 0, 0, 0, 0, n]) ?? .zero, type: .randomDevice)
}

/// A host wired to a fake controller, both configured by the closures, not yet started.
func makeHost(_ configure: (inout HostConfiguration) -> Void = { _ in },
              controller: (FakeController) -> Void = { _ in }) -> (HCIHost, FakeController) {
    var configuration = HostConfiguration(ownAddress: .randomStatic(testOwnAddress))
    configure(&configuration)
    let fake = FakeController()
    controller(fake)
    let host = HCIHost(configuration: configuration)
    fake.attach(host)
    return (host, fake)
}

/// A host brought up on a fake controller, with the record cleared.
func readyHost(_ configure: (inout HostConfiguration) -> Void = { _ in },
               controller: (FakeController) -> Void = { _ in }) -> (HCIHost, FakeController) {
    let (host, fake) = makeHost(configure, controller: controller)
    fake.bringUp()
    fake.clearRecord()
    return (host, fake)
}

/// Connects `peer` on handle `handle` through the fake (create sent, completion given). The
/// default plan does no GATT work, so the link is `.ready` on return and no ATT PDU was sent.
@discardableResult
func connectLink(_ host: HCIHost, _ fake: FakeController, _ address: DeviceAddress, handle: UInt16,
                 plan: LinkPlan = .noGATT) -> LinkID {
    let id = host.connect(to: address, plan: plan, at: fake.now)
    fake.run()
    fake.connectionComplete(peer: address, handle: handle)
    fake.run()
    return id
}

extension HCIHost {
    /// An ATT PDU for the link's peer, as its GATT client would send it (for tests of the ACL
    /// path below the client).
    func sendATT(_ pdu: [UInt8], on id: LinkID) {
        linkTable.sendATT(pdu, on: id)
        serviceLinks(at: 0)
    }

    /// Gives up a link's attempt (what `disconnect` does for a link not yet connected).
    func cancelConnect(_ id: LinkID, at now: HostTime) {
        disconnect(id, at: now)
    }
}

extension FakeController {
    func linkStates(_ id: LinkID) -> [LinkState] {
        events.compactMap { if case let .linkState(l, s) = $0, l == id { return s } else { return nil } }
    }

    var connectFailures: [(LinkID, HostError, Bool)] {
        events.compactMap { if case let .connectFailed(l, e, r) = $0 { return (l, e, r) } else { return nil } }
    }

    var disconnections: [(LinkID, HCIStatus, Bool)] {
        events.compactMap { if case let .disconnected(l, r, w) = $0 { return (l, r, w) } else { return nil } }
    }

    var connections: [(LinkID, ConnectionInfo)] {
        events.compactMap { if case let .connected(l, i) = $0 { return (l, i) } else { return nil } }
    }

    var scanningEvents: [Bool] {
        events.compactMap { if case let .scanning(on) = $0 { return on } else { return nil } }
    }

    var controllerFailures: [HostError] {
        events.compactMap { if case let .controllerFailed(e) = $0 { return e } else { return nil } }
    }

    var readyCount: Int {
        events.filter { if case .controllerReady = $0 { return true } else { return false } }.count
    }

    func hasWarning(containing text: String) -> Bool {
        warnings.contains { $0.message.contains(text) }
    }
}
