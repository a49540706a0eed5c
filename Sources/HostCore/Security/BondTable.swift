import Wire

/// The bonds the host knows, in memory (the runtime loads them from its state directory and
/// stores what `SecurityEvent.bondStored` hands it). Looked up by the address a link was asked
/// for or connected with: the bond's identity address, the address that paired, or — for a
/// resolvable private address — the bond whose IRK resolves it (`ah`, Vol 3, Part H, §2.2.2).
public struct BondTable: Sendable {
    public private(set) var bonds: [BondRecord]

    public init(_ bonds: [BondRecord] = []) {
        self.bonds = bonds
    }

    /// The bond of `peer`, if any.
    public func bond(for peer: DeviceAddress, crypto: (any SecurityCryptography)?) -> BondRecord? {
        if let b = bonds.first(where: { $0.address == peer || $0.pairing.peerAddress == peer }) { return b }
        guard let crypto, peer.type.isRandom, let parts = peer.address.resolvablePrivateParts else { return nil }
        return bonds.first { b in
            guard let irk = b.pairing.identityResolvingKey else { return false }
            return crypto.ah(irk: irk, prand: parts.prand) == parts.hash
        }
    }

    /// Adds or replaces the bond filed under the same address (or made with the same
    /// connected address).
    public mutating func store(_ bond: BondRecord) {
        bonds.removeAll { $0.address == bond.address || $0.pairing.peerAddress == bond.pairing.peerAddress }
        bonds.append(bond)
    }

    @discardableResult
    public mutating func remove(_ address: DeviceAddress) -> Bool {
        let before = bonds.count
        bonds.removeAll { $0.address == address }
        return bonds.count != before
    }
}
