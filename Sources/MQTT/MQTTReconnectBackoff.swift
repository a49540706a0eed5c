/// How long to wait before the next connection attempt: `initial` seconds, then each failure
/// multiplies the wait up to `maximum`, with ±`jitter` (a fraction) so that a fleet of gateways
/// that lost the same broker does not reconnect in one burst. The jitter is drawn from a seeded
/// generator, so a test sees the same waits on every run.
public struct MQTTReconnectBackoff: Sendable, Hashable {
    public var initial: Double
    public var maximum: Double
    public var multiplier: Double
    public var jitter: Double
    private var failures = 0
    private var state: UInt64

    public init(initial: Double = 0.5, maximum: Double = 30, multiplier: Double = 2, jitter: Double = 0.2, seed: UInt64 = 0x6D71_7474) {
        self.initial = initial
        self.maximum = maximum
        self.multiplier = multiplier
        self.jitter = jitter
        self.state = seed
    }

    /// The wait before the next attempt, counting this failure.
    public mutating func nextDelay() -> Double {
        var base = initial
        for _ in 0..<min(failures, 64) { base = min(base * multiplier, maximum) }
        failures += 1
        // SplitMix64 step: a fraction in [0, 1).
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        let unit = Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        return max(0, base * (1 + jitter * (2 * unit - 1)))
    }

    /// After a successful connection: the next failure waits `initial` again.
    public mutating func reset() { failures = 0 }

    public var consecutiveFailures: Int { failures }
}
