import Timing

extension Backoff {
    /// Between connection attempts to the broker: 0.5 s, doubled up to 30 s, ±20 % so that the
    /// gateways that lost one broker do not all come back in the same second.
    public static let broker = Backoff(initial: 500_000_000, maximum: 30_000_000_000, jitter: 0.2)
}
