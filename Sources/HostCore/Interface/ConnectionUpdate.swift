import Wire

/// Why a host asked for no new connection parameters (`Host.updateConnection`).
public enum ConnectionUpdateRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// A value LE Connection Update does not allow (Core Spec Vol 4, Part E, §7.8.18); the text
    /// names it, its value and the range.
    case invalidParameters(String)
    /// The link has no connection now (not yet up, or gone).
    case notConnected(LinkID)
    /// The backend has no way to ask; the text says why.
    case unsupported(String)

    public var description: String {
        switch self {
        case .invalidParameters(let problem): return "connection parameters refused: \(problem)"
        case .notConnected(let link): return "\(link) has no connection whose parameters could change"
        case .unsupported(let why): return "connection parameters cannot be changed: \(why)"
        }
    }
}

extension ConnectionParameters {
    /// Connection interval bounds and supervision timeout in the units of LE Connection Update
    /// (1.25 ms, 10 ms); no connection event length preference.
    public init(intervalMin: UInt16, intervalMax: UInt16, latency: UInt16, supervisionTimeout: UInt16) {
        self.init()
        self.intervalMin = intervalMin
        self.intervalMax = intervalMax
        self.latency = latency
        self.supervisionTimeout = supervisionTimeout
    }

    /// What LE Connection Update (Vol 4, Part E, §7.8.18) does not allow, checked before the
    /// controller is asked — a controller may take such values and the peer drop the link, or
    /// refuse them with no word of which one; nil when they are acceptable. The supervision
    /// timeout must outlast (1 + latency) × interval max × 2 (Vol 6, Part B, §4.5.2), else the
    /// link would be lost by design.
    public var problem: String? {
        if !(6...3200).contains(intervalMin) { return "interval min \(intervalMin) is outside 6–3200 (units of 1.25 ms: 7.5 ms–4 s)" }
        if !(6...3200).contains(intervalMax) { return "interval max \(intervalMax) is outside 6–3200 (units of 1.25 ms: 7.5 ms–4 s)" }
        if intervalMin > intervalMax { return "interval min \(intervalMin) is above interval max \(intervalMax)" }
        if latency > 499 { return "latency \(latency) is above 499 connection events" }
        if !(10...3200).contains(supervisionTimeout) {
            return "supervision timeout \(supervisionTimeout) is outside 10–3200 (units of 10 ms: 100 ms–32 s)"
        }
        // timeout × 10 ms > (1 + latency) × interval max × 1.25 ms × 2, in whole numbers.
        if Int(supervisionTimeout) * 4 <= (1 + Int(latency)) * Int(intervalMax) {
            return "supervision timeout \(supervisionTimeout) (×10 ms) is not above (1 + latency \(latency)) × interval max \(intervalMax) (×1.25 ms) × 2"
        }
        return nil
    }
}

/// Hosts without a controller of their own to ask (test doubles, replays).
extension Host {
    public func updateConnection(_ link: LinkID, to parameters: ConnectionParameters, at now: HostTime) throws(ConnectionUpdateRefusal) {
        throw .unsupported("this host has no controller of its own to send LE Connection Update")
    }
}
