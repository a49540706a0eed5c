import Wire

/// One peer the application asked for, for its whole life: across attempts, connections and
/// reconnections it keeps its `LinkID`, its plan and its backoff count. Its state is `phase`.
final class LinkRecord {
    let id: LinkID
    let peer: DeviceAddress
    var plan: LinkPlan
    /// A new record is `gone` until the table's `transition` takes it in (`connectRequested`).
    @exclusivity(unchecked) var phase: LinkPhase = .gone
    /// Attempts and reconnections since the link was last `ready`: the backoff grows with it.
    var attempts = 0
    /// The public state last reported in `.linkState`, so a change is reported once.
    var reported: LinkState = .disconnected

    init(id: LinkID, peer: DeviceAddress, plan: LinkPlan) {
        self.id = id
        self.peer = peer
        self.plan = plan
    }

    /// Whether the plan's policy allows one more attempt.
    var mayRetry: Bool {
        plan.reconnect?.allowsAttempt(after: attempts) ?? false
    }
}
