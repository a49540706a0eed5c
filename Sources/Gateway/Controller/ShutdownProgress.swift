import HostCore

/// How far the gateway's clean end has come: asked (its links being disconnected, for at most
/// until `deadline`), then done (every link closed or the wait over, the last states queued).
struct ShutdownProgress {
    private(set) var deadline: HostTime?
    private(set) var isDone = false

    var isRequested: Bool { deadline != nil }

    /// Starts the end; false when it had started already.
    mutating func request(at now: HostTime, timeout: HostTime) -> Bool {
        guard deadline == nil else { return false }
        deadline = now &+ timeout
        return true
    }

    /// Whether the wait for the links ran out at `now`.
    func isOverdue(at now: HostTime) -> Bool {
        guard let deadline, !isDone else { return false }
        return now >= deadline
    }

    /// The deadline while it matters (asked, not done).
    var pendingDeadline: HostTime? { isDone ? nil : deadline }

    mutating func finish() { isDone = true }
}
