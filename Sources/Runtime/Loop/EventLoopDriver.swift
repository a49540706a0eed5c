/// What an event loop drives: the descriptors it owns (a transport; a management socket and one
/// socket per link; any number), its deadlines, and the first Ctrl-C. In production the
/// `AdapterDriver` over either backend; in tests a recorder.
///
/// Threading contract: the loop creates the driver on its own thread (see `EventLoop.start`)
/// and makes every call below on that thread, one at a time. So a driver needs no locks, and it
/// must not block: while a callback runs, nothing is read and no deadline fires.
///
/// `SendableMetatype`: the conformance must not be isolated to an actor (the loop thread is no
/// actor), and jobs name the driver type from other threads.
///
/// Times are `MonotonicClock` nanoseconds, read by the loop just before the call.
public protocol EventLoopDriver: AnyObject, SendableMetatype {
    /// Appends the descriptors to wait on this turn; called before every `poll`, so the set may
    /// change from turn to turn (a socket per link comes and goes).
    func collectDescriptors(into list: inout [WatchedDescriptor])

    /// `poll` flagged the descriptor `token` names; `events` are its revents.
    func descriptorReady(_ token: Int, events: Int16, at now: UInt64)

    /// When the driver next wants `deadlineReached` (monotonic ns), or nil for no timer. Read
    /// once per loop turn, after every callback, so it may change at any time.
    var nextDeadline: UInt64? { get }

    /// `nextDeadline` has been reached. Called at most once per loop turn; if the deadline is
    /// not moved, the loop calls again on the next turn (after polling I/O without waiting).
    func deadlineReached(at now: UInt64)

    /// First SIGINT/SIGTERM (when the loop was started with a `SignalWatcher`). Return true to
    /// end the loop now, false to wind down (disconnect links, flush) and call
    /// `EventLoopContext.stop()` when done. A second signal ends the loop regardless.
    func shutdownRequested(at now: UInt64) -> Bool

    /// The loop is ending, for `outcome`: called exactly once, on the loop thread, before the
    /// jobs still queued run. The place to fail what is pending and to close descriptors.
    func loopEnding(_ outcome: EventLoopOutcome)
}

extension EventLoopDriver {
    public func shutdownRequested(at now: UInt64) -> Bool { true }
}

/// One descriptor an `EventLoopDriver` wants watched this turn; `token` comes back in
/// `descriptorReady`.
public struct WatchedDescriptor: Sendable {
    public var fd: Int32
    /// POLLIN, POLLOUT … as for `poll(2)`.
    public var events: Int16
    public var token: Int

    public init(fd: Int32, events: Int16, token: Int) {
        self.fd = fd
        self.events = events
        self.token = token
    }
}
