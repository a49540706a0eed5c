import Wire

/// One bond as stored: the pairing's keys and what must persist with them (the signing
/// counters of signed writes, Core Spec v5.4 Vol 3, Part H, §2.4.5). Filed under the peer's
/// identity address. Its description never shows a key.
public struct BondRecord: Sendable, Hashable, CustomStringConvertible {
    public var pairing: PairingResult
    /// The SignCounter of rtstack's next signed write with `pairing.localSignatureKey`.
    public var localSignCounter: UInt32
    /// The highest SignCounter seen from the peer (a replay check for its signed writes).
    public var peerSignCounter: UInt32?

    public init(pairing: PairingResult, localSignCounter: UInt32 = 0, peerSignCounter: UInt32? = nil) {
        self.pairing = pairing
        self.localSignCounter = localSignCounter
        self.peerSignCounter = peerSignCounter
    }

    /// The address the bond is filed under (identity address, else the address that paired).
    public var address: DeviceAddress { pairing.bondAddress }

    public var description: String { "bond with \(address): " + pairing.description }
}
