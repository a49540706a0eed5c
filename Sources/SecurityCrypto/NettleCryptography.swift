import CNettle
import HostCore
import Wire

/// `SecurityCryptography` from Nettle (AES-128, AES-CMAC, P-256 over GMP) and the kernel's
/// CSPRNG, getrandom(2).
///
/// Why getrandom and not a user-space generator: the kernel's generator is seeded by the time
/// the system is up, keeps no state in this process that a fork or a core dump could copy,
/// and costs no code. Nettle's Yarrow would have to be seeded from it anyway.
public struct NettleCryptography: SecurityCryptography {
    public init() {}

    public func encrypt(key: UInt128, block: UInt128) -> UInt128 {
        let k = Self.bytes(key), b = Self.bytes(block)
        var out = [UInt8](repeating: 0, count: 16)
        rtstack_aes128_encrypt(k, b, &out)
        return Self.value(out)
    }

    public func cmac(key: UInt128, message: [UInt8]) -> UInt128 {
        let k = Self.bytes(key)
        var out = [UInt8](repeating: 0, count: 16)
        rtstack_aes_cmac(k, message, message.count, &out)
        return Self.value(out)
    }

    public func publicKey(of privateKey: P256PrivateKey) -> SMPPublicKey? {
        var xy = [UInt8](repeating: 0, count: 64)
        guard rtstack_p256_public_key(privateKey.bytes, &xy) == 1 else { return nil }
        return SMPPublicKey(x: Array(xy[..<32]), y: Array(xy[32...]))
    }

    public func isValidPublicKey(_ key: SMPPublicKey) -> Bool {
        rtstack_p256_is_valid_public_key(key.x + key.y) == 1
    }

    public func dhKey(privateKey: P256PrivateKey, peer: SMPPublicKey) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: 32)
        guard rtstack_p256_dhkey(privateKey.bytes, peer.x + peer.y, &out) == 1 else { return nil }
        return out
    }

    /// Traps only if the kernel refuses getrandom(2) itself (ENOSYS on a kernel older than
    /// 3.17): without a random source there is no safe way to pair at all.
    public mutating func randomBytes(_ count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        let status = rtstack_random_bytes(&out, count)
        precondition(status == 0, "getrandom(2) failed with errno \(status): no secure random source")
        return out
    }
}
