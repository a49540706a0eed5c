@testable import Wire

/// Shared fixtures of the HCI event tests.
enum EventFixtures {
    /// C0:11:22:33:44:55 — a random static address; on the wire `55 44 33 22 11 C0`.
    static let peer = BDAddress(bigEndian: [0xC0, 0x11, 0x22, 0x33, 0x44, 0x55]) ?? .zero
    /// 11:22:33:44:55:66 — a public address; on the wire `66 55 44 33 22 11`.
    static let publicPeer = BDAddress(bigEndian: [0x11, 0x22, 0x33, 0x44, 0x55, 0x66]) ?? .zero

    static func address(_ text: String) -> BDAddress { BDAddress(string: text) ?? .zero }
}

/// Deterministic generator so that a failing sweep case can be replayed (SplitMix64).
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func bytes(_ n: Int) -> [UInt8] {
        (0..<n).map { _ in UInt8(truncatingIfNeeded: next()) }
    }
}

extension HCIEvent {
    /// Every display path of the event, so that sweeps check display never traps either.
    func exerciseDisplay() -> Int {
        var f = FieldList()
        describeFields(into: &f)
        return name.count + summary.count + f.entries.count
    }
}
