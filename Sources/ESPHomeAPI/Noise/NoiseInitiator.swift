/// The client's side of ESPHome's encrypted API, as aioesphomeapi runs it: an empty hello frame
/// and the `psk, e` message, then the proxy's hello and `e, ee` reply, then ciphertexts both
/// ways. The proxy never initiates; this exists so that tests and the fuzz harness can reach
/// the encrypted session of `APIServerConnection`, which random bytes never authenticate into.
public struct NoiseInitiator {
    public enum Failure: Error, Equatable, Sendable {
        /// The proxy refused the handshake, with its reason ("Handshake MAC failure").
        case rejected(String)
        /// The proxy's bytes are not the frames of ESPHome's encrypted API.
        case malformed
    }

    private enum Phase {
        case awaitingServerHello
        case awaitingHandshake
        case established(send: NoiseCipherState, receive: NoiseCipherState)
    }

    private var state: NoiseSymmetricState
    private let ephemeralPrivateKey: [UInt8]
    private var phase = Phase.awaitingServerHello
    private var frames = NoiseFraming()
    /// The node name from the proxy's hello.
    public private(set) var serverName: String?

    public init(key: NoisePresharedKey, ephemeralPrivateKey: [UInt8]) {
        // The client's hello frame is empty, so the prologue ends with its length, zero.
        state = NoiseSymmetricState(prologue: Array("NoiseAPIInit".utf8) + [0, 0], presharedKey: key.bytes)
        self.ephemeralPrivateKey = ephemeralPrivateKey
    }

    public var isEstablished: Bool {
        if case .established = phase { return true }
        return false
    }

    /// What the client sends first: its hello frame and its handshake frame.
    public mutating func start() throws(NoiseError) -> [UInt8] {
        let ephemeral = NoisePrimitives.x25519PublicKey(privateKey: ephemeralPrivateKey)
        state.mixHash(ephemeral)
        state.mixKey(ephemeral)
        let tag = try state.encryptAndHash([])
        var bytes: [UInt8] = []
        NoiseFraming.encode([], into: &bytes)
        NoiseFraming.encode([0x00] + ephemeral + tag, into: &bytes)
        return bytes
    }

    /// The proxy's bytes: the messages they complete once the session is established (the
    /// handshake's frames complete none).
    public mutating func receive(_ bytes: [UInt8]) throws -> [APIFrame] {
        frames.append(bytes)
        var messages: [APIFrame] = []
        while let contents = try frames.next(limit: NoiseFraming.maximumDataLength) {
            switch phase {
            case .awaitingServerHello:
                guard contents.first == 0x01 else { throw Failure.rejected(String(decoding: contents.dropFirst(), as: UTF8.self)) }
                serverName = String(decoding: contents.dropFirst().prefix { $0 != 0 }, as: UTF8.self)
                phase = .awaitingHandshake
            case .awaitingHandshake:
                guard let first = contents.first else { throw Failure.malformed }
                guard first == 0x00 else { throw Failure.rejected(String(decoding: contents.dropFirst(), as: UTF8.self)) }
                guard contents.count == 1 + NoisePrimitives.keyLength + NoisePrimitives.tagLength else { throw Failure.malformed }
                let responderEphemeral = Array(contents[1...NoisePrimitives.keyLength])
                state.mixHash(responderEphemeral)
                state.mixKey(responderEphemeral)
                state.mixKey(NoisePrimitives.x25519(privateKey: ephemeralPrivateKey, peerPublicKey: responderEphemeral))
                _ = try state.decryptAndHash(Array(contents[(1 + NoisePrimitives.keyLength)...]))
                let ciphers = state.split()
                phase = .established(send: ciphers.initiatorToResponder, receive: ciphers.responderToInitiator)
            case .established(let send, var receive):
                let message = try receive.decrypt(contents)
                phase = .established(send: send, receive: receive)
                guard message.count >= 4 else { throw Failure.malformed }
                let length = Int(message[2]) << 8 | Int(message[3])
                guard length == message.count - 4 else { throw Failure.malformed }
                messages.append(APIFrame(type: UInt16(message[0]) << 8 | UInt16(message[1]), payload: Array(message[4...])))
            }
        }
        return messages
    }

    /// One message encrypted and framed.
    public mutating func frame(_ frame: APIFrame) throws -> [UInt8] {
        let header: [UInt8] = [UInt8(frame.type >> 8), UInt8(frame.type & 0xFF),
                               UInt8(truncatingIfNeeded: frame.payload.count >> 8), UInt8(truncatingIfNeeded: frame.payload.count)]
        return try encryptedFrame(header + frame.payload)
    }

    /// Any plaintext, its type-and-length header included (or not, or wrong), encrypted and
    /// framed: what a client holding the key could send.
    public mutating func encryptedFrame(_ message: [UInt8]) throws -> [UInt8] {
        guard case .established(var send, let receive) = phase else { throw Failure.malformed }
        let ciphertext = try send.encrypt(message)
        guard ciphertext.count <= 0xFFFF else { throw Failure.malformed }
        phase = .established(send: send, receive: receive)
        var bytes: [UInt8] = []
        NoiseFraming.encode(ciphertext, into: &bytes)
        return bytes
    }
}
