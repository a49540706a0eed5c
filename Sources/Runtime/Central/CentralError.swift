import HostCore

/// Why the async API could not do what was asked.
public enum CentralError: Error, Sendable, CustomStringConvertible {
    /// The adapter could not be opened (a cause the CLI can advise on).
    case unavailable(AdapterOpenError)
    case adapter(String)
    case host(HostError)
    case closed
    case timeout(String)

    public var description: String {
        switch self {
        case .unavailable(let e): return e.description
        case .adapter(let s): return s
        case .host(let e): return e.description
        case .closed: return "the adapter was closed"
        case .timeout(let s): return s
        }
    }
}
