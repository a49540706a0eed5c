/// What a SIGINT/SIGTERM asks of a session.
public enum ShutdownRequest: Sendable, Hashable {
    /// The first signal: wind down cleanly (disconnect links, flush captures), then stop.
    case graceful(signal: Int32)
    /// A second signal before the session ended: stop now.
    case immediate(signal: Int32)

    public var signal: Int32 {
        switch self {
        case .graceful(let signal), .immediate(let signal): return signal
        }
    }
}
