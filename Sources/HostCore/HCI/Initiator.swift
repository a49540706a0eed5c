import Wire

/// The controller's single LE Create Connection (Core Spec v5.4 Vol 4, Part E, §7.8.12: a
/// second one while one is pending gets Command Disallowed). The links waiting for it are the
/// link table's (`LinkTable.nextInLine`: their phases say it).
struct Initiator: Sendable {
    enum CancelReason: Sendable, Equatable {
        /// `LinkPlan.connectTimeout` ran out.
        case timeout
        /// The application called `disconnect` / `cancelConnect`.
        case user
    }

    enum Phase: Sendable, Equatable {
        /// LE Create Connection sent (or queued), Command Status not yet seen.
        case awaitingStatus
        /// The controller is initiating; LE Connection Complete ends it.
        case awaitingComplete
        /// LE Create Connection Cancel sent; the LE Connection Complete (0x02 Unknown
        /// Connection Identifier, or success when the connection won the race) ends it.
        case cancelling(CancelReason)
    }

    struct Attempt: Sendable {
        /// The link it is for; nil for an attempt no link wants any more: its LE Create
        /// Connection was sent and not yet acknowledged when its link connected through an
        /// earlier attempt. It stays pending (so no second create goes out) and is cancelled
        /// once acknowledged.
        var link: LinkID?
        var peer: DeviceAddress
        var phase: Phase
        /// Connect timeout while awaiting the completion; the cancel guard while cancelling.
        var deadline: HostTime?
        /// A cancel asked for before the Command Status came back: sent once it does.
        var cancelOnStatus: CancelReason?
    }

    /// The one pending LE Create Connection.
    var pending: Attempt?
    /// The controller said Command Disallowed to a create while scanning: from now on scanning
    /// pauses around connection attempts (until the next reset).
    var scanConflictLearned = false
    /// Legacy or extended commands: a controller rejects mixing them after a reset (Vol 4,
    /// Part E, §3.1.1), so the first scan or create decides for both. Nil until then.
    var usesExtendedCommands: Bool?

    var nextDeadline: HostTime? { pending?.deadline }

    /// Forgets the controller's side (controller reset).
    mutating func controllerReset() {
        pending = nil
        scanConflictLearned = false
        usesExtendedCommands = nil
    }
}
