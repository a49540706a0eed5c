/// Noise's symmetric state (§5.2) for Noise_NNpsk0_25519_ChaChaPoly_SHA256: the chaining key,
/// the handshake hash and the handshake's cipher key, which both sides of the handshake advance
/// the same way. Kept under the specification's names.
struct NoiseSymmetricState {
    private static let protocolName = Array("Noise_NNpsk0_25519_ChaChaPoly_SHA256".utf8)

    private var chainingKey: [UInt8]
    private var handshakeHash: [UInt8]
    private var key: [UInt8]?
    private var counter: UInt64 = 0

    /// InitializeSymmetric, then the prologue and the pre-shared key (`psk` comes first in
    /// NNpsk0, before any message token).
    init(prologue: [UInt8], presharedKey: [UInt8]) {
        // The name is longer than a hash, so h starts as its hash (§5.2 InitializeSymmetric).
        handshakeHash = NoisePrimitives.sha256(Self.protocolName)
        chainingKey = handshakeHash
        mixHash(prologue)
        mixKeyAndHash(presharedKey)
    }

    mutating func mixHash(_ data: [UInt8]) {
        handshakeHash = NoisePrimitives.sha256(handshakeHash + data)
    }

    mutating func mixKey(_ inputKeyMaterial: [UInt8]) {
        let outputs = NoisePrimitives.hkdf(chainingKey: chainingKey, inputKeyMaterial: inputKeyMaterial, outputs: 2)
        chainingKey = outputs[0]
        key = outputs[1]
        counter = 0
    }

    private mutating func mixKeyAndHash(_ inputKeyMaterial: [UInt8]) {
        let outputs = NoisePrimitives.hkdf(chainingKey: chainingKey, inputKeyMaterial: inputKeyMaterial, outputs: 3)
        chainingKey = outputs[0]
        mixHash(outputs[1])
        key = outputs[2]
        counter = 0
    }

    mutating func encryptAndHash(_ plaintext: [UInt8]) throws(NoiseError) -> [UInt8] {
        guard let key else { throw .malformedHandshake(length: 0) }
        let ciphertext = NoisePrimitives.seal(key: key, counter: counter, associatedData: handshakeHash, plaintext: plaintext)
        counter += 1
        mixHash(ciphertext)
        return ciphertext
    }

    mutating func decryptAndHash(_ ciphertext: [UInt8]) throws(NoiseError) -> [UInt8] {
        guard let key else { throw .malformedHandshake(length: 0) }
        guard let plaintext = NoisePrimitives.open(key: key, counter: counter, associatedData: handshakeHash, ciphertext: ciphertext) else {
            throw .authenticationFailed
        }
        counter += 1
        mixHash(ciphertext)
        return plaintext
    }

    /// Split: the initiator's sending cipher, then the responder's.
    func split() -> (initiatorToResponder: NoiseCipherState, responderToInitiator: NoiseCipherState) {
        let keys = NoisePrimitives.hkdf(chainingKey: chainingKey, inputKeyMaterial: [], outputs: 2)
        return (NoiseCipherState(key: keys[0]), NoiseCipherState(key: keys[1]))
    }
}
