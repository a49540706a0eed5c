import Wire

/// What a completed pairing gives: the keys to keep (when bonded) and how strong they are.
/// Its description never shows a key.
public struct PairingResult: Sendable, Hashable, CustomStringConvertible {
    /// The peer's address on the link that paired.
    public var peerAddress: DeviceAddress
    /// The identity address the peer distributed (IdKey); nil when it sent none.
    public var identityAddress: DeviceAddress?
    /// The key to encrypt with on reconnection: the Secure Connections LTK (EDIV and Rand 0),
    /// or the LTK, EDIV and Rand the peer distributed in legacy pairing; nil after legacy
    /// pairing without EncKey (the STK encrypted only this connection).
    public var longTermKey: LinkEncryptionKey?
    /// The peer's IRK: resolves its resolvable private addresses (`ah`).
    public var identityResolvingKey: UInt128?
    /// The peer's CSRK: verifies its signed writes.
    public var peerSignatureKey: UInt128?
    /// rtstack's CSRK for this peer: signs rtstack's signed writes (counter from 0).
    public var localSignatureKey: UInt128?
    public var model: AssociationModel
    public var secureConnections: Bool
    /// Octets of the encryption key in use (7–16).
    public var keySize: UInt8
    /// Both devices asked to bond: the keys are meant to be stored.
    public var bonded: Bool

    public init(peerAddress: DeviceAddress, identityAddress: DeviceAddress? = nil, longTermKey: LinkEncryptionKey? = nil,
                identityResolvingKey: UInt128? = nil, peerSignatureKey: UInt128? = nil, localSignatureKey: UInt128? = nil,
                model: AssociationModel, secureConnections: Bool, keySize: UInt8, bonded: Bool) {
        self.peerAddress = peerAddress
        self.identityAddress = identityAddress
        self.longTermKey = longTermKey
        self.identityResolvingKey = identityResolvingKey
        self.peerSignatureKey = peerSignatureKey
        self.localSignatureKey = localSignatureKey
        self.model = model
        self.secureConnections = secureConnections
        self.keySize = keySize
        self.bonded = bonded
    }

    public var authenticated: Bool { model.isAuthenticated }
    public var securityLevel: SecurityLevel {
        SecurityLevel.of(authenticated: authenticated, secureConnections: secureConnections, keySize: keySize)
    }

    /// The address to file a bond under: the identity address, else the connection's.
    public var bondAddress: DeviceAddress { identityAddress ?? peerAddress }

    public var description: String {
        var keys: [String] = []
        if longTermKey != nil { keys.append("LTK") }
        if identityResolvingKey != nil { keys.append("IRK") }
        if peerSignatureKey != nil { keys.append("CSRK") }
        if localSignatureKey != nil { keys.append("local CSRK") }
        return "paired with \(bondAddress) by \(model.name)\(secureConnections ? " (LE Secure Connections)" : " (legacy)")"
            + ", security \(securityLevel.name), key size \(keySize)"
            + (bonded ? ", bonded, keys " + (keys.isEmpty ? "none" : keys.joined(separator: ", ")) + " (redacted)" : ", not bonded")
    }
}
