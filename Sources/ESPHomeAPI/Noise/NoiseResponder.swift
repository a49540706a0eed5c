/// The responder's side of Noise_NNpsk0_25519_ChaChaPoly_SHA256, the only handshake ESPHome's
/// API has: `-> psk, e` then `<- e, ee`, both with empty payloads. The symmetric state is kept
/// here as the Noise specification names it (§5.2), since the two messages are all there is.
struct NoiseResponder {
    private static let protocolName = Array("Noise_NNpsk0_25519_ChaChaPoly_SHA256".utf8)

    private var chainingKey: [UInt8]
    private var handshakeHash: [UInt8]
    private var key: [UInt8]?
    private var counter: UInt64 = 0
    private var initiatorEphemeral: [UInt8]?
    private let ephemeralPrivateKey: [UInt8]

    /// `prologue` is what both sides bind the handshake to; `ephemeralPrivateKey` is 32 random
    /// bytes (a test passes fixed ones).
    init(presharedKey: [UInt8], prologue: [UInt8], ephemeralPrivateKey: [UInt8]) {
        // The name is longer than a hash, so h starts as its hash (§5.2 InitializeSymmetric).
        handshakeHash = NoisePrimitives.sha256(Self.protocolName)
        chainingKey = handshakeHash
        self.ephemeralPrivateKey = ephemeralPrivateKey
        mixHash(prologue)
        mixKeyAndHash(presharedKey)
    }

    /// The initiator's `psk, e` message (its ephemeral key and the tag of its empty payload).
    mutating func readInitiatorMessage(_ message: [UInt8]) throws(NoiseError) {
        guard message.count == NoisePrimitives.keyLength + NoisePrimitives.tagLength else {
            throw .malformedHandshake(length: message.count)
        }
        let ephemeral = Array(message[0..<NoisePrimitives.keyLength])
        mixHash(ephemeral)
        mixKey(ephemeral)
        _ = try decryptAndHash(Array(message[NoisePrimitives.keyLength...]))
        initiatorEphemeral = ephemeral
    }

    /// The `e, ee` reply, and the two transport ciphers: what the responder receives with
    /// (the initiator's sending key) and what it sends with.
    mutating func writeResponderMessage() throws(NoiseError) -> (message: [UInt8], receive: NoiseCipherState, send: NoiseCipherState) {
        guard let initiatorEphemeral else { throw .malformedHandshake(length: 0) }
        let ephemeralPublicKey = NoisePrimitives.x25519PublicKey(privateKey: ephemeralPrivateKey)
        mixHash(ephemeralPublicKey)
        mixKey(ephemeralPublicKey)
        mixKey(NoisePrimitives.x25519(privateKey: ephemeralPrivateKey, peerPublicKey: initiatorEphemeral))
        let tag = try encryptAndHash([])
        let keys = NoisePrimitives.hkdf(chainingKey: chainingKey, inputKeyMaterial: [], outputs: 2)
        return (ephemeralPublicKey + tag, NoiseCipherState(key: keys[0]), NoiseCipherState(key: keys[1]))
    }

    private mutating func mixHash(_ data: [UInt8]) {
        handshakeHash = NoisePrimitives.sha256(handshakeHash + data)
    }

    private mutating func mixKey(_ inputKeyMaterial: [UInt8]) {
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

    private mutating func encryptAndHash(_ plaintext: [UInt8]) throws(NoiseError) -> [UInt8] {
        guard let key else { throw .malformedHandshake(length: 0) }
        let ciphertext = NoisePrimitives.seal(key: key, counter: counter, associatedData: handshakeHash, plaintext: plaintext)
        counter += 1
        mixHash(ciphertext)
        return ciphertext
    }

    private mutating func decryptAndHash(_ ciphertext: [UInt8]) throws(NoiseError) -> [UInt8] {
        guard let key else { throw .malformedHandshake(length: 0) }
        guard let plaintext = NoisePrimitives.open(key: key, counter: counter, associatedData: handshakeHash, ciphertext: ciphertext) else {
            throw .authenticationFailed
        }
        counter += 1
        mixHash(ciphertext)
        return plaintext
    }
}
