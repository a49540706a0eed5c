/// The responder's side of Noise_NNpsk0_25519_ChaChaPoly_SHA256, the only handshake ESPHome's
/// API has: `-> psk, e` then `<- e, ee`, both with empty payloads.
struct NoiseResponder {
    private var state: NoiseSymmetricState
    private var initiatorEphemeral: [UInt8]?
    private let ephemeralPrivateKey: [UInt8]

    /// `prologue` is what both sides bind the handshake to; `ephemeralPrivateKey` is 32 random
    /// bytes (a test passes fixed ones).
    init(presharedKey: [UInt8], prologue: [UInt8], ephemeralPrivateKey: [UInt8]) {
        state = NoiseSymmetricState(prologue: prologue, presharedKey: presharedKey)
        self.ephemeralPrivateKey = ephemeralPrivateKey
    }

    /// The initiator's `psk, e` message (its ephemeral key and the tag of its empty payload).
    mutating func readInitiatorMessage(_ message: [UInt8]) throws(NoiseError) {
        guard message.count == NoisePrimitives.keyLength + NoisePrimitives.tagLength else {
            throw .malformedHandshake(length: message.count)
        }
        let ephemeral = Array(message[0..<NoisePrimitives.keyLength])
        state.mixHash(ephemeral)
        state.mixKey(ephemeral)
        _ = try state.decryptAndHash(Array(message[NoisePrimitives.keyLength...]))
        initiatorEphemeral = ephemeral
    }

    /// The `e, ee` reply, and the two transport ciphers: what the responder receives with
    /// (the initiator's sending key) and what it sends with.
    mutating func writeResponderMessage() throws(NoiseError) -> (message: [UInt8], receive: NoiseCipherState, send: NoiseCipherState) {
        guard let initiatorEphemeral else { throw .malformedHandshake(length: 0) }
        let ephemeralPublicKey = NoisePrimitives.x25519PublicKey(privateKey: ephemeralPrivateKey)
        state.mixHash(ephemeralPublicKey)
        state.mixKey(ephemeralPublicKey)
        state.mixKey(NoisePrimitives.x25519(privateKey: ephemeralPrivateKey, peerPublicKey: initiatorEphemeral))
        let tag = try state.encryptAndHash([])
        let ciphers = state.split()
        return (ephemeralPublicKey + tag, ciphers.initiatorToResponder, ciphers.responderToInitiator)
    }
}
