/// What the kernel host asks of the adapter next — Start or Stop Discovery, or a link's socket
/// — decided in one place from what is wanted and what is under way (the kernel backend's
/// counterpart of `ControllerSchedule`). The kernel serialises LE connection creation and
/// refuses Start Discovery with Busy while it connects, and its discovery competes with a
/// connection for the radio, so discovery pauses while links wait to connect and one socket
/// connects at a time.
///
/// A pure function of two values: `KernelHost.runSchedule` builds them, carries the step out
/// (which changes the situation) and asks again until the answer is `.nothing`. Bring-up's
/// fixed sequence (Read Controller Information, Set Low Energy, Set Powered, the pairing
/// settings) and the power retries while the adapter is away are not choices between wishes,
/// so they stay with their answers in `KernelHost`.
enum ManagementSchedule {
    /// What is under way at the adapter, as the host knows it.
    struct Situation: Sendable, Equatable {
        /// Bring-up has finished and the adapter is here.
        var ready: Bool
        /// The kernel's discovery runs (Start Discovery succeeded, no Discovering 0 since).
        var discovering: Bool
        /// Start or Stop Discovery is sent or waiting to be sent.
        var discoveryCommandPending: Bool
        /// Any management command is sent and unanswered, or waiting behind one.
        var commandPending: Bool
        /// A refused Start Discovery waits for its retry time.
        var discoveryRetryWaiting: Bool
        /// The running discovery's cycle time has come (this turn only: it is not kept).
        var cycleDue: Bool
        /// A link's socket is connecting.
        var connecting: Bool
        /// The adapter's address is known (a socket binds to it).
        var adapterKnown: Bool
    }

    struct Wishes: Sendable, Equatable {
        /// The application scans.
        var scan: Bool
        /// Links are queued for a socket.
        var connect: Bool
    }

    enum Step: Sendable, Equatable {
        case nothing
        case startDiscovery
        case stopDiscovery
        /// Open the socket of the queued link whose turn it is.
        case openChannel
    }

    static func next(_ s: Situation, _ w: Wishes) -> Step {
        guard s.ready else { return .nothing }
        // Discovery pauses while a link connects or waits to.
        let linksWaiting = s.connecting || w.connect
        if !s.discoveryCommandPending {
            if w.scan, !linksWaiting, !s.discovering, !s.discoveryRetryWaiting { return .startDiscovery }
            if s.discovering, !w.scan || linksWaiting { return .stopDiscovery }
            // A discovery that ran its cycle is stopped and started again (see
            // `KernelHostConfiguration.discoveryCycle`), unless another command holds the
            // channel: then this cycle is skipped.
            if s.discovering, s.cycleDue, !s.commandPending { return .stopDiscovery }
        }
        // One connection at a time, and not while discovery holds the radio.
        guard w.connect, !s.connecting, !s.discovering, !s.discoveryCommandPending, s.adapterKnown else {
            return .nothing
        }
        return .openChannel
    }
}
