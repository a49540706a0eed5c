import Wire

/// The crypto primitives the Security Manager needs (Core Spec v5.4 Vol 3, Part H, §2.2):
/// AES-128, AES-CMAC, P-256 and random numbers.
///
/// HostCore stays free of C libraries and of I/O: the pairing state machine is handed an
/// implementation (`NettleCryptography` in the SecurityCrypto target, backed by Nettle and
/// the kernel's getrandom(2)), and tests hand it one whose random numbers are scripted, so a
/// pairing replays the specification's sample data byte for byte. The toolbox functions
/// built on these (c1, s1, f4 … ah) are in `SecurityCryptography+Toolbox.swift`.
///
/// 128-bit values are `UInt128`, the number the specification writes most significant octet
/// first; byte strings are most significant first too.
public protocol SecurityCryptography: Sendable {
    /// AES-128 encryption of one block (the security function e, §2.2.1).
    func encrypt(key: UInt128, block: UInt128) -> UInt128
    /// AES-CMAC of `message` under `key` (RFC 4493; §2.2.5).
    func cmac(key: UInt128, message: [UInt8]) -> UInt128
    /// The public key of a P-256 private key; nil unless 0 < key < n.
    func publicKey(of privateKey: P256PrivateKey) -> SMPPublicKey?
    /// Whether `key` is a point of P-256 (coordinates in range and on the curve).
    func isValidPublicKey(_ key: SMPPublicKey) -> Bool
    /// The DHKey: the X coordinate of privateKey·peer, 32 bytes; nil when `peer` is not a
    /// point of P-256.
    func dhKey(privateKey: P256PrivateKey, peer: SMPPublicKey) -> [UInt8]?
    /// `count` bytes from a cryptographically secure source.
    mutating func randomBytes(_ count: Int) -> [UInt8]
}

extension SecurityCryptography {
    /// A random 128-bit value (Mrand, Na, keys to distribute).
    public mutating func random128() -> UInt128 {
        randomBytes(16).reduce(UInt128(0)) { $0 << 8 | UInt128($1) }
    }

    public mutating func random64() -> UInt64 {
        randomBytes(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }

    /// A fresh key pair: random scalars until one is in range (for P-256 the first one is,
    /// but for a chance of about 2⁻³²).
    public mutating func generateKeyPair() -> P256KeyPair {
        while true {
            let candidate = P256PrivateKey(bytes: randomBytes(32))
            if let candidate, let publicKey = publicKey(of: candidate) {
                return P256KeyPair(privateKey: candidate, publicKey: publicKey)
            }
        }
    }
}
