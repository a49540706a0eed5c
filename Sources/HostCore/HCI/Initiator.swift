import Wire

/// The controller's single LE Create Connection (Core Spec v5.4 Vol 4, Part E, §7.8.12: a
/// second one while one is pending gets Command Disallowed). The links waiting for it are the
/// link table's (`LinkTable.inLine`: their phases say it). One link waiting: a create to its
/// address. Several: a create with the Filter Accept List holding theirs (Initiator_Filter_Policy
/// 1), so that a present peer is not held behind an absent one until its connect timeout; the
/// controller connects whichever it hears first and the create goes again for the others.
struct Initiator: Sendable {
    enum CancelReason: Sendable, Equatable {
        /// `LinkPlan.connectTimeout` ran out.
        case timeout
        /// The application called `disconnect` / `cancelConnect`.
        case user
        /// The links of the create change (a link joins, or one left the Filter Accept List):
        /// the list may not change under a create that uses it (§7.8.16), so the create ends
        /// and goes again for the links still waiting.
        case regroup
    }

    /// A link on the Filter Accept List of the pending create.
    struct Member: Sendable, Equatable {
        var link: LinkID
        /// The entry on the list: a bonded peer's identity when the controller resolves its
        /// RPAs (the resolving list), else the address the link connects to.
        var peer: DeviceAddress
        /// The link's own connect timeout; nil until the create's first Command Status.
        var deadline: HostTime?
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
        /// The links on the Filter Accept List for a create that uses it (`link` then names only
        /// the command's purpose, `peer` nothing); nil for a create to one address.
        var acceptList: [Member]? = nil

        /// The earliest connect timeout of the members.
        var earliestMemberDeadline: HostTime? {
            var d = EarliestDeadline()
            for m in acceptList ?? [] { d.consider(m.deadline) }
            return d.time
        }
    }

    /// The one pending LE Create Connection.
    var pending: Attempt?
    /// The controller said Command Disallowed to a create while scanning: from now on scanning
    /// pauses around connection attempts (until the next reset).
    var scanConflictLearned = false
    /// Legacy or extended commands: a controller rejects mixing them after a reset (Vol 4,
    /// Part E, §3.1.1), so the first scan or create decides for both. Nil until then.
    var usesExtendedCommands: Bool?
    /// A Filter Accept List command or a create using it failed: links are created one at a
    /// time from now on (until the next reset).
    var acceptListRefused = false
    /// The connect deadlines of links whose create ended to regroup: the create that follows
    /// keeps them (a link's own timeout runs from its first create, not from each regroup).
    var carriedDeadlines: [LinkID: HostTime] = [:]

    var nextDeadline: HostTime? { pending?.deadline }

    /// Forgets the controller's side (controller reset).
    mutating func controllerReset() {
        pending = nil
        scanConflictLearned = false
        usesExtendedCommands = nil
        acceptListRefused = false
        carriedDeadlines = [:]
    }
}
