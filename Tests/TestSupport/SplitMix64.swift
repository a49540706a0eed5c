/// SplitMix64 (Steele, Lea, Flood 2014): a tiny seeded generator, so every random sweep and
/// mutation campaign in the tests draws the same inputs on every run and a failure reproduces.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }
    public init(state: UInt64) { self.state = state }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in 0..<n (n > 0).
    public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(1, n))) }
    public mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }
    public mutating func bytes(_ n: Int) -> [UInt8] { (0..<max(0, n)).map { _ in byte() } }
}
