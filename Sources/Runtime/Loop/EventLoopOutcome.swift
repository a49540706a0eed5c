/// Why an event loop ended.
public enum EventLoopOutcome: Sendable, Hashable {
    /// `EventLoop.stop()` or `EventLoopContext.stop()`.
    case stopped
    /// What the driver serves failed (`EventLoopContext.fail`): a transport lost, a socket error.
    case transportClosed(TransportError)
    /// A second SIGINT/SIGTERM (or a first one the driver accepted) ended it.
    case interrupted(signal: Int32)
    /// `poll()` itself failed (e.g. EBADF); a programming error, reported rather than trapped.
    case pollFailed(errno: Int32)
}
