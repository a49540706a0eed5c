import Wire

/// The sans-I/O BLE central (Docs/host-core.md). It is fed the controller's packets, the
/// application's requests and the time; it answers through its `HostSink` — packets for the
/// controller, events for the application — and tells when it next needs the time
/// (`nextDeadline`). It reads no clock and starts no thread: every call happens on the one
/// thread that drives it, and every output is made during the call that caused it.
///
/// Outputs can arrive before the call that caused them returns (e.g. `.linkState(id, .queued)`
/// during `connect`, or a failed operation during `perform`), so a driver should collect the
/// sink's events and act on them after the call.
public final class Host {
    public let configuration: HostConfiguration
    /// Kept alive by the host.
    let sink: HostSink

    enum Phase: Equatable {
        /// `start(at:)` not called yet.
        case idle
        case bringingUp(BringUpStep)
        case ready
        /// Bring-up failed; `start(at:)` tries again.
        case failed
    }

    // The data path reads `commands`, `acl` and `linksByHandle` on every inbound packet (and
    // `Link.session`/`reassembler`, `GATTSession.downReason`). They are marked
    // `@exclusivity(unchecked)` because the dynamic exclusivity check of a class property cost
    // about 170 instructions per access, a third of the core's time per notification (callgrind,
    // Docs/performance.md). That is sound here: the host runs on one thread, and the `HostSink`
    // contract forbids calling back into the host, so no access to these properties can overlap
    // another (the static checks within each function still run).
    var phase: Phase = .idle
    var bringUp: ControllerBringUp
    @exclusivity(unchecked) var commands = CommandQueue()
    @exclusivity(unchecked) var acl = ACLScheduler()
    var scanner = Scanner()
    var initiator = Initiator()
    /// Every link ever asked for, in creation order (deterministic iteration).
    var linkList: [Link] = []
    var linksByID: [LinkID: Link] = [:]
    /// Connected links by Connection_Handle: the data path's lookup.
    @exclusivity(unchecked) var linksByHandle = HandleTable()
    /// Connections the host did not want and is taking down.
    var strayHandles: Set<UInt16> = []
    var nextLinkNumber: UInt32 = 1
    var nextOperationNumber: UInt64 = 1
    /// Sees every complete inbound ATT PDU before the GATT session does (tests only).
    var attObserver: ((LinkID, ArraySlice<UInt8>) -> Void)?

    /// What bring-up learned; nil until the controller is ready.
    public internal(set) var controllerInfo: ControllerInfo?

    public init(configuration: HostConfiguration, sink: HostSink) {
        self.configuration = configuration
        self.sink = sink
        bringUp = ControllerBringUp(configuration: configuration)
    }

    // MARK: Driving

    /// Resets the controller and brings it up; `.controllerReady` follows. Calling it again
    /// (e.g. after `.controllerFailed`) starts over: connected links go down.
    public func start(at now: HostTime) {
        if phase != .idle {
            controllerLost(reason: .connectionTerminatedByLocalHost, error: .controller("the host restarted the controller"),
                           at: now)
        }
        beginBringUp(at: now)
        flush(at: now)
    }

    /// One packet from the controller (events and ACL data; other types are reported and
    /// dropped).
    public func receive(_ packet: HCIPacket, at now: HostTime) {
        switch packet.type {
        case .acl:
            handleACL(packet.bytes, at: now)
        case .event:
            handleEvent(packet.bytes, at: now)
        case .command, .sco, .iso:
            warn("\(packet.type.name) packet from the controller dropped", packet.bytes)
        }
        flush(at: now)
    }

    /// The earliest time at which `advanceTime(to:)` has something to do; nil when nothing
    /// waits for time.
    public var nextDeadline: HostTime? {
        var d = commands.nextDeadline
        if let i = initiator.nextDeadline { d = min(d ?? i, i) }
        if phase == .ready, let r = scanner.retryAt { d = min(d ?? r, r) }
        for link in linkList {
            if let r = link.reconnectAt { d = min(d ?? r, r) }
            if let s = link.session, let sd = s.nextDeadline { d = min(d ?? sd, sd) }
        }
        return d
    }

    /// Fires everything due at `now`: command timeouts, connect timeouts, reconnect backoffs,
    /// the GATT sessions' timers.
    public func advanceTime(to now: HostTime) {
        for command in commands.expire(at: now) {
            commandTimedOut(command, at: now)
        }
        initiatorTimer(at: now)
        for link in linkList {
            if let r = link.reconnectAt, r <= now {
                link.reconnectAt = nil
                requeue(link)
            }
        }
        for link in linkList {
            if let s = link.session, let d = s.nextDeadline, d <= now {
                s.advanceTime(to: now)
            }
        }
        reconcileScanner(at: now)
        pumpInitiator(at: now)
        flush(at: now)
    }

    // MARK: Requests

    /// Starts scanning (or changes the running scan); nil uses `configuration.scan`. Before
    /// the controller is ready the wish is kept and honoured after bring-up.
    public func startScan(_ scan: ScanConfiguration? = nil, at now: HostTime) {
        scanner.want(scan ?? configuration.scan)
        reconcileScanner(at: now)
        flush(at: now)
    }

    public func stopScan(at now: HostTime) {
        scanner.want(nil)
        reconcileScanner(at: now)
        flush(at: now)
    }

    /// Asks for a connection to `peer`, taken from connection to `ready` by `plan`. The link
    /// waits in `.queued` for its turn at the controller's single LE Create Connection. Asking
    /// again for a peer whose link is alive returns that link; for one whose link is
    /// `.disconnected`, the same link starts over with the new plan.
    @discardableResult
    public func connect(to peer: DeviceAddress, plan: LinkPlan = LinkPlan(), at now: HostTime) -> LinkID {
        if let existing = linkList.first(where: { $0.peer == peer }) {
            if existing.state == .disconnected {
                existing.plan = plan
                existing.attempts = 0
                existing.closing = false
                requeue(existing)
                pumpInitiator(at: now)
                flush(at: now)
            }
            return existing.id
        }
        let id = LinkID(rawValue: nextLinkNumber)
        nextLinkNumber &+= 1
        let link = Link(id: id, peer: peer, plan: plan, maximumPayload: configuration.maximumInboundL2CAPPayload)
        linkList.append(link)
        linksByID[id] = link
        sink.deliver(.linkState(id, .queued))
        initiator.enqueue(id)
        pumpInitiator(at: now)
        flush(at: now)
        return id
    }

    /// Gives up a connection attempt (queued, initiating or waiting to reconnect). Same as
    /// `disconnect` for a link that is not connected.
    public func cancelConnect(_ link: LinkID, at now: HostTime) {
        disconnect(link, at: now)
    }

    /// Ends a link for good: a connected link gets Disconnect (Remote User Terminated
    /// Connection, 0x13) and ends on its Disconnection Complete; a link not yet connected is
    /// taken out of the queue or its LE Create Connection cancelled. Either way
    /// `.disconnected(link, reason:, willReconnect: false)` follows (reason 0x44, Operation
    /// Cancelled by Host, for a link that was not connected).
    public func disconnect(_ id: LinkID, at now: HostTime) {
        guard let link = linksByID[id] else {
            warn("disconnect: no such link \(id)")
            return
        }
        userDisconnect(link, at: now)
        flush(at: now)
    }

    /// Runs a GATT operation on a connected link; `.operationCompleted(id, …)` follows (for
    /// a link that is not connected, during this call).
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
        flush(at: now)
        return op
    }

    // MARK: State, for tests and the CLI

    public var isReady: Bool { phase == .ready }
    /// Bring-up failed (a mandatory command failed or went unanswered, HCI_Reset included):
    /// nothing happens until `start(at:)` is called again. A Hardware Error or a command
    /// timeout after bring-up does not leave the host here unless the bring-up that follows
    /// fails too.
    public var hasFailed: Bool { phase == .failed }

    public var links: [LinkStatus] { linkList.map(status) }

    public func status(of id: LinkID) -> LinkStatus? {
        linksByID[id].map(status)
    }

    public func state(of id: LinkID) -> LinkState? {
        linksByID[id]?.effectiveState
    }

    /// ACL credits in use; always within 0…`aclCreditCapacity`.
    public var aclCreditsInUse: Int { acl.inUse }
    /// The controller's ACL packet count.
    public var aclCreditCapacity: Int { acl.capacity }
    public var aclPacketsQueued: Int { acl.queuedTotal }
    /// Commands the controller accepts now (Num_HCI_Command_Packets).
    public var commandCredits: Int { commands.credits }
    /// Commands sent and not yet answered.
    public var commandsInFlight: Int { commands.inFlight.count }
    public var isScanning: Bool { scanner.isScanning }
    /// The link whose LE Create Connection is pending at the controller (at most one).
    public var pendingConnection: LinkID? {
        initiator.pending.flatMap { $0.link == Initiator.noLink ? nil : $0.link }
    }
    /// Links waiting for their turn at the controller.
    public var queuedConnections: [LinkID] { initiator.queue }

    func status(_ link: Link) -> LinkStatus {
        LinkStatus(id: link.id, peer: link.peer, state: link.effectiveState, connection: link.connection,
                   mtu: link.session?.mtu,
                   aclPacketsInFlight: link.handle.map { acl.inFlight($0) } ?? 0,
                   aclPacketsQueued: link.handle.map { acl.queued($0) } ?? 0,
                   attempts: link.attempts, reconnectAt: link.reconnectAt)
    }

    // MARK: Output

    /// Sends what flow control allows: commands within the command credits, ACL packets
    /// within the ACL credits.
    ///
    /// Called after every input, so the common case — nothing waiting, as after a notification —
    /// is decided by two reads before any queue is touched.
    func flush(at now: HostTime) {
        if commands.hasSendable {
            while let p = commands.nextToSend(at: now) { sink.send(p) }
        }
        pumpACL()
    }

    func pumpACL() {
        guard acl.hasSendable else { return }
        while let p = acl.next() { sink.send(p) }
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

extension Host: GATTSessionOutput {
    /// An ATT PDU from a link's GATT session: L2CAP CID 0x0004, queued behind the link's
    /// other ACL packets and sent as credits allow.
    public func sendATT(_ pdu: [UInt8], on id: LinkID) {
        guard let link = linksByID[id], let handle = link.handle else {
            warn("ATT PDU for \(id), which is not connected, dropped", pdu[...])
            return
        }
        acl.enqueue(handle: handle, channel: .att, payload: pdu[...])
        pumpACL()
    }

    /// An event from a GATT session, passed on to the application. A link that reaches
    /// `ready` starts its reconnect backoff from scratch. A peer that says its database changed
    /// (Service Changed, or a Database Hash that differs) loses its cached database at once: the
    /// session only hands a database back at `linkDown` once it has one again, so a link that
    /// drops before rediscovery ends would otherwise reconnect with the stale cache — and trust
    /// it, when the peer has no Database Hash to check it against.
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
}
