/// The wait between attempts at something that keeps failing: a link's reconnection (HostCore),
/// the broker's connection (MQTT), an adapter's reopening (the gateway). `initial`, multiplied
/// by `multiplier` after each failure up to `maximum`, with ±`jitter` (a fraction) so that a
/// fleet of gateways that lost the same broker does not come back in one burst.
///
/// One type for all three, below every layer that retries, so that a wait is computed one way.
/// Times are nanoseconds (HostCore's `HostTime`). The jitter is a pure function of `seed` and
/// the attempt's number, so the same policy gives the same waits on every run: a test, or a
/// replay of a session, sees what production saw.
public struct Backoff: Sendable, Hashable {
    public var initial: UInt64
    public var maximum: UInt64
    public var multiplier: UInt64
    /// A fraction of the wait by which it may be shorter or longer (0: exact waits).
    public var jitter: Double
    /// Failed attempts after which there is no other; nil: forever.
    public var maximumAttempts: Int?
    public var seed: UInt64
    /// Failures counted by `nextDelay` since the last `reset`.
    public private(set) var consecutiveFailures = 0

    public init(initial: UInt64, maximum: UInt64, multiplier: UInt64 = 2, jitter: Double = 0,
                maximumAttempts: Int? = nil, seed: UInt64 = 0x6D71_7474) {
        self.initial = initial
        self.maximum = maximum
        self.multiplier = multiplier
        self.jitter = jitter
        self.maximumAttempts = maximumAttempts
        self.seed = seed
    }

    /// The wait after attempt `n` failed (0: the first attempt), for a caller that counts its
    /// attempts itself (a link record does).
    public func delay(afterAttempt n: Int) -> UInt64 {
        var base = min(initial, maximum)
        var i = 0
        while i < n, base < maximum {
            let (grown, overflow) = base.multipliedReportingOverflow(by: multiplier)
            base = overflow ? maximum : min(grown, maximum)
            if multiplier <= 1 { break }
            i += 1
        }
        guard jitter > 0 else { return base }
        let factor = 1 + jitter * (2 * Self.unit(seed &+ UInt64(truncatingIfNeeded: n) &* 0x9E37_79B9_7F4A_7C15) - 1)
        let d = Double(base) * factor
        return d <= 0 ? 0 : d >= Double(UInt64.max) ? UInt64.max : UInt64(d)
    }

    /// Whether another attempt follows `attempts` failed ones.
    public func allowsAttempt(after attempts: Int) -> Bool {
        maximumAttempts.map { attempts < $0 } ?? true
    }

    /// The wait before the next attempt, counting this failure (for a caller that keeps the
    /// count here: the broker client, an adapter's reopening).
    public mutating func nextDelay() -> UInt64 {
        defer { consecutiveFailures += 1 }
        return delay(afterAttempt: consecutiveFailures)
    }

    /// After a success: the next failure waits `initial` again.
    public mutating func reset() { consecutiveFailures = 0 }

    /// SplitMix64's output function: a fraction in [0, 1) from any 64-bit value.
    private static func unit(_ x: UInt64) -> Double {
        var z = x
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Double((z ^ (z >> 31)) >> 11) / Double(UInt64(1) << 53)
    }
}
