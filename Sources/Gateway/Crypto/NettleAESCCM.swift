import CNettle
import Sensors

/// AES-128-CCM from Nettle, the project's crypto library (Docs/security.md), linked from its
/// static archive like the Security Manager's: BTHome's encrypted advertisements use a
/// 13-octet nonce, a 4-octet tag and no associated data.
public struct NettleAESCCM: BTHomeCipher, Sendable {
    public init() {}

    /// The plaintext when `tag` authenticates `ciphertext` under `key` (16 octets) and `nonce`
    /// (7–13 octets); nil otherwise.
    public func decrypt(key: [UInt8], nonce: [UInt8], ciphertext: ArraySlice<UInt8>, tag: ArraySlice<UInt8>) -> [UInt8]? {
        guard key.count == 16, (7...13).contains(nonce.count), [4, 6, 8, 10, 12, 14, 16].contains(tag.count) else { return nil }
        let input = Array(ciphertext) + Array(tag)
        var out = [UInt8](repeating: 0, count: max(1, ciphertext.count))
        let ok = rtstack_aes128_ccm_decrypt(key, nonce.count, nonce, tag.count, ciphertext.count, input, &out)
        return ok == 1 ? Array(out.prefix(ciphertext.count)) : nil
    }

    /// Ciphertext and tag, for tests and simulated BTHome devices.
    public func encrypt(key: [UInt8], nonce: [UInt8], plaintext: [UInt8], tagLength: Int = 4) -> (ciphertext: [UInt8], tag: [UInt8])? {
        guard key.count == 16, (7...13).contains(nonce.count), [4, 6, 8, 10, 12, 14, 16].contains(tagLength) else { return nil }
        var out = [UInt8](repeating: 0, count: plaintext.count + tagLength)
        rtstack_aes128_ccm_encrypt(key, nonce.count, nonce, tagLength, plaintext.count, plaintext, &out)
        return (Array(out.prefix(plaintext.count)), Array(out.suffix(tagLength)))
    }
}
