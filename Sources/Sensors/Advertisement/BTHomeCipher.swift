/// AES-CCM decryption with a 4-octet tag, as BTHome's encrypted advertisements need. Sensors
/// decodes bytes only; the cipher comes from a crypto library one layer up (the gateway's
/// `NettleAESCCM`), so this protocol is the seam.
public protocol BTHomeCipher: Sendable {
    /// The plaintext of `ciphertext` under `key` and `nonce` (13 octets) if `tag` authenticates
    /// it; nil otherwise.
    func decrypt(key: [UInt8], nonce: [UInt8], ciphertext: ArraySlice<UInt8>, tag: ArraySlice<UInt8>) -> [UInt8]?
}
