/// What an event loop drives: in production the sans-I/O host core behind a small adapter, in
/// tests a recorder.
///
/// Threading contract: the loop creates the driver on its own thread (see `EventLoop.start`)
/// and makes every call below on that thread, one at a time. So a driver needs no locks, and
/// it must not block: while a callback runs, no bytes are read and no deadline fires.
///
/// `SendableMetatype`: the conformance must not be isolated to an actor (the loop thread is
/// no actor), and jobs name the driver type from other threads.
///
/// Times are `MonotonicClock` nanoseconds, read by the loop just before the call.
public protocol EventLoopDriver: AnyObject, SendableMetatype {
    /// Bytes read from the transport, in order. For `.h4Stream` framing they can end anywhere
    /// (feed an H4 framer); for `.packets` framing each call is one whole packet. The buffer is
    /// reused after the call returns: copy what must be kept.
    func received(_ bytes: UnsafeRawBufferPointer, at now: UInt64)

    /// `nextDeadline` has been reached. Called at most once per loop turn; if the deadline is
    /// not moved, the loop calls again on the next turn (after polling I/O without waiting).
    func deadlineReached(at now: UInt64)

    /// When the driver next wants `deadlineReached` (monotonic ns), or nil for no timer. Read
    /// once per loop turn, after every callback, so it may change at any time.
    var nextDeadline: UInt64? { get }

    /// The transport reached end of stream or failed. The loop ends after this call; the
    /// transport is closed right after it.
    func transportClosed(_ error: TransportError)

    /// First SIGINT/SIGTERM (when the loop was started with a `SignalWatcher`). Return true to
    /// end the loop now, false to wind down (disconnect links, flush) and call
    /// `EventLoopContext.stop()` when done. A second signal ends the loop regardless.
    /// Default: true.
    func shutdownRequested(at now: UInt64) -> Bool
}

extension EventLoopDriver {
    public func shutdownRequested(at now: UInt64) -> Bool { true }
}
