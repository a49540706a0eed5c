import Wire

/// One peer the application asked for, for its whole life: across attempts, connections and
/// reconnections it keeps its `LinkID`, its plan and its backoff count. Its state is `phase`.
final class LinkRecord {
    let id: LinkID
    let peer: DeviceAddress
    var plan: LinkPlan
    /// A new record is `gone` until the table's `transition` takes it in (`connectRequested`).
    @exclusivity(unchecked) var phase: LinkPhase = .gone {
        didSet {
            // What the kernel did for the link's security ends with its socket: a new attempt
            // starts from nothing.
            if phase.attempt == nil, phase.connection == nil { kernelSecurity = KernelLinkSecurity() }
        }
    }
    /// Kernel backend: the level the kernel reached on the link's socket, a raise or a pairing
    /// under way, the prompt the kernel waits on (KernelHost+Security). Kept from the socket's
    /// connect on (the kernel pairs during it when BT_SECURITY asks) until the link has neither
    /// an attempt nor a connection. The HCI backend's security lives in the `Connection`, since
    /// rtstack pairs only once connected.
    var kernelSecurity = KernelLinkSecurity()
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
