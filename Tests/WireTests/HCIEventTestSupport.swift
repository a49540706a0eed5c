@testable import Wire

/// Shared fixtures of the HCI event tests.
enum EventFixtures {
    /// C0:11:22:33:44:55 — a random static address; on the wire `55 44 33 22 11 C0`.
    static let peer = BDAddress(bigEndian: [0xC0, 0x11, 0x22, 0x33, 0x44, 0x55]) ?? .zero
    /// 11:22:33:44:55:66 — a public address; on the wire `66 55 44 33 22 11`.
    static let publicPeer = BDAddress(bigEndian: [0x11, 0x22, 0x33, 0x44, 0x55, 0x66]) ?? .zero

    static func address(_ text: String) -> BDAddress { BDAddress(string: text) ?? .zero }
}


extension HCIEvent {
    /// Every display path of the event, so that sweeps check display never traps either.
    func exerciseDisplay() -> Int {
        var f = FieldList()
        describeFields(into: &f)
        return name.count + summary.count + f.entries.count
    }
}
