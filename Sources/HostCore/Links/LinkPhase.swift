import Wire

/// Where one link is in its life. The only place a link's state is kept: each case carries what
/// exists in it (its turn while queued, what the connector's attempt waits for while initiating,
/// a connection only while connected), so no combination of flags — here or in a connector —
/// can contradict another. `LinkTable.transition` is the one function that changes it; the public `LinkState`
/// is computed from it (`LinkTable.publicState`).
///
/// ```
///  connect ─► queued ─► initiating ─► up ─────────────► closing ──┐
///               ▲  ▲        │  │        │  (disconnect,             │
///               │  │        │  │        │   client failed)          │
///               │  └────────┘  │        └──────── ended ────────────┤
///               │  controller   └─ failed ─┐                         │
///               │  lost                    ▼                         ▼
///               └──────────── backoff(until) ◄── reconnect policy ── ended
///                                   │                                │
///                                   └──── no policy / user ───► gone ◄┘
/// ```
enum LinkPhase {
    /// Waiting for the connector to start an attempt (the controller takes one LE Create
    /// Connection at a time; the kernel backend opens one socket at a time). Queued links go in
    /// the order of `turn` (lowest first; an urgent link gets one below every other).
    case queued(turn: Int64)
    /// The connector's attempt is under way, waiting for `wait`; `cancelling` once the
    /// application gave it up (the connector answers with `attemptCancelled`, or with a
    /// connection it then closes).
    case initiating(AttemptWait, cancelling: Bool)
    /// Connected: the connection with its handle, reassembly and GATT client.
    case up(Connection)
    /// The connector was asked to close the connection; it stays usable until it has ended.
    case closing(Connection, CloseReason)
    /// Waiting for the reconnect backoff to end.
    case backoff(until: HostTime)
    /// Ended for good (no reconnect policy, attempts used up, or the application's wish).
    case gone

    var connection: Connection? {
        switch self {
        case let .up(c), let .closing(c, _): return c
        default: return nil
        }
    }

    /// What the attempt under way waits for; nil when none is.
    var attempt: AttemptWait? {
        if case let .initiating(wait, _) = self { return wait }
        return nil
    }
}

/// What a link's attempt waits for. Kept in the phase, so that no connector holds a set of its
/// links in some state of their attempt beside it.
enum AttemptWait: Equatable {
    /// HCI: LE Create Connection, queued or pending at the controller (the initiator times the
    /// controller's one pending create, which may belong to no link).
    case controller
    /// HCI: the attempt waits for its turn at the controller again, before every queued link
    /// (a create refused while scanning goes again once the scan is down; a link that waited
    /// for its peer's address has seen it).
    case controllerTurn
    /// HCI: a link to a bonded identity waits to see its peer's current resolvable private
    /// address, until `until` (the plan's connect timeout).
    case address(until: HostTime)
    /// Kernel: the link's L2CAP socket is connecting, until `until`.
    case socket(until: HostTime)

    var deadline: HostTime? {
        switch self {
        case .controller, .controllerTurn: return nil
        case let .address(until), let .socket(until): return until
        }
    }
}

/// Why a connection is being closed.
enum CloseReason {
    /// The application asked: no reconnection follows.
    case user
    /// The GATT client cannot take the link to ready (ATT timeout, failed discovery): the
    /// reconnect policy still applies, so a stalled peer gets a fresh connection.
    case failure(HostError)
}

/// Everything that moves a link: the application's requests, the connector's answers, the
/// GATT client, and time.
enum LinkInput {
    case connectRequested(LinkPlan)
    case disconnectRequested
    /// The connector started an attempt (or one under way now waits for something else: a
    /// link that saw its peer's address goes to the controller).
    case attemptStarted(AttemptWait)
    /// `requeueAtOnce`: the peer did nothing wrong (the controller was lost), so the link goes
    /// back to the queue without backoff.
    case attemptFailed(HostError, requeueAtOnce: Bool)
    case attemptCancelled
    /// `holdPlan`: the GATT client's plan waits for `LinkTable.releasePlan` (security first).
    case connected(Connection, holdPlan: Bool)
    case connectionEnded(HCIStatus, requeueAtOnce: Bool)
    case closeRefused
    case clientFailed(HostError)
    /// The link could not be secured as it must be.
    case securityFailed(HostError)
    /// The GATT client moved on in its plan (the public state may change; `ready` restarts
    /// the backoff count).
    case clientProgressed
    case backoffExpired
}

/// What the link table asks of its host's connector. Requests are queued and pulled
/// (`LinkTable.pollRequest`), so the connector never runs inside the table's own call.
public enum ConnectorRequest: Sendable, Equatable {
    /// Start an attempt for the link (answer: `attemptStarted`, then `connected` or
    /// `attemptFailed`). `urgent` links go before those already waiting: the link's turn in
    /// `.queued` says so, and the connectors take queued links in that order from the table.
    case start(LinkID, urgent: Bool)
    /// Give up the link's attempt: drop it from the queue (no answer), or cancel the attempt
    /// under way (answer: `attemptCancelled`).
    case cancel(LinkID)
    /// Close the link's connection (answer: `connectionEnded`, or `closeRefused`).
    case close(LinkID)
    /// The peer refused a request of the link's GATT client with this ATT security error:
    /// raise the link's security if possible (answer: `securityDone`, which sends the request
    /// again or fails it).
    case secure(LinkID, ATTErrorCode)
}
