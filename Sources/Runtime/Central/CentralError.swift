import HostCore

/// Why the async API could not do what was asked.
public enum CentralError: Error, Sendable, CustomStringConvertible {
    /// The adapter could not be opened (a cause the CLI can advise on).
    case unavailable(AdapterOpenError)
    /// The adapter's transport failed or was lost under the running loop (its cause kept, so
    /// that the CLI can say what to do about it).
    case adapter(TransportError)
    case host(HostError)
    case closed
    case timeout(String)

    public var description: String {
        switch self {
        case .unavailable(let e): return e.description
        case .adapter(let e): return e.description
        case .host(let e): return e.description
        case .closed: return "the adapter was closed"
        case .timeout(let s): return s
        }
    }
}
