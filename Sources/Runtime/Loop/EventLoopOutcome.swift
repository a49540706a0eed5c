/// Why an event loop ended.
public enum EventLoopOutcome: Sendable, Hashable {
    /// `EventLoop.stop()` or `EventLoopContext.stop()`.
    case stopped
    /// End of stream or a transport failure (also given to `EventLoopDriver.transportClosed`).
    case transportClosed(TransportError)
    /// A second SIGINT/SIGTERM (or a first one the driver accepted) ended it.
    case interrupted(signal: Int32)
    /// `poll()` itself failed (e.g. EBADF); a programming error, reported rather than trapped.
    case pollFailed(errno: Int32)
}
