/// The driver's way back into its loop: ending it, and the `Sendable` loop handle to give to
/// other threads.
///
/// Loop-thread only. It is deliberately not `Sendable`, so the compiler rejects capturing it in
/// a `@Sendable` job or handing it to another thread; those use `loop` (the handle) instead.
public final class EventLoopContext<Driver: EventLoopDriver> {
    /// The thread-safe handle: `submit` and `stop` from any thread.
    public let loop: EventLoop<Driver>
    private(set) var failure: TransportError?
    private(set) var stopRequested = false

    init(loop: EventLoop<Driver>) {
        self.loop = loop
    }

    /// Ends the loop once the current callback returns.
    public func stop() { stopRequested = true }

    /// Ends the loop once the current callback returns, because what it serves failed (the
    /// transport was lost, the management socket failed); the outcome is `.transportClosed`.
    public func fail(_ error: TransportError) {
        if failure == nil { failure = error }
    }
}

@available(*, unavailable, message: "the context belongs to the loop thread; use `loop` from other threads")
extension EventLoopContext: Sendable {}
