import Wire

/// The host over HCI (Docs/host-core.md): rtstack's own controller driver, for a controller on
/// a serial line, over TCP or on the kernel's HCI user channel. It is controller bring-up, the
/// scanner, HCI command and ACL flow control, and the connector of the shared link table (the
/// initiator queue, LE Create Connection, Disconnect, ACL and L2CAP for each link's GATT client).
///
/// Sans-I/O: fed the controller's packets (`receive`), the application's requests and the
/// time; it reads no clock and starts no thread. Outputs are pulled after every input: the
/// packets for the controller (`pollTransmit`, within the command and ACL credits), the events
/// (`pollEvent`), the next deadline.
public final class HCIHost: Host {
    public let configuration: HostConfiguration
    public let linkTable: LinkTable

    enum Phase: Equatable {
        /// `start(at:)` not called yet.
        case idle
        case bringingUp(BringUpStep)
        case ready
        /// Bring-up failed; `start(at:)` tries again.
        case failed
    }

    // The data path reads `commands`, `acl` and `connections` on every inbound packet. They are
    // marked `@exclusivity(unchecked)` because the dynamic exclusivity check of a class property
    // cost about 170 instructions per access, a third of the core's time per notification
    // (callgrind, Docs/performance.md). That is sound here: the host runs on one thread and calls
    // nothing outside itself, so no access to these properties can overlap another (the static
    // checks within each function still run).
    var phase: Phase = .idle
    var bringUp: ControllerBringUp
    @exclusivity(unchecked) var commands = CommandQueue()
    @exclusivity(unchecked) var acl = ACLScheduler()
    var scanner = Scanner()
    var initiator = Initiator()
    /// Connections by Connection_Handle: the data path's lookup.
    @exclusivity(unchecked) var connections = HandleTable()
    /// Connections the host did not want and is taking down. Not a link's state: these
    /// connections belong to no link (an unexpected peer, a peripheral role, a connection the
    /// application gave up while it won the race), so only their handles are known.
    var strayHandles: Set<UInt16> = []
    /// The latest time any input carried: outputs are never stamped before the input that
    /// caused them, even when a caller pulls with an older clock.
    @exclusivity(unchecked) var clock: HostTime = 0
    /// Bonds, throttle and settings shared by every link's security.
    var securityContext: SecurityContext
    /// Bonded peers behind resolvable private addresses (HCIHost+Privacy).
    var resolver = AddressResolver()
    /// rtstack's own resolvable private address and its rotation (HCIHost+OwnAddress); nil
    /// unless configured, with a local IRK and crypto.
    var privateAddress: PrivateAddressRotation?
    /// Sees every complete inbound ATT PDU before the GATT client does (tests only).
    var attObserver: ((LinkID, ArraySlice<UInt8>) -> Void)?

    /// What bring-up learned; nil until the controller is ready.
    public internal(set) var controllerInfo: ControllerInfo?

    public init(configuration: HostConfiguration) {
        self.configuration = configuration
        linkTable = LinkTable(maximumPayload: configuration.maximumInboundL2CAPPayload)
        bringUp = ControllerBringUp(configuration: configuration)
        securityContext = SecurityContext(settings: configuration.security)
        privateAddress = PrivateAddressRotation(configuration)
    }

    /// The state of `other`, which has no link yet (`copyBeforeLinks`, HCIHost+Copy): every
    /// stored property below is a value but the link table, which gets a copy of its own.
    /// A stored property added to the host must be copied here too (HCIHostCopyTests lists them).
    init(copying other: HCIHost, linkTable: LinkTable) {
        configuration = other.configuration
        self.linkTable = linkTable
        phase = other.phase
        bringUp = other.bringUp
        commands = other.commands
        acl = other.acl
        scanner = other.scanner
        initiator = other.initiator
        connections = other.connections
        strayHandles = other.strayHandles
        clock = other.clock
        securityContext = other.securityContext
        resolver = other.resolver
        privateAddress = other.privateAddress
        attObserver = other.attObserver
        controllerInfo = other.controllerInfo
    }

    // MARK: Driving

    /// Resets the controller and brings it up; `.controllerReady` follows. Calling it again
    /// (e.g. after `.controllerFailed`) starts over: connected links go down.
    public func start(at now: HostTime) {
        clock = max(clock, now)
        if phase != .idle {
            controllerLost(reason: .connectionTerminatedByLocalHost, error: .controller("the host restarted the controller"),
                           at: now)
        }
        beginBringUp(at: now)
        serviceLinks(at: now)
    }

    /// One packet from the controller (events and ACL data; other types are reported and
    /// dropped).
    public func receive(_ packet: HCIPacket, at now: HostTime) {
        clock = now
        switch packet.type {
        case .acl:
            handleACL(packet.bytes, at: now)
        case .event:
            handleEvent(packet.bytes, at: now)
        case .command, .sco, .iso:
            warn("\(packet.type.name) packet from the controller dropped", packet.bytes)
        }
        // The common case — a notification — changes no link and queues nothing to send.
        if linkTable.hasRequests || linkTable.hasOutgoingATT { serviceLinks(at: now) }
    }

    /// The next packet for the controller: ACL data within the ACL credits (fragmented to the
    /// controller's buffer size), then commands within the command credits; nil when flow
    /// control or an empty queue says wait. Data first, because what an input produces for a
    /// peer (an ATT request, a signaling answer) was asked for before the commands the same
    /// input leads to (§4.20: a Connection Parameter Update Response goes before the LE
    /// Connection Update it causes).
    public func pollTransmit(at now: HostTime) -> HCIPacket? {
        if acl.hasSendable, let p = acl.next() { return p }
        if commands.hasSendable { return commands.nextToSend(at: max(now, clock)) }
        return nil
    }

    /// The next event for the application, in order (here rather than only in the protocol's
    /// extension, so that a caller holding the concrete host gets it inlined: it runs for every
    /// notification).
    public func pollEvent() -> HostEvent? { linkTable.events.pop() }

    /// The earliest time at which `advanceTime(to:)` has something to do; nil when nothing
    /// waits for time.
    public var nextDeadline: HostTime? {
        var d = EarliestDeadline(commands.nextDeadline)
        d.consider(initiator.nextDeadline)
        if phase == .ready { d.consider(scanner.retryAt) }
        d.consider(linkTable.nextDeadline)
        d.consider(securityDeadline)
        d.consider(linkTable.attemptDeadline)
        if phase == .ready { d.consider(privateAddress?.nextDeadline) }
        return d.time
    }

    /// Fires everything due at `now`: command timeouts, connect timeouts, reconnect backoffs,
    /// scan retries, the GATT clients' timers.
    public func advanceTime(to now: HostTime) {
        clock = max(clock, now)
        for command in commands.expire(at: now) {
            commandTimedOut(command, at: now)
        }
        initiatorTimer(at: now)
        addressTimers(at: now)
        privateAddress?.advanceTime(to: now)
        linkTable.advanceTime(to: now)
        advanceSecurity(to: now)
        runSchedule(at: now)
        serviceLinks(at: now)
    }

    // MARK: Requests

    /// Starts scanning (or changes the running scan); nil uses `configuration.scan`. Before
    /// the controller is ready the wish is kept and honoured after bring-up.
    public func startScan(_ scan: ScanConfiguration?, at now: HostTime) {
        clock = max(clock, now)
        scanner.want(scan ?? configuration.scan)
        runSchedule(at: now)
    }

    public func stopScan(at now: HostTime) {
        scanner.want(nil)
        runSchedule(at: now)
    }

    // MARK: State, for tests and the CLI

    public var isReady: Bool { phase == .ready }
    /// Bring-up failed (a mandatory command failed or went unanswered, HCI_Reset included):
    /// nothing happens until `start(at:)` is called again. A Hardware Error or a command
    /// timeout after bring-up does not leave the host here unless the bring-up that follows
    /// fails too.
    public var hasFailed: Bool { phase == .failed }

    public var links: [LinkStatus] { linkTable.list.map(status) }

    public func status(of id: LinkID) -> LinkStatus? {
        linkTable.record(id).map(status)
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
    /// The link whose LE Create Connection is pending at the controller (at most one create;
    /// for a create with the Filter Accept List, the first of its links).
    public var pendingConnection: LinkID? { initiatingConnections.first }
    /// The links the pending create is for: one, or those on the Filter Accept List.
    public var initiatingConnections: [LinkID] {
        guard let attempt = initiator.pending else { return [] }
        if let members = attempt.acceptList { return members.map(\.link) }
        return attempt.link.map { [$0] } ?? []
    }
    /// Links waiting for their turn at the controller.
    public var queuedConnections: [LinkID] { linkTable.waitingForConnector }

    func status(_ record: LinkRecord) -> LinkStatus {
        linkTable.status(record) { (acl.inFlight($0.handle), acl.queued($0.handle)) }
    }

    /// The connection of a link, while it has one.
    func connection(of id: LinkID) -> Connection? {
        linkTable.record(id)?.phase.connection
    }

    func warn(_ message: String, _ bytes: ArraySlice<UInt8> = []) {
        linkTable.warn(message, bytes)
    }

    func deliver(_ event: HostEvent) {
        linkTable.events.append(event)
    }

    // MARK: The connector

    /// Carries out the link table's requests (queue, cancel, Disconnect), starts the next
    /// connection when the controller is free, and queues the GATT clients' PDUs as ACL data on
    /// CID 0x0004 behind each link's other packets.
    public func serviceLinks(at now: HostTime) {
        clock = max(clock, now)
        while let r = linkTable.pollRequest() {
            switch r {
            case .start:
                // The link is queued in its turn (its phase); the schedule takes it.
                break
            case let .cancel(id):
                cancelAttempt(id, at: now)
            case let .close(id):
                closeConnection(id)
            case let .secure(id, error):
                raiseSecurity(id, after: error, at: now)
            }
        }
        runSchedule(at: now)
        while let (id, pdu) = linkTable.pollATT() {
            guard let c = connection(of: id) else {
                warn("ATT PDU for \(id), which is not connected, dropped", pdu[...])
                continue
            }
            acl.enqueue(handle: c.handle, channel: .att, payload: pdu[...])
        }
    }
}
