import Wire

/// What rtstack offers and requires when it pairs as central.
public struct PairingConfiguration: Sendable, Hashable {
    /// What rtstack's user can see and type (`--io-capability`). A headless gateway without an
    /// agent is NoInputNoOutput: it can only do Just Works.
    public var ioCapability: SMPIOCapability
    /// The least the pairing must give (`--security`): high and fips need an authenticated
    /// model, fips Secure Connections and a 16-octet key. Pairing that cannot reach it fails
    /// with Authentication Requirements / Encryption Key Size before any key is made.
    public var securityLevel: SecurityLevel
    /// Ask to bond (keep the keys). Without it no keys are distributed.
    public var bonding: Bool
    /// Offer LE Secure Connections (falls back to legacy pairing when the peer lacks it,
    /// unless `securityLevel` is fips or `secureConnectionsOnly` is set).
    public var secureConnections: Bool
    /// Refuse legacy pairing even below fips (Secure Connections Only mode, Vol 3, Part C, §10.2.4).
    public var secureConnectionsOnly: Bool
    /// Maximum Encryption Key Size to offer (7–16).
    public var maximumEncryptionKeySize: UInt8
    /// rtstack's IRK and identity address, distributed as IdKey when set so the peer can
    /// resolve rtstack's private addresses.
    public var localIdentity: LocalIdentity?
    /// Distribute a CSRK (SignKey) so rtstack can send signed writes to this peer.
    public var distributesSigningKey: Bool
    /// Accept a peer that uses the debug key pair of §2.3.5.6.1 (whose private key is
    /// public). Off: a debug key from the peer fails the pairing.
    public var acceptsDebugKey: Bool
    /// The SMP timeout (Vol 3, Part H, §3.4): 30 s.
    public var timeout: UInt64

    public init(ioCapability: SMPIOCapability = .noInputNoOutput, securityLevel: SecurityLevel = .medium,
                bonding: Bool = true, secureConnections: Bool = true, secureConnectionsOnly: Bool = false,
                maximumEncryptionKeySize: UInt8 = 16, localIdentity: LocalIdentity? = nil,
                distributesSigningKey: Bool = false, acceptsDebugKey: Bool = false,
                timeout: UInt64 = HostDuration.seconds(30)) {
        self.ioCapability = ioCapability
        self.securityLevel = securityLevel
        self.bonding = bonding
        self.secureConnections = secureConnections
        self.secureConnectionsOnly = secureConnectionsOnly
        self.maximumEncryptionKeySize = maximumEncryptionKeySize
        self.localIdentity = localIdentity
        self.distributesSigningKey = distributesSigningKey
        self.acceptsDebugKey = acceptsDebugKey
        self.timeout = timeout
    }

    /// Whether Secure Connections is a must (fips, or Secure Connections Only).
    public var requiresSecureConnections: Bool { secureConnectionsOnly || securityLevel.requiresSecureConnections }

    /// The Pairing Request these settings make.
    public var pairingRequest: SMPPairingFeatures {
        var authReq: SMPAuthenticationRequirements = bonding ? [.bonding] : []
        if securityLevel.requiresMITM { authReq.insert(.mitm) }
        if secureConnections || requiresSecureConnections { authReq.insert(.secureConnections) }
        var initiatorKeys: SMPKeyDistribution = []
        if bonding, localIdentity != nil { initiatorKeys.insert(.identityKey) }
        if bonding, distributesSigningKey { initiatorKeys.insert(.signingKey) }
        let responderKeys: SMPKeyDistribution = bonding ? [.encryptionKey, .identityKey, .signingKey] : []
        return SMPPairingFeatures(ioCapability: ioCapability, oobDataFlag: .notPresent, authenticationRequirements: authReq,
                                  maximumEncryptionKeySize: min(max(maximumEncryptionKeySize, 7), 16),
                                  initiatorKeyDistribution: initiatorKeys, responderKeyDistribution: responderKeys)
    }
}

/// rtstack's identity for key distribution: its IRK and its public or static random address.
public struct LocalIdentity: Sendable, Hashable, CustomStringConvertible {
    public var irk: UInt128
    public var address: DeviceAddress

    public init(irk: UInt128, address: DeviceAddress) {
        self.irk = irk
        self.address = address
    }

    public var description: String { "LocalIdentity(\(address), IRK redacted)" }
}
