import Wire

/// A P-256 private key: 32 bytes, most significant first. Its description never shows the
/// bytes, so a key that ends up in a log or a test failure message leaks nothing.
public struct P256PrivateKey: Hashable, Sendable, CustomStringConvertible {
    public let bytes: [UInt8]

    public init?(bytes: [UInt8]) {
        guard bytes.count == 32 else { return nil }
        self.bytes = bytes
    }

    public var description: String { "P256PrivateKey(redacted)" }
}

/// Our side of an LE Secure Connections pairing: a key pair made for this pairing only.
public struct P256KeyPair: Hashable, Sendable {
    public let privateKey: P256PrivateKey
    public let publicKey: SMPPublicKey

    public init(privateKey: P256PrivateKey, publicKey: SMPPublicKey) {
        self.privateKey = privateKey
        self.publicKey = publicKey
    }

    /// The debug key pair of Core Spec v5.4 Vol 3, Part H, §2.3.5.6.1. Everyone knows its
    /// private key, so a link paired with it has no secrecy: a peer that sends this public
    /// key is refused unless the configuration allows it, and rtstack never uses it outside
    /// tests.
    public static let debug = P256KeyPair(
        privateKey: P256PrivateKey(bytes: Hex.parse("3f49f6d4 a3c55f38 74c9b3e3 d2103f50 4aff607b eb40b799 5899b8a6 cd3c1abd")!)!,
        publicKey: SMPPublicKey(x: Hex.parse("20b003d2 f297be2c 5e2c83a7 e9f9a5b9 eff49111 acf4fddb cc030148 0e359de6")!,
                                y: Hex.parse("dc809c49 652aeb6d 63329abf 5a52155c 766345c2 8fed3024 741c8ed0 1589d28b")!)!)
}
