import HostCore

/// How the broker connection ends once the controller has shut down (every link closed, the
/// last states queued): what is still queued goes out and is acknowledged — for at most
/// `drainLimit` — then the client stops, which publishes the gateway `offline`; the loop ends
/// when the client has stopped, or `stopLimit` after asking it to (a broker that never answers
/// must not keep a service from stopping).
public struct BrokerStopSequence: Sendable {
    public static let drainLimit = HostDuration.seconds(3)
    public static let stopLimit = HostDuration.seconds(2)

    /// When the current wait ends: the drain's, then the stop's.
    public private(set) var deadline: HostTime?
    public private(set) var stopRequested = false

    public init() {}

    /// Whether to stop the client now: it has nothing queued, it is not connected (what is
    /// queued cannot go out), or the drain took too long. True once.
    public mutating func shouldStopClient(connected: Bool, queued: Int, at now: HostTime) -> Bool {
        let drainEnd = deadline ?? now &+ Self.drainLimit
        deadline = drainEnd
        guard !stopRequested, !connected || queued == 0 || now >= drainEnd else { return false }
        stopRequested = true
        deadline = now &+ Self.stopLimit
        return true
    }

    /// Whether the loop may end: the client stopped, or it was asked to and the wait is over.
    public func shouldEndLoop(clientStopped: Bool, at now: HostTime) -> Bool {
        clientStopped || (stopRequested && now >= deadline ?? now)
    }
}
