import Wire

/// The host for `--backend kernel`: the kernel keeps the adapter and its host stack (HCI,
/// L2CAP, SMP); this host powers the adapter and scans through the management channel, and is
/// the connector of the shared link table with one kernel L2CAP socket per link, on which each
/// link's GATT client (the same code as over HCI) runs.
///
/// Inputs: management events, "socket connected / failed / closed", whole ATT PDUs, the time.
/// Outputs are pulled: `pollAction` (management commands, socket work, ATT PDUs), `pollEvent`,
/// `nextDeadline`. No clock, no thread, no system call.
///
/// Links connect one at a time and discovery pauses while one does: the kernel serialises LE
/// connection creation anyway, and its discovery would otherwise compete with the connection for
/// the radio (it refuses Start Discovery with Busy meanwhile).
///
/// An adapter that is powered off or removed while in use is waited for: links go down and
/// queue again, discovery stops, and when the adapter is back (powered again, or its index added
/// again) bring-up runs again and everything resumes. If this host had powered the adapter on, it
/// tries to power it again (an rfkill block ends that way once lifted). After
/// `adapterReturnTimeout` without it the host fails for good.
public final class KernelHost: Host {
    public let configuration: KernelHostConfiguration
    public let linkTable: LinkTable

    enum Phase: Equatable {
        case idle
        case readingInformation
        case enablingLowEnergy
        case poweringOn
        case ready
        /// Powered off or removed while in use; waiting until `deadline` for it to come back.
        case away(removed: Bool, deadline: HostTime)
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
    /// The adapter was off and this host powered it on (so it can be left as found, and powered
    /// again if it goes off under the host).
    public private(set) var poweredOnByHost = false
    public private(set) var controllerInfo: ControllerInfo?
    var actions = PullQueue<KernelAction>()

    // Scanning
    var scanWanted = false
    /// The kernel's discovery runs (Start Discovery succeeded, no Discovering 0 since).
    var discovering = false
    var discoveryRetryAt: HostTime?
    /// When the running discovery is cycled (stopped and started again).
    var discoveryCycleAt: HostTime?
    /// When the running discovery started, and whether it has reported a device since: a start
    /// that reports none within `discoveryQuietRestart` is cycled then, not after the full
    /// `discoveryCycle` (the kernel may have dropped the whole burst of reports; see there).
    var discoveryStartedAt: HostTime?
    var reportedSinceStart = false
    /// Quiet starts cycled early in a row; after `discoveryQuietRestartLimit` of them the full
    /// cycle applies (nothing is there to be found).
    var quietRestarts = 0
    /// While the adapter is away: when Set Powered is tried again.
    var powerRetryAt: HostTime?

    // The connector keeps nothing per link: a link waiting for its socket is `.queued` (in its
    // turn), the one whose socket connects is `.initiating(.socket(until:))`, a link with an
    // open socket has a connection, and its security is its record's `kernelSecurity`.
    /// What the kernel's pairing made of each peer, and the adapter settings this host changed.
    var security = KernelSecurityState()

    public init(configuration: KernelHostConfiguration) {
        self.configuration = configuration
        linkTable = LinkTable(maximumPayload: 0)
    }

    var adapterName: String { "hci\(configuration.index)" }

    // MARK: Driving

    /// Reads the adapter's state, enables LE and powers it on if needed; `.controllerReady`
    /// (or `.controllerFailed`) follows.
    public func start(at now: HostTime) {
        switch phase {
        case .idle, .failed, .away:
            bringUp(at: now)
        default:
            break
        }
    }

    private func bringUp(at now: HostTime) {
        phase = .readingInformation
        send(.readControllerInformation(index: configuration.index), at: now)
    }

    public var isReady: Bool { phase == .ready }
    public var hasFailed: Bool { phase == .failed }
    public var isScanning: Bool { discovering }

    /// The next event for the application, in order.
    public func pollEvent() -> HostEvent? { linkTable.events.pop() }

    /// The next thing for the runtime to do; nil when there is nothing.
    public func pollAction() -> KernelAction? { actions.pop() }

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
            if !pairingAnswered(opcode, status, rp, at: now) { answered(opcode, status, rp, at: now) }
        case let .commandStatus(opcode, status):
            if !pairingAnswered(opcode, status, [], at: now) { answered(opcode, status, [], at: now) }
        case let .newSettings(s):
            let wasPowered = settings.contains(.powered)
            settings = s
            if phase == .ready, !s.contains(.powered) {
                adapterAway(removed: false, at: now)
            } else if case .away(removed: false, _) = phase, s.contains(.powered), !wasPowered {
                // Powered again by someone (bluetoothd, btmgmt): bring-up reads it afresh.
                bringUp(at: now)
            }
        case .indexRemoved:
            if phase != .failed, phase != .idle { adapterAway(removed: true, at: now) }
        case .indexAdded:
            if case .away(removed: true, _) = phase { bringUp(at: now) }
        case let .controllerError(code):
            warn("\(adapterName) reported a hardware error (code \(Hex.number(code, width: 2)))")
        case let .deviceFound(found):
            guard scanWanted, let address = found.leAddress else { return }
            if discovering { discoveryReported() }
            deliver(.advertisement(AdvertisementReport(
                address: address, rssi: found.rssi, connectable: !found.flags.contains(.notConnectable),
                scannable: false, isScanResponse: found.flags.contains(.scanResponse), data: found.eirData)))
        case let .discovering(types, on):
            guard types.contains(.lePublic) || types.contains(.leRandom) else { return }
            setDiscovering(on)
            // The kernel ends a discovery after about ten seconds: start the next at once.
            if !on { runSchedule(at: now) }
        case let .other(code, parameters):
            _ = pairingEvent(code, parameters, at: now)
        }
        serviceLinks(at: now)
    }

    /// The earliest time at which `advanceTime(to:)` has something to do.
    public var nextDeadline: HostTime? {
        var d = EarliestDeadline(inFlight?.deadline)
        d.consider(linkTable.attemptDeadline)
        d.consider(discoveryRetryAt)
        if discovering, scanWanted { d.consider(discoveryCycleAt) }
        if case let .away(_, deadline) = phase {
            d.consider(deadline)
            d.consider(powerRetryAt)
        }
        d.consider(linkTable.nextDeadline)
        d.consider(securityDeadline)
        return d.time
    }

    public func advanceTime(to now: HostTime) {
        if let f = inFlight, f.deadline <= now {
            inFlight = nil
            waiting.removeAll()
            switch phase {
            case .ready:
                warn("\(f.command.opcode.name) got no answer from the kernel within \(configuration.commandTimeout / 1_000_000_000) s")
                if f.command.opcode == .startDiscovery || f.command.opcode == .stopDiscovery { setDiscovering(false) }
            case .away:
                break
            default:
                bringUpFailed(.noAnswer(f.command.opcode))
            }
        }
        if let record = connectingLink, let deadline = record.phase.attempt?.deadline, deadline <= now {
            closeChannel(record.id)
            linkTable.attemptFailed(record.id, error: .connectTimeout(record.peer), at: now)
        }
        if let r = discoveryRetryAt, r <= now { discoveryRetryAt = nil }
        var cycleDue = false
        if let c = discoveryCycleAt, c <= now {
            discoveryCycleAt = nil
            if discovering, !reportedSinceStart { quietRestarts += 1 }
            cycleDue = true
        }
        if case let .away(removed, deadline) = phase {
            if deadline <= now {
                phase = .failed
                powerRetryAt = nil
                deliver(.controllerFailed(.adapter(adapterName, removed ? .removed : .poweredOff)))
            } else if let p = powerRetryAt, p <= now {
                powerRetryAt = now &+ configuration.powerRetryInterval
                if !removed, inFlight == nil { send(.setPowered(true, index: configuration.index), at: now) }
            }
        }
        securityTimers(at: now)
        linkTable.advanceTime(to: now)
        runSchedule(at: now, cycleDue: cycleDue)
        serviceLinks(at: now)
    }

    // MARK: Requests

    /// Scans for LE devices (public and random addresses) through the kernel's discovery.
    /// The configuration's interval and window do not apply: the kernel picks them.
    public func startScan(_ scan: ScanConfiguration?, at now: HostTime) {
        scanWanted = true
        runSchedule(at: now)
    }

    public func stopScan(at now: HostTime) {
        scanWanted = false
        runSchedule(at: now)
    }

    /// The links, for the CLI and tests.
    public var links: [LinkStatus] {
        linkTable.list.map { linkTable.status($0) }
    }

    /// Commands that leave the adapter as it was found: stop a running discovery, and power
    /// it off again if this host powered it on. The runtime sends them before it closes.
    public var restoringCommands: [ManagementCommand] {
        var out: [ManagementCommand] = []
        // A Stop Discovery already sent (the session's stopScan just before closing) is not sent
        // again: the kernel would answer the second one Rejected.
        let stopping = inFlight?.command.opcode == .stopDiscovery || waiting.contains { $0.opcode == .stopDiscovery }
        if discovering, !stopping { out.append(.stopDiscovery(.lowEnergy, index: configuration.index)) }
        if security.bondableByHost, phase == .ready { out.append(.setBondable(false, index: configuration.index)) }
        if security.secureConnectionsByHost, phase == .ready {
            out.append(.setSecureConnections(false, index: configuration.index))
        }
        if poweredOnByHost, phase == .ready { out.append(.setPowered(false, index: configuration.index)) }
        return out
    }

    // MARK: Socket inputs

    /// The link's socket connected (POLLOUT with SO_ERROR 0).
    public func channelConnected(_ id: LinkID, info: KernelChannelInfo, at now: HostTime) {
        guard let record = connectingLink, record.id == id else { return }
        let connection = ConnectionInfo(handle: info.handle ?? 0, peer: record.peer, interval: 0, latency: 0,
                                        supervisionTimeout: 0)
        // The ATT_MTU cannot exceed what the kernel's L2CAP channel carries either way.
        linkTable.connected(id, info: connection, mtuLimit: min(info.receiveMTU, info.sendMTU), at: now)
        channelSecured(id, info.security)
        runSchedule(at: now)
        serviceLinks(at: now)
    }

    /// The link's socket could not connect; `error` names the errno and the peer.
    public func channelFailed(_ id: LinkID, error: HostError, at now: HostTime) {
        guard connectingLink?.id == id else { return }
        linkTable.attemptFailed(id, error: error, at: now)
        runSchedule(at: now)
        serviceLinks(at: now)
    }

    /// The connected link's socket ended (the peer or the kernel dropped the connection).
    public func channelClosed(_ id: LinkID, reason: HCIStatus, at now: HostTime) {
        guard linkTable.record(id)?.phase.connection != nil else { return }
        linkTable.connectionEnded(id, reason: reason, at: now)
        runSchedule(at: now)
        serviceLinks(at: now)
    }

    /// One ATT PDU read from the link's socket (the socket keeps PDU boundaries).
    public func receiveATT(_ pdu: ArraySlice<UInt8>, on id: LinkID, at now: HostTime) {
        linkTable.record(id)?.phase.connection?.client.receive(pdu, at: now)
        if linkTable.hasRequests || linkTable.hasOutgoingATT { serviceLinks(at: now) }
    }

    // MARK: The connector

    /// Carries out the link table's requests (queue, cancel, close) and hands the GATT clients'
    /// PDUs to their sockets.
    public func serviceLinks(at now: HostTime) {
        var changed = false
        while let r = linkTable.pollRequest() {
            changed = true
            switch r {
            case .start:
                // The link is queued in its turn (its phase); the schedule takes it.
                break
            case let .cancel(id):
                // A queued link has left the queue already; a connecting one closes its socket.
                if connectingLink?.id == id {
                    closeChannel(id)
                    linkTable.attemptCancelled(id, at: now)
                }
            case let .close(id):
                // The kernel drops the connection once no socket uses it: the link is down now.
                if linkTable.record(id)?.phase.connection != nil {
                    closeChannel(id)
                    linkTable.connectionEnded(id, reason: .connectionTerminatedByLocalHost, at: now)
                }
            case let .secure(id, error):
                raiseSecurity(id, after: error, at: now)
            }
        }
        if changed { runSchedule(at: now) }
        while let (id, pdu) = linkTable.pollATT() {
            guard linkTable.record(id)?.phase.connection != nil else {
                warn("ATT PDU for \(id), which is not connected, dropped", pdu[...])
                continue
            }
            actions.append(.sendATT(id, pdu))
        }
    }

    /// Closes the link's socket; called before the transition that ends its attempt or
    /// connection (the link's security goes with that transition).
    private func closeChannel(_ id: LinkID) {
        if hasSocket(id) { actions.append(.closeChannel(id)) }
    }

    /// The link whose socket is connecting (one at a time).
    var connectingLink: LinkRecord? {
        linkTable.list.first { if case .socket? = $0.phase.attempt { return true } else { return false } }
    }

    /// Whether the link's socket is open: connecting, or connected.
    func hasSocket(_ id: LinkID) -> Bool {
        guard let phase = linkTable.record(id)?.phase else { return false }
        if case .socket? = phase.attempt { return true }
        return phase.connection != nil
    }

    // MARK: Internals

    /// Sends a management command. Bring-up and discovery commands go one at a time, each
    /// answered before the next; `waitForAnswer` false sends at once (Pair Device, whose answer
    /// comes when pairing ends, and the user replies to the kernel's pairing questions).
    func send(_ command: ManagementCommand, at now: HostTime, waitForAnswer: Bool = true) {
        if !waitForAnswer {
            actions.append(.sendManagement(command))
            return
        }
        if inFlight == nil {
            inFlight = (command, now &+ configuration.commandTimeout)
            actions.append(.sendManagement(command))
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
            actions.append(.sendManagement(next))
        }
        switch opcode {
        case .readControllerInformation:
            guard status == .success else { return bringUpFailed(.from(opcode, status)) }
            do throws(WireError) {
                let info = try ManagementControllerInformation(bytes: rp)
                adapterAddress = info.address
                settings = info.currentSettings
                guard info.supportedSettings.contains(.lowEnergy) else { return bringUpFailed(.lowEnergyUnsupported) }
            } catch {
                return bringUpFailed(.malformed("Read Controller Information answer: \(error)"))
            }
            continueBringUp(at: now)
        case .setLowEnergy, .setPowered:
            if case .away = phase {
                // A power retry while the adapter is away: the New Settings it causes brings it back.
                if status == .success { bringUp(at: now) }
                return
            }
            guard status == .success else { return bringUpFailed(.from(opcode, status)) }
            if rp.count >= 4 {
                var r = ByteReader(rp)
                if let s = try? r.u32() { settings = ManagementSettings(rawValue: s) }
            }
            if opcode == .setPowered { poweredOnByHost = true }
            continueBringUp(at: now)
        case .startDiscovery:
            if status == .success {
                setDiscovering(true)
                discoveryStartedAt = now
                reportedSinceStart = false
                let quiet = quietRestarts < configuration.discoveryQuietRestartLimit
                discoveryCycleAt = now &+ (quiet ? configuration.discoveryQuietRestart : configuration.discoveryCycle)
            } else {
                setDiscovering(false)
                discoveryRetryAt = now &+ configuration.discoveryRetryDelay
                if status != .busy { warn("\(adapterName): Start Discovery failed: \(status); trying again") }
            }
            runSchedule(at: now)
        case .stopDiscovery:
            setDiscovering(false)
            discoveryCycleAt = nil
            runSchedule(at: now)
        case .setIOCapability, .setBondable, .setSecureConnections:
            if status != .success { warn("\(adapterName): \(opcode.name) failed: \(status); pairing uses the kernel's setting") }
        default:
            break
        }
    }

    private func continueBringUp(at now: HostTime) {
        if !settings.contains(.lowEnergy) {
            guard phase != .enablingLowEnergy else { return bringUpFailed(.settingDidNotTake(.setLowEnergy)) }
            phase = .enablingLowEnergy
            send(.setLowEnergy(true, index: configuration.index), at: now)
        } else if !settings.contains(.powered) {
            guard phase != .poweringOn else { return bringUpFailed(.settingDidNotTake(.setPowered)) }
            phase = .poweringOn
            send(.setPowered(true, index: configuration.index), at: now)
        } else {
            configurePairing(at: now)
            phase = .ready
            powerRetryAt = nil
            var info = ControllerInfo()
            info.publicAddress = adapterAddress ?? .zero
            info.ownAddress = DeviceAddress(adapterAddress ?? .zero, type: .publicDevice)
            controllerInfo = info
            deliver(.controllerReady(info))
            runSchedule(at: now)
        }
    }

    private func bringUpFailed(_ failure: AdapterFailure) {
        phase = .failed
        deliver(.controllerFailed(.adapter(adapterName, failure)))
    }

    /// The adapter went away under the host: sockets are closed, links go down and queue again
    /// (no backoff: the peers did nothing wrong), and the host waits for it to come back.
    private func adapterAway(removed: Bool, at now: HostTime) {
        let cause: AdapterFailure = removed ? .removed : .poweredOff
        phase = .away(removed: removed, deadline: now &+ configuration.adapterReturnTimeout)
        powerRetryAt = poweredOnByHost && !removed ? now &+ configuration.powerRetryInterval : nil
        inFlight = nil
        waiting.removeAll()
        setDiscovering(false)
        discoveryCycleAt = nil
        discoveryRetryAt = nil
        if let record = connectingLink {
            closeChannel(record.id)
            linkTable.attemptFailed(record.id, error: .adapter(adapterName, cause), requeueAtOnce: true, at: now)
        }
        for record in linkTable.list where record.phase.connection != nil {
            closeChannel(record.id)
            linkTable.connectionEnded(record.id, reason: .connectionTerminatedByLocalHost, requeueAtOnce: true, at: now)
        }
        let wait = configuration.adapterReturnTimeout / 1_000_000_000
        warn("\(adapterName) was \(removed ? "removed" : "powered off"); waiting up to \(wait) s for it to come back")
    }

    /// The running discovery reported a device: the kernel's state machine delivers reports, so
    /// the next cycle comes after the full `discoveryCycle` from its start.
    private func discoveryReported() {
        guard !reportedSinceStart else { return }
        reportedSinceStart = true
        quietRestarts = 0
        if let started = discoveryStartedAt, discoveryCycleAt != nil {
            discoveryCycleAt = started &+ configuration.discoveryCycle
        }
    }

    private func setDiscovering(_ on: Bool) {
        guard on != discovering else { return }
        discovering = on
        deliver(.scanning(on))
    }

    /// Brings the kernel's discovery and the connection queue in line with what is wanted:
    /// the steps `ManagementSchedule` decides, until it says to wait. `cycleDue`: the running
    /// discovery's cycle time came in this `advanceTime`.
    func runSchedule(at now: HostTime, cycleDue: Bool = false) {
        // Each step changes the situation; the bound only guards against a step that does not.
        for _ in 0..<8 {
            switch ManagementSchedule.next(scheduleSituation(cycleDue: cycleDue), scheduleWishes) {
            case .nothing:
                return
            case .startDiscovery:
                send(.startDiscovery(.lowEnergy, index: configuration.index), at: now)
            case .stopDiscovery:
                send(.stopDiscovery(.lowEnergy, index: configuration.index), at: now)
            case .openChannel:
                guard let record = linkTable.nextQueued, let address = adapterAddress else { return }
                linkTable.attemptStarted(record.id, waitingFor: .socket(until: now &+ record.plan.connectTimeout), at: now)
                actions.append(.openChannel(record.id, peer: record.peer, adapter: address, security: configuration.security))
            }
        }
        warn("management schedule did not settle within 8 steps")
    }

    var scheduleWishes: ManagementSchedule.Wishes {
        ManagementSchedule.Wishes(scan: scanWanted, connect: linkTable.nextQueued != nil)
    }

    func scheduleSituation(cycleDue: Bool) -> ManagementSchedule.Situation {
        let isDiscoveryCommand = { (c: ManagementCommand) in c.opcode == .startDiscovery || c.opcode == .stopDiscovery }
        return ManagementSchedule.Situation(
            ready: phase == .ready, discovering: discovering,
            discoveryCommandPending: inFlight.map { isDiscoveryCommand($0.command) } ?? false || waiting.contains(where: isDiscoveryCommand),
            commandPending: inFlight != nil || !waiting.isEmpty, discoveryRetryWaiting: discoveryRetryAt != nil,
            cycleDue: cycleDue, connecting: connectingLink != nil, adapterKnown: adapterAddress != nil)
    }

    func warn(_ message: String, _ bytes: ArraySlice<UInt8> = []) {
        linkTable.warn(message, bytes)
    }

    func deliver(_ event: HostEvent) {
        linkTable.events.append(event)
    }
}
