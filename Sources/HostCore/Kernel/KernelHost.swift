import Wire

/// The sans-I/O BLE central for `--backend kernel`: the kernel keeps the adapter and its host
/// stack (HCI, L2CAP, SMP); rtstack powers the adapter and scans through the management
/// channel, and runs its own ATT/GATT client (`GATTSession`, the same code as over HCI) on
/// one kernel L2CAP socket per link.
///
/// Inputs: management events, "socket connected / failed / closed", whole ATT PDUs, the time.
/// Outputs go to the `KernelHostSink`: management commands, "open/close the ATT socket of a
/// link", ATT PDUs, and the same `HostEvent`s as `Host`, so the run session and the async API
/// work on either. No clock, no thread, no system call.
///
/// Links connect one at a time and discovery pauses while one does: the kernel serialises LE
/// connection creation anyway, and its discovery would otherwise compete with the connection
/// for the radio (it refuses Start Discovery with Busy meanwhile).
public final class KernelHost {
    public let configuration: KernelHostConfiguration
    let sink: KernelHostSink

    enum Phase: Equatable {
        case idle
        case readingInformation
        case enablingLowEnergy
        case poweringOn
        case ready
        case failed
    }

    var phase: Phase = .idle
    /// The command sent and not yet answered (the management channel answers in order, but one
    /// at a time keeps the replies unambiguous) and the ones waiting behind it.
    var inFlight: (command: ManagementCommand, deadline: HostTime)?
    var waiting: [ManagementCommand] = []
    var settings: ManagementSettings = []
    /// The adapter's identity address, learnt from Read Controller Information.
    public private(set) var adapterAddress: BDAddress?
    /// The adapter was off and this host powered it on (so it can be left as found).
    public private(set) var poweredOnByHost = false

    // Scanning
    var scanWanted = false
    /// The kernel's discovery runs (Start Discovery succeeded, no Discovering 0 since).
    var discovering = false
    var discoveryRetryAt: HostTime?
    /// When the running discovery is cycled (stopped and started again).
    var discoveryCycleAt: HostTime?

    // Links
    var linkList: [Link] = []
    var linksByID: [LinkID: Link] = [:]
    var queue: [LinkID] = []
    var initiating: (link: LinkID, deadline: HostTime)?
    var nextLinkNumber: UInt32 = 1
    var nextOperationNumber: UInt64 = 1
    /// The time of the latest input, for outputs raised from inside a GATT session.
    var lastTime: HostTime = 0

    public init(configuration: KernelHostConfiguration, sink: KernelHostSink) {
        self.configuration = configuration
        self.sink = sink
    }

    var adapterName: String { "hci\(configuration.index)" }

    // MARK: Driving

    /// Reads the adapter's state, enables LE and powers it on if needed; `.controllerReady`
    /// (or `.controllerFailed`) follows.
    public func start(at now: HostTime) {
        guard phase == .idle || phase == .failed else { return }
        phase = .readingInformation
        send(.readControllerInformation(index: configuration.index), at: now)
    }

    public var isReady: Bool { phase == .ready }
    public var isScanning: Bool { discovering }

    /// One packet read from the management socket. Events for other adapters are ignored.
    public func receiveManagement(_ bytes: ArraySlice<UInt8>, at now: HostTime) {
        let event: ManagementEvent
        do throws(WireError) {
            event = try ManagementEvent(bytes: bytes)
        } catch {
            warn("management event dropped: \(error)", bytes)
            return
        }
        guard event.index == configuration.index else { return }
        switch event.payload {
        case let .commandComplete(opcode, status, rp):
            answered(opcode, status, rp, at: now)
        case let .commandStatus(opcode, status):
            answered(opcode, status, [], at: now)
        case let .newSettings(s):
            settings = s
            if phase == .ready, !s.contains(.powered) {
                lost("\(adapterName) was powered off (by bluetoothd or btmgmt?)", at: now)
            }
        case .indexRemoved:
            lost("\(adapterName) was removed (unplugged, or taken by a user channel)", at: now)
        case let .controllerError(code):
            warn("\(adapterName) reported a hardware error (code \(Hex.number(code, width: 2)))")
        case let .deviceFound(found):
            guard scanWanted, let address = found.leAddress else { return }
            sink.deliver(.advertisement(AdvertisementReport(
                address: address, rssi: found.rssi, connectable: !found.flags.contains(.notConnectable),
                scannable: false, isScanResponse: found.flags.contains(.scanResponse), data: found.eirData)))
        case let .discovering(types, on):
            guard types.contains(.lePublic) || types.contains(.leRandom) else { return }
            discovering = on
            // The kernel ends a discovery after about ten seconds: start the next at once.
            if !on { reconcile(at: now) }
        case .indexAdded, .other:
            break
        }
    }

    /// The earliest time at which `advanceTime(to:)` has something to do.
    public var nextDeadline: HostTime? {
        var d = inFlight?.deadline
        func take(_ t: HostTime?) { if let t { d = min(d ?? t, t) } }
        take(initiating?.deadline)
        take(discoveryRetryAt)
        if discovering, scanWanted { take(discoveryCycleAt) }
        for link in linkList {
            take(link.reconnectAt)
            take(link.session?.nextDeadline)
        }
        return d
    }

    public func advanceTime(to now: HostTime) {
        lastTime = now
        if let f = inFlight, f.deadline <= now {
            inFlight = nil
            waiting.removeAll()
            if phase == .ready {
                warn("\(f.command.opcode.name) got no answer from the kernel within \(configuration.commandTimeout / 1_000_000_000) s")
                if f.command.opcode == .startDiscovery || f.command.opcode == .stopDiscovery { discovering = false }
            } else {
                bringUpFailed("\(adapterName): \(f.command.opcode.name) got no answer from the kernel's management interface")
            }
        }
        if let i = initiating, i.deadline <= now, let link = linksByID[i.link] {
            initiating = nil
            sink.closeATTChannel(link.id)
            attemptFailed(link, error: .connectTimeout(link.peer), at: now)
        }
        if let r = discoveryRetryAt, r <= now { discoveryRetryAt = nil }
        if let c = discoveryCycleAt, c <= now {
            discoveryCycleAt = nil
            if discovering, scanWanted, inFlight == nil, waiting.isEmpty {
                send(.stopDiscovery(.lowEnergy, index: configuration.index), at: now)
            }
        }
        for link in linkList {
            if let r = link.reconnectAt, r <= now {
                link.reconnectAt = nil
                requeue(link)
            }
            if let s = link.session, let d = s.nextDeadline, d <= now { s.advanceTime(to: now) }
        }
        reconcile(at: now)
    }

    // MARK: Requests (the `SessionHost` shape)

    /// Scans for LE devices (public and random addresses) through the kernel's discovery.
    /// The configuration's interval and window do not apply: the kernel picks them.
    public func startScan(_ scan: ScanConfiguration? = nil, at now: HostTime) {
        if !scanWanted { sink.deliver(.scanning(true)) }
        scanWanted = true
        reconcile(at: now)
    }

    public func stopScan(at now: HostTime) {
        if scanWanted { sink.deliver(.scanning(false)) }
        scanWanted = false
        reconcile(at: now)
    }

    /// Asks for a connection to `peer`; same contract as `Host.connect`.
    @discardableResult
    public func connect(to peer: DeviceAddress, plan: LinkPlan = LinkPlan(), at now: HostTime) -> LinkID {
        if let existing = linkList.first(where: { $0.peer == peer }) {
            if existing.state == .disconnected {
                existing.plan = plan
                existing.attempts = 0
                existing.closing = false
                requeue(existing)
                reconcile(at: now)
            }
            return existing.id
        }
        let id = LinkID(rawValue: nextLinkNumber)
        nextLinkNumber &+= 1
        let link = Link(id: id, peer: peer, plan: plan, maximumPayload: 0)
        linkList.append(link)
        linksByID[id] = link
        sink.deliver(.linkState(id, .queued))
        queue.append(id)
        reconcile(at: now)
        return id
    }

    public func cancelConnect(_ link: LinkID, at now: HostTime) { disconnect(link, at: now) }

    /// Ends a link for good: its socket is closed (the kernel drops the connection once no
    /// socket uses it) and `.disconnected(link, reason:, willReconnect: false)` follows at once.
    public func disconnect(_ id: LinkID, at now: HostTime) {
        guard let link = linksByID[id] else {
            warn("disconnect: no such link \(id)")
            return
        }
        switch link.state {
        case .queued, .waitingToReconnect:
            queue.removeAll { $0 == id }
            link.reconnectAt = nil
            sink.deliver(.disconnected(id, reason: .operationCancelledByHost, willReconnect: false))
            setState(link, .disconnected)
        case .initiating:
            initiating = nil
            sink.closeATTChannel(id)
            sink.deliver(.disconnected(id, reason: .operationCancelledByHost, willReconnect: false))
            setState(link, .disconnected)
        case .disconnected:
            break
        default:
            link.closing = true
            sink.closeATTChannel(id)
            linkDown(link, reason: .connectionTerminatedByLocalHost, at: now)
        }
        reconcile(at: now)
    }

    /// Runs a GATT operation on a connected link; `.operationCompleted(id, …)` follows.
    @discardableResult
    public func perform(_ operation: GATTOperation, on id: LinkID, at now: HostTime) -> OperationID {
        let op = OperationID(rawValue: nextOperationNumber)
        nextOperationNumber &+= 1
        guard let link = linksByID[id] else {
            sink.deliver(.operationCompleted(op, .failure(.notFound("no link \(id)"))))
            return op
        }
        guard let session = link.session else {
            sink.deliver(.operationCompleted(op, .failure(.invalidState("\(id) is not connected (\(link.effectiveState.rawValue))"))))
            return op
        }
        session.perform(operation, id: op, at: now)
        return op
    }

    public func state(of id: LinkID) -> LinkState? { linksByID[id]?.effectiveState }

    /// Commands that leave the adapter as it was found: stop a running discovery, and power
    /// it off again if this host powered it on. The runtime sends them before it closes.
    public var restoringCommands: [ManagementCommand] {
        var out: [ManagementCommand] = []
        if discovering { out.append(.stopDiscovery(.lowEnergy, index: configuration.index)) }
        if poweredOnByHost { out.append(.setPowered(false, index: configuration.index)) }
        return out
    }

    // MARK: Socket inputs

    /// The link's socket connected (POLLOUT with SO_ERROR 0).
    public func channelConnected(_ id: LinkID, info: KernelChannelInfo, at now: HostTime) {
        guard let link = linksByID[id], initiating?.link == id else { return }
        initiating = nil
        var plan = link.plan
        // The ATT_MTU cannot exceed what the kernel's L2CAP channel carries either way.
        let limit = min(info.receiveMTU, info.sendMTU)
        if limit >= ATTBearer.defaultMTU, let wanted = plan.mtu { plan.mtu = min(wanted, limit) }
        let connection = ConnectionInfo(handle: info.handle ?? 0, peer: link.peer, interval: 0, latency: 0,
                                        supervisionTimeout: 0)
        link.connection = connection
        link.handle = info.handle
        setState(link, .connected)
        sink.deliver(.connected(id, connection))
        let session = GATTSession(link: id, plan: plan, output: self)
        link.session = session
        session.linkUp(at: now)
        reconcile(at: now)
    }

    /// The link's socket could not connect; `error` names the errno and the peer.
    public func channelFailed(_ id: LinkID, error: HostError, at now: HostTime) {
        guard let link = linksByID[id], initiating?.link == id else { return }
        initiating = nil
        attemptFailed(link, error: error, at: now)
        reconcile(at: now)
    }

    /// The connected link's socket ended (the peer or the kernel dropped the connection).
    public func channelClosed(_ id: LinkID, reason: HCIStatus, at now: HostTime) {
        guard let link = linksByID[id], link.session != nil else { return }
        linkDown(link, reason: reason, at: now)
        reconcile(at: now)
    }

    /// One ATT PDU read from the link's socket (the socket keeps PDU boundaries).
    public func receiveATT(_ pdu: ArraySlice<UInt8>, on id: LinkID, at now: HostTime) {
        lastTime = now
        linksByID[id]?.session?.receive(pdu, at: now)
    }

    // MARK: Internals

    func send(_ command: ManagementCommand, at now: HostTime) {
        if inFlight == nil {
            inFlight = (command, now &+ configuration.commandTimeout)
            sink.sendManagement(command)
        } else {
            waiting.append(command)
        }
    }

    private func answered(_ opcode: ManagementOpcode, _ status: ManagementStatus, _ rp: ArraySlice<UInt8>, at now: HostTime) {
        guard let f = inFlight, f.command.opcode == opcode else { return }
        inFlight = nil
        if !waiting.isEmpty {
            let next = waiting.removeFirst()
            inFlight = (next, now &+ configuration.commandTimeout)
            sink.sendManagement(next)
        }
        switch opcode {
        case .readControllerInformation:
            guard status == .success else { return bringUpFailed(failureText(opcode, status)) }
            do throws(WireError) {
                let info = try ManagementControllerInformation(bytes: rp)
                adapterAddress = info.address
                settings = info.currentSettings
                guard info.supportedSettings.contains(.lowEnergy) else {
                    return bringUpFailed("\(adapterName) does not support Bluetooth Low Energy")
                }
            } catch {
                return bringUpFailed("\(adapterName): Read Controller Information answer malformed: \(error)")
            }
            continueBringUp(at: now)
        case .setLowEnergy, .setPowered:
            guard status == .success else { return bringUpFailed(failureText(opcode, status)) }
            if rp.count >= 4 {
                var r = ByteReader(rp)
                if let s = try? r.u32() { settings = ManagementSettings(rawValue: s) }
            }
            if opcode == .setPowered { poweredOnByHost = true }
            continueBringUp(at: now)
        case .startDiscovery:
            if status == .success {
                discovering = true
                discoveryCycleAt = now &+ configuration.discoveryCycle
            } else {
                discovering = false
                discoveryRetryAt = now &+ configuration.discoveryRetryDelay
                if status != .busy { warn("\(adapterName): Start Discovery failed: \(status); trying again") }
            }
            reconcile(at: now)
        case .stopDiscovery:
            discovering = false
            discoveryCycleAt = nil
            reconcile(at: now)
        default:
            break
        }
    }

    private func continueBringUp(at now: HostTime) {
        if !settings.contains(.lowEnergy) {
            guard phase != .enablingLowEnergy else { return bringUpFailed("\(adapterName): Low Energy stays off after Set Low Energy") }
            phase = .enablingLowEnergy
            send(.setLowEnergy(true, index: configuration.index), at: now)
        } else if !settings.contains(.powered) {
            guard phase != .poweringOn else { return bringUpFailed("\(adapterName): the adapter stays off after Set Powered") }
            phase = .poweringOn
            send(.setPowered(true, index: configuration.index), at: now)
        } else {
            phase = .ready
            var info = ControllerInfo()
            info.publicAddress = adapterAddress ?? .zero
            info.ownAddress = DeviceAddress(adapterAddress ?? .zero, type: .publicDevice)
            sink.deliver(.controllerReady(info))
            reconcile(at: now)
        }
    }

    /// The cause and the fix, for the statuses a user can do something about.
    func failureText(_ opcode: ManagementOpcode, _ status: ManagementStatus) -> String {
        let what = "\(adapterName): \(opcode.name) failed: \(status)"
        switch status {
        case .permissionDenied:
            return what + "; powering the adapter and scanning through the kernel need CAP_NET_ADMIN: run as root, "
                + "or grant it once: sudo setcap cap_net_admin,cap_net_raw+ep $(which rtstack)"
        case .rfKilled:
            return what + "; the adapter is blocked by rfkill: rfkill unblock bluetooth"
        case .invalidIndex:
            return what + "; no such adapter, or a user channel holds it (another rtstack with --backend user-channel?)"
        case .busy:
            return what + "; the adapter is busy (another program is changing it)"
        default:
            return what + " (the adapter is down and could not be powered on)"
        }
    }

    private func bringUpFailed(_ message: String) {
        phase = .failed
        sink.deliver(.controllerFailed(.controller(message)))
    }

    private func lost(_ message: String, at now: HostTime) {
        let wasReady = phase == .ready
        phase = .failed
        discovering = false
        for link in linkList where link.session != nil || initiating?.link == link.id {
            sink.closeATTChannel(link.id)
            if link.session != nil {
                link.closing = true
                linkDown(link, reason: .connectionTerminatedByLocalHost, at: now)
            } else {
                initiating = nil
                link.closing = true
                attemptFailed(link, error: .controller(message), at: now)
            }
        }
        if wasReady { sink.deliver(.controllerFailed(.controller(message))) }
    }

    /// Brings the kernel's discovery and the connection queue in line with what is wanted.
    func reconcile(at now: HostTime) {
        lastTime = now
        guard phase == .ready else { return }
        let connecting = initiating != nil || !queue.isEmpty
        let discoveryCommandPending = inFlight.map { $0.command.opcode == .startDiscovery || $0.command.opcode == .stopDiscovery } ?? false
            || waiting.contains { $0.opcode == .startDiscovery || $0.opcode == .stopDiscovery }
        if !discoveryCommandPending {
            if scanWanted, !connecting, !discovering, discoveryRetryAt == nil {
                send(.startDiscovery(.lowEnergy, index: configuration.index), at: now)
            } else if discovering, !scanWanted || connecting {
                send(.stopDiscovery(.lowEnergy, index: configuration.index), at: now)
            }
        }
        // One connection at a time, and not while discovery holds the radio.
        guard initiating == nil, !discovering, !discoveryCommandPending, !queue.isEmpty,
              let address = adapterAddress else { return }
        let id = queue.removeFirst()
        guard let link = linksByID[id] else { return }
        initiating = (id, now &+ link.plan.connectTimeout)
        setState(link, .initiating)
        sink.openATTChannel(id, to: link.peer, from: address, security: configuration.security)
    }

    private func requeue(_ link: Link) {
        link.reconnectAt = nil
        setState(link, .queued)
        queue.append(link.id)
    }

    private func attemptFailed(_ link: Link, error: HostError, at now: HostTime) {
        let willRetry = !link.closing && link.mayRetry
        sink.deliver(.connectFailed(link.id, error, willRetry: willRetry))
        link.closing = false
        if willRetry { scheduleRetry(link, at: now) } else { setState(link, .disconnected) }
    }

    private func scheduleRetry(_ link: Link, at now: HostTime) {
        guard let policy = link.plan.reconnect else {
            setState(link, .disconnected)
            return
        }
        link.reconnectAt = now &+ policy.delay(afterAttempt: link.attempts)
        link.attempts += 1
        setState(link, .waitingToReconnect)
    }

    private func linkDown(_ link: Link, reason: HCIStatus, at now: HostTime) {
        if let session = link.session {
            if let db = session.database { link.plan.cachedDatabase = db }
            session.linkDown(reason: reason)
        }
        link.session = nil
        link.handle = nil
        link.connection = nil
        let willReconnect = !link.closing && link.mayRetry
        sink.deliver(.disconnected(link.id, reason: reason, willReconnect: willReconnect))
        link.closing = false
        if willReconnect { scheduleRetry(link, at: now) } else { setState(link, .disconnected) }
    }

    func warn(_ message: String, _ bytes: ArraySlice<UInt8> = []) {
        sink.deliver(.warning(HostWarning(message, bytes: Array(bytes))))
    }

    func setState(_ link: Link, _ state: LinkState) {
        guard link.state != state else { return }
        link.state = state
        sink.deliver(.linkState(link.id, state))
    }
}

extension KernelHost: GATTSessionOutput {
    public func sendATT(_ pdu: [UInt8], on id: LinkID) {
        guard linksByID[id]?.session != nil else {
            warn("ATT PDU for \(id), which is not connected, dropped", pdu[...])
            return
        }
        sink.sendATT(pdu, on: id)
    }

    public func deliver(_ event: HostEvent) {
        switch event {
        case let .linkState(id, .ready):
            linksByID[id]?.attempts = 0
        case let .databaseChanged(id):
            linksByID[id]?.plan.cachedDatabase = nil
        default:
            break
        }
        sink.deliver(event)
    }

    /// The ATT bearer timed out or discovery failed: drop the socket; the plan may reconnect.
    public func gattSessionFailed(_ id: LinkID, error: HostError) {
        guard let link = linksByID[id], link.session != nil else { return }
        sink.closeATTChannel(id)
        linkDown(link, reason: .connectionTerminatedByLocalHost, at: lastTime)
    }
}
