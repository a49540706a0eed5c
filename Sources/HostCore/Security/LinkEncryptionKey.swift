/// A key to encrypt a link with, and what identifies it: the LTK with its EDIV and Rand (for
/// LE Enable Encryption, Core Spec v5.4 Vol 4, Part E, §7.8.24), or a legacy STK (EDIV and
/// Rand 0). Its description never shows the key.
public struct LinkEncryptionKey: Hashable, Sendable, CustomStringConvertible {
    /// The key, as a number (LE Enable Encryption carries it least significant octet first).
    public var key: UInt128
    public var ediv: UInt16
    public var rand: UInt64
    /// Octets of the key in use (7–16); the others are zero (§2.3.4 of Vol 3, Part H).
    public var keySize: UInt8

    public init(key: UInt128, ediv: UInt16 = 0, rand: UInt64 = 0, keySize: UInt8 = 16) {
        self.key = key
        self.ediv = ediv
        self.rand = rand
        self.keySize = keySize
    }

    /// `key` shortened to `size` octets: the most significant ones set to zero (Vol 3, Part H,
    /// §2.3.4).
    public static func masked(_ key: UInt128, toSize size: UInt8) -> UInt128 {
        size >= 16 ? key : key & ((UInt128(1) << (8 * UInt128(size))) - 1)
    }

    public var description: String {
        "LinkEncryptionKey(key redacted, EDIV 0x\(String(ediv, radix: 16)), Rand 0x\(String(rand, radix: 16)), \(keySize) octets)"
    }
}
