import Wire

/// The repeated-attempts rule (Core Spec v5.4 Vol 3, Part H, §2.3.6): after a failed pairing
/// the next attempt with the same peer waits, and each further failure doubles the wait. One
/// throttle per host, keyed by the peer's address (its identity address once known), so the
/// wait survives the link; the host asks it before `PairingInitiator.start` and tells it each
/// outcome. A peer that answers Repeated Attempts is itself throttling rtstack: that is a
/// failure like any other here, so rtstack backs off instead of hammering it.
public struct PairingThrottle: Sendable {
    /// The wait after the first failure; 2 s doubles to 64 s after six in a row.
    public var initialInterval: UInt64
    public var maximumInterval: UInt64
    private var entries: [DeviceAddress: (failures: Int, retryAt: HostTime)] = [:]

    public init(initialInterval: UInt64 = HostDuration.seconds(2), maximumInterval: UInt64 = HostDuration.seconds(64)) {
        self.initialInterval = initialInterval
        self.maximumInterval = maximumInterval
    }

    /// When the next attempt with `peer` may start; nil when it may start now.
    public func retryAt(_ peer: DeviceAddress, now: HostTime) -> HostTime? {
        guard let entry = entries[peer], now < entry.retryAt else { return nil }
        return entry.retryAt
    }

    /// Records how a pairing with `peer` ended. Disconnections do not count (the attempt
    /// proved nothing), nor does a refusal by this throttle itself.
    public mutating func record(_ outcome: Result<PairingResult, PairingError>, for peer: DeviceAddress, at now: HostTime) {
        switch outcome {
        case .success:
            entries[peer] = nil
        case .failure(.disconnected), .failure(.repeatedAttempts):
            break
        case .failure:
            let failures = (entries[peer]?.failures ?? 0) + 1
            let shift = UInt64(min(failures - 1, 32))
            let wait = min(maximumInterval, initialInterval << shift)
            entries[peer] = (failures, now &+ wait)
        }
    }

    /// Consecutive failures recorded for `peer`.
    public func failures(_ peer: DeviceAddress) -> Int { entries[peer]?.failures ?? 0 }
}
