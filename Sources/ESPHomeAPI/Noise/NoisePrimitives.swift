import CNettle

/// The four primitives of Noise_NNpsk0_25519_ChaChaPoly_SHA256, each one call into Nettle:
/// none of the arithmetic is done here.
enum NoisePrimitives {
    static let keyLength = 32
    static let tagLength = 16

    static func x25519PublicKey(privateKey: [UInt8]) -> [UInt8] {
        var publicKey = [UInt8](repeating: 0, count: keyLength)
        rtstack_x25519_public_key(privateKey, &publicKey)
        return publicKey
    }

    static func x25519(privateKey: [UInt8], peerPublicKey: [UInt8]) -> [UInt8] {
        var secret = [UInt8](repeating: 0, count: keyLength)
        rtstack_x25519(privateKey, peerPublicKey, &secret)
        return secret
    }

    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        rtstack_sha256(bytes, bytes.count, &digest)
        return digest
    }

    static func hmacSHA256(key: [UInt8], _ first: [UInt8], _ second: [UInt8] = []) -> [UInt8] {
        var mac = [UInt8](repeating: 0, count: 32)
        rtstack_hmac_sha256(key, key.count, first, first.count, second, second.count, &mac)
        return mac
    }

    /// Noise's HKDF (§4.3 of the Noise specification): two or three 32-byte outputs.
    static func hkdf(chainingKey: [UInt8], inputKeyMaterial: [UInt8], outputs: Int) -> [[UInt8]] {
        let temporaryKey = hmacSHA256(key: chainingKey, inputKeyMaterial)
        var results: [[UInt8]] = []
        var previous: [UInt8] = []
        for counter in 1...outputs {
            previous = hmacSHA256(key: temporaryKey, previous, [UInt8(counter)])
            results.append(previous)
        }
        return results
    }

    /// Noise's ChaChaPoly nonce: 32 zero bits, then the 64-bit counter little-endian.
    static func nonce(_ counter: UInt64) -> [UInt8] {
        var nonce = [UInt8](repeating: 0, count: 12)
        for index in 0..<8 { nonce[4 + index] = UInt8(truncatingIfNeeded: counter >> (8 * UInt64(index))) }
        return nonce
    }

    static func seal(key: [UInt8], counter: UInt64, associatedData: [UInt8], plaintext: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: plaintext.count + tagLength)
        rtstack_chacha_poly1305_seal(key, nonce(counter), associatedData.count, associatedData,
                                     plaintext.count, plaintext, &output)
        return output
    }

    /// nil when the tag does not authenticate the ciphertext (a wrong key, or altered bytes).
    static func open(key: [UInt8], counter: UInt64, associatedData: [UInt8], ciphertext: [UInt8]) -> [UInt8]? {
        guard ciphertext.count >= tagLength else { return nil }
        var output = [UInt8](repeating: 0, count: ciphertext.count - tagLength)
        let authentic = rtstack_chacha_poly1305_open(key, nonce(counter), associatedData.count, associatedData,
                                                     ciphertext.count - tagLength, ciphertext, &output)
        return authentic == 1 ? output : nil
    }

    static func randomBytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let error = rtstack_random_bytes(&bytes, count)
        precondition(error == 0, "the kernel's random number generator failed (errno \(error))")
        return bytes
    }
}
