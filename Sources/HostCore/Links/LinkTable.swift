import Wire

/// Every link the application asked for, the one part of the host both backends share: IDs,
/// plans, backoff, each link's state (`LinkPhase`), its connection and GATT client, and the
/// events the application sees about them. How a link is made, unmade and carried is the
/// connector's business — the HCI host's initiator and Disconnect, or the kernel host's L2CAP
/// sockets — and the table asks for it through `ConnectorRequest`s the host pulls.
///
/// Inputs come from the application (`connect`, `disconnect`, `perform`), from the connector
/// (`attemptStarted`, `connected`, `connectionEnded` …) and from time; all go through
/// `transition`. Outputs are pulled: events (`pollEvent`), connector requests (`pollRequest`),
/// ATT PDUs for the peers (`pollATT`). Single-threaded and sans-I/O, like the hosts that own it.
public final class LinkTable {
    /// Every link ever asked for, in creation order (deterministic iteration).
    var list: [LinkRecord] = []
    var byID: [LinkID: LinkRecord] = [:]
    private var nextLinkNumber: UInt32 = 1
    private var nextOperationNumber: UInt64 = 1
    /// The next turns in the queue: normal links count up, urgent ones down, so an urgent link
    /// goes before every link queued so far.
    private var lastTurn: Int64 = 0
    private var lastUrgentTurn: Int64 = 0
    /// Inputs a connector gave in a phase that cannot take them (each also a warning); always
    /// 0 unless a connector has a bug (debug builds stop at the first).
    public internal(set) var impossibleTransitions = 0
    /// Largest L2CAP payload a connection's reassembler accepts.
    let maximumPayload: Int
    /// The ATT_MTU a connection's client may use at most (the kernel's L2CAP MTUs), per link.
    /// The host's events, waiting to be pulled. Values of notifications are slices of the
    /// input packet, so the driver pulls after every input, before it reuses the buffer.
    @exclusivity(unchecked) var events = PullQueue<HostEvent>(capacity: 64)
    // Read after every inbound packet (`hasRequests`, `hasOutgoingATT`): unchecked for the same
    // reason as `events` (the table runs on one thread and calls nothing that calls back in).
    @exclusivity(unchecked) private var requests = PullQueue<ConnectorRequest>()
    @exclusivity(unchecked) private var outgoing = PullQueue<(link: LinkID, pdu: [UInt8])>()

    /// `maximumPayload`: the largest L2CAP payload a connection's reassembler takes (HCI only).
    public init(maximumPayload: Int = 1024) {
        self.maximumPayload = maximumPayload
    }

    /// A copy of `other`, which holds no link and no request or ATT PDU for one (nil
    /// otherwise: a link's record, connection and GATT client are classes a copy would share).
    /// Its queued events are copied: they are values. For `HCIHost.copyBeforeLinks`.
    init?(copyingWithoutLinks other: LinkTable) {
        guard other.list.isEmpty, other.requests.isEmpty, other.outgoing.isEmpty else { return nil }
        maximumPayload = other.maximumPayload
        nextLinkNumber = other.nextLinkNumber
        nextOperationNumber = other.nextOperationNumber
        lastTurn = other.lastTurn
        lastUrgentTurn = other.lastUrgentTurn
        impossibleTransitions = other.impossibleTransitions
        events = other.events
    }

    // MARK: Application side

    /// A link for `peer`, driven from connection to `ready` by `plan`. Asking again for a peer
    /// whose link is alive returns that link; for one that is gone, the same link starts over
    /// with the new plan.
    func connect(to peer: DeviceAddress, plan: LinkPlan, at now: HostTime) -> LinkID {
        if let existing = list.first(where: { $0.peer == peer }) {
            transition(existing, .connectRequested(plan), at: now)
            return existing.id
        }
        let id = LinkID(rawValue: nextLinkNumber)
        nextLinkNumber &+= 1
        let record = LinkRecord(id: id, peer: peer, plan: plan)
        list.append(record)
        byID[id] = record
        transition(record, .connectRequested(plan), at: now)
        return id
    }

    /// Ends a link for good: its attempt is given up or its connection closed, and
    /// `.disconnected(link, reason:, willReconnect: false)` follows.
    func disconnect(_ id: LinkID, at now: HostTime) {
        guard let record = byID[id] else {
            warn("disconnect: no such link \(id)")
            return
        }
        transition(record, .disconnectRequested, at: now)
    }

    /// Runs a GATT operation on a connected link; `.operationCompleted(id, …)` follows (for a
    /// link that is not connected, at once).
    func perform(_ operation: GATTOperation, on id: LinkID, at now: HostTime) -> OperationID {
        let op = OperationID(rawValue: nextOperationNumber)
        nextOperationNumber &+= 1
        guard let record = byID[id] else {
            events.append(.operationCompleted(op, .failure(.notFound("no link \(id)"))))
            return op
        }
        guard let connection = record.phase.connection else {
            events.append(.operationCompleted(op, .failure(.invalidState("\(id) is not connected (\(record.reported.rawValue))"))))
            return op
        }
        connection.client.perform(operation, id: op, at: now)
        return op
    }

    func state(of id: LinkID) -> LinkState? {
        byID[id].map(publicState)
    }

    func record(_ id: LinkID) -> LinkRecord? { byID[id] }

    /// A turn in the queue (`LinkPhase.queued`), for `transition`.
    func nextTurn(urgent: Bool) -> Int64 {
        if urgent {
            lastUrgentTurn &-= 1
            return lastUrgentTurn
        }
        lastTurn &+= 1
        return lastTurn
    }

    /// The queued link whose turn it is (for a connector that takes one at a time in the
    /// table's order).
    var nextQueued: LinkRecord? {
        var best: (record: LinkRecord, turn: Int64)?
        for record in list {
            guard case let .queued(turn) = record.phase else { continue }
            if best.map({ turn < $0.turn }) ?? true { best = (record, turn) }
        }
        return best?.record
    }

    /// The link the HCI connector's controller takes next: an attempt that waits for its turn
    /// again (unless given up: its cancel ends it), else the queued link whose turn it is.
    var nextInLine: LinkRecord? {
        list.first { if case .initiating(.controllerTurn, cancelling: false) = $0.phase { return true } else { return false } }
            ?? nextQueued
    }

    /// Every link the HCI connector's controller may take, in the order `nextInLine` gives
    /// them: attempts waiting for their turn again, then the queue (for a create with the
    /// Filter Accept List).
    var inLine: [LinkRecord] {
        var queued: [(record: LinkRecord, turn: Int64)] = []
        var again: [LinkRecord] = []
        for record in list {
            switch record.phase {
            case let .queued(turn): queued.append((record, turn))
            case .initiating(.controllerTurn, cancelling: false): again.append(record)
            default: break
            }
        }
        return again + queued.sorted { $0.turn < $1.turn }.map(\.record)
    }

    /// The links waiting for the connector, in the order it takes them.
    var waitingForConnector: [LinkID] {
        var queued: [(id: LinkID, turn: Int64)] = []
        for record in list { if case let .queued(turn) = record.phase { queued.append((record.id, turn)) } }
        return attempts(where: { $0 == .controllerTurn }).map(\.id) + queued.sorted { $0.turn < $1.turn }.map(\.id)
    }

    /// The links whose attempt waits for something with a deadline (the peer's address, a
    /// socket), in creation order.
    func attempts(where matches: (AttemptWait) -> Bool) -> [LinkRecord] {
        list.filter { $0.phase.attempt.map(matches) ?? false }
    }

    /// The earliest deadline of an attempt under way. The connector fires it (what running out
    /// of time means is its own: a socket to close, an address no longer waited for).
    var attemptDeadline: HostTime? {
        var d = EarliestDeadline()
        for record in list { d.consider(record.phase.attempt?.deadline) }
        return d.time
    }

    /// Whether any attempt waits for `wait`'s kind (its deadline aside).
    func hasAttempt(where matches: (AttemptWait) -> Bool) -> Bool {
        list.contains { $0.phase.attempt.map(matches) ?? false }
    }

    // MARK: Time

    var nextDeadline: HostTime? {
        var d = EarliestDeadline()
        for record in list {
            switch record.phase {
            case let .backoff(until):
                d.consider(until)
            case let .up(c), let .closing(c, _):
                d.consider(c.client.nextDeadline)
            default:
                break
            }
        }
        return d.time
    }

    func advanceTime(to now: HostTime) {
        for record in list {
            switch record.phase {
            case let .backoff(until) where until <= now:
                transition(record, .backoffExpired, at: now)
            case let .up(c), let .closing(c, _):
                if let d = c.client.nextDeadline, d <= now { c.client.advanceTime(to: now) }
            default:
                break
            }
        }
    }

    // MARK: Connector side

    func attemptStarted(_ id: LinkID, waitingFor wait: AttemptWait = .controller, at now: HostTime) {
        input(id, .attemptStarted(wait), at: now)
    }

    func attemptFailed(_ id: LinkID, error: HostError, requeueAtOnce: Bool = false, at now: HostTime) {
        input(id, .attemptFailed(error, requeueAtOnce: requeueAtOnce), at: now)
    }

    func attemptCancelled(_ id: LinkID, at now: HostTime) {
        input(id, .attemptCancelled, at: now)
    }

    /// The attempt connected. `mtuLimit` is the largest ATT_MTU the bearer carries (the kernel's
    /// L2CAP MTUs); nil when only ATT limits it. Returns the connection (for the data path).
    /// `holdPlan`: the plan waits for `releasePlan` (security first).
    @discardableResult
    func connected(_ id: LinkID, info: ConnectionInfo, mtuLimit: UInt16? = nil, holdPlan: Bool = false,
                   at now: HostTime) -> Connection? {
        guard let record = byID[id] else { return nil }
        var plan = record.plan
        if let limit = mtuLimit, limit >= ATTBearer.defaultMTU, let wanted = plan.mtu { plan.mtu = min(wanted, limit) }
        let connection = Connection(info: info, client: GATTClient(link: id, plan: plan, output: self),
                                    maximumPayload: maximumPayload)
        transition(record, .connected(connection, holdPlan: holdPlan), at: now)
        return record.phase.connection === connection ? connection : nil
    }

    func connectionEnded(_ id: LinkID, reason: HCIStatus, requeueAtOnce: Bool = false, at now: HostTime) {
        input(id, .connectionEnded(reason, requeueAtOnce: requeueAtOnce), at: now)
    }

    func closeRefused(_ id: LinkID, at now: HostTime) {
        input(id, .closeRefused, at: now)
    }

    // MARK: Security (the connector's answers)

    /// The link's security allows its plan to run: it starts now. `trustCache` false drops the
    /// cached database first (the bond did not hold, so nothing vouches for the peer's cache).
    func releasePlan(_ id: LinkID, trustCache: Bool, at now: HostTime) {
        guard let record = byID[id], let c = record.phase.connection, c.client.life == .waiting else { return }
        if !trustCache, record.plan.cachedDatabase != nil {
            record.plan.cachedDatabase = nil
            c.client.forgetCachedDatabase()
            warn("\(id): the cached database is not used (the bond did not hold); discovering")
        }
        c.client.linkUp(at: now)
    }

    /// The answer to `ConnectorRequest.secure`: the GATT client sends the refused request
    /// again, or fails it with the peer's error.
    func securityDone(_ id: LinkID, raised: Bool, at now: HostTime) {
        byID[id]?.phase.connection?.client.securityFinished(raised: raised, at: now)
    }

    /// The link cannot be secured as it must be: it is closed (the reconnect policy applies).
    func securityFailed(_ id: LinkID, error: HostError, at now: HostTime) {
        input(id, .securityFailed(error), at: now)
    }

    private func input(_ id: LinkID, _ input: LinkInput, at now: HostTime) {
        guard let record = byID[id] else { return }
        transition(record, input, at: now)
    }

    // MARK: Outputs

    func pollEvent() -> HostEvent? { events.pop() }

    func pollRequest() -> ConnectorRequest? { requests.pop() }

    /// The next ATT PDU a GATT client wants sent, with its link.
    func pollATT() -> (link: LinkID, pdu: [UInt8])? { outgoing.pop() }

    var hasOutgoingATT: Bool { !outgoing.isEmpty }
    var hasRequests: Bool { !requests.isEmpty }

    func request(_ r: ConnectorRequest) {
        requests.append(r)
    }

    func warn(_ message: String, _ bytes: ArraySlice<UInt8> = []) {
        events.append(.warning(HostWarning(message, bytes: Array(bytes))))
    }

    // MARK: State, for the application

    /// The one place the public state is computed from a link's phase (while connected, the
    /// GATT client's plan says how far it got).
    func publicState(_ record: LinkRecord) -> LinkState {
        switch record.phase {
        case .queued: return .queued
        case .initiating: return .initiating
        case let .up(c), let .closing(c, _): return c.client.state
        case .backoff: return .waitingToReconnect
        case .gone: return .disconnected
        }
    }

    /// The one place a link's `LinkStatus` is built, for either connector. `acl` gives the ACL
    /// packets of a connection handed to the controller and queued for a credit (the HCI host's
    /// flow control; the kernel keeps its own and reports none).
    func status(_ record: LinkRecord, acl: (Connection) -> (inFlight: Int, queued: Int) = { _ in (0, 0) }) -> LinkStatus {
        let c = record.phase.connection
        var reconnectAt: HostTime?
        if case let .backoff(until) = record.phase { reconnectAt = until }
        let packets = c.map(acl) ?? (inFlight: 0, queued: 0)
        return LinkStatus(id: record.id, peer: record.peer, state: publicState(record), connection: c?.info,
                          mtu: c?.client.mtu, aclPacketsInFlight: packets.inFlight, aclPacketsQueued: packets.queued,
                          attempts: record.attempts, reconnectAt: reconnectAt)
    }

    /// Reports the public state when it changed (called by `transition` only).
    func reportState(_ record: LinkRecord) {
        let state = publicState(record)
        guard state != record.reported else { return }
        record.reported = state
        events.append(.linkState(record.id, state))
    }
}

extension LinkTable: GATTClientOutput {
    func sendATT(_ pdu: [UInt8], on link: LinkID) {
        outgoing.append((link, pdu))
    }

    /// A peer that says its database changed (Service Changed, or a Database Hash that differs)
    /// loses its cached database at once: the client hands a database back at `linkDown` only
    /// once it has one again, so a link that drops before rediscovery ends would otherwise
    /// reconnect with the stale cache — and trust it, when the peer has no hash to check.
    func deliver(_ event: HostEvent) {
        if case let .databaseChanged(id) = event { byID[id]?.plan.cachedDatabase = nil }
        events.append(event)
    }

    func clientStateChanged(_ link: LinkID) {
        if let record = byID[link] { transition(record, .clientProgressed, at: 0) }
    }

    func clientFailed(_ link: LinkID, error: HostError, at now: HostTime) {
        input(link, .clientFailed(error), at: now)
    }

    func securityNeeded(_ link: LinkID, error: ATTErrorCode) {
        request(.secure(link, error))
    }

    /// Why security cannot be asked of `link` now: a link that was connected (the commands
    /// connect before they secure) went down first, typically because the peer disconnected
    /// (Zephyr's SC-only peripheral does, 150 ms after a connection it will not pair with).
    func notConnectedReason(_ link: LinkID) -> String {
        guard let peer = record(link)?.peer else { return "\(link) is not a link of this host" }
        return "\(peer) is not connected: the link went down (disconnected) before security could be raised"
    }
}
