/// One client of the proxy's native API, without I/O: the owner hands it the bytes read from
/// the client's socket, writes what `takeOutput()` returns, and closes the socket once
/// `closeReason` is set and the output is written. The hello, keepalive, device info, entity
/// list and disconnect are answered here; what concerns Bluetooth comes back from `receive` for
/// the proxy to act on, and the proxy's answers go in through `send`.
public struct APIServerConnection {
    /// The API version this proxy speaks: 1.9 and later read the proxy's features from their
    /// own field, 1.12 and later take short UUIDs in service lists.
    public static let apiVersion: (major: UInt32, minor: UInt32) = (1, 12)

    private enum Phase {
        case awaitingNoiseHello
        case awaitingNoiseHandshake(NoiseResponder)
        case awaitingHello
        case ready
        case closed
    }

    /// The two directions of an established Noise session.
    private struct NoiseSession {
        var receive: NoiseCipherState
        var send: NoiseCipherState
    }

    public let identity: ProxyIdentity
    private let key: NoisePresharedKey?
    private var ephemeralPrivateKey: [UInt8]?
    private var phase: Phase
    // Each framing's decoder is a stored property of its own, mutated in place: kept inside an
    // enum payload it would be copied out, and its buffer with it, on every read.
    private var plaintextFrames = PlaintextFraming()
    private var noiseFrames = NoiseFraming()
    /// nil until the handshake is done (and always, without a key).
    private var session: NoiseSession?
    private var output: [UInt8] = []

    /// What the client said it is (Home Assistant: "Home Assistant 2026.11.0").
    public private(set) var clientInfo = ""
    public private(set) var clientAPIVersion: (major: UInt32, minor: UInt32) = (0, 0)
    /// Why the connection ends, once it does: the log line. Nothing is read after it is set.
    public private(set) var closeReason: String?
    /// The client ended the connection with ESPHome's DisconnectRequest: the close is routine,
    /// not a fault worth a warning.
    public private(set) var endedByClient = false

    /// `key`: only Noise clients holding it are accepted; nil: plaintext only, as ESPHome.
    /// `ephemeralPrivateKey`: for tests; a new connection otherwise draws 32 random bytes.
    public init(identity: ProxyIdentity, key: NoisePresharedKey?, ephemeralPrivateKey: [UInt8]? = nil) {
        self.identity = identity
        self.key = key
        self.ephemeralPrivateKey = ephemeralPrivateKey
        phase = key == nil ? .awaitingHello : .awaitingNoiseHello
    }

    /// The client finished its hello: the proxy may send it unsolicited messages.
    public var isReady: Bool {
        if case .ready = phase { return true }
        return false
    }

    /// Whether service lists may use short UUIDs (the client speaks API 1.12 or later).
    public var acceptsShortUUIDs: Bool {
        clientAPIVersion.major > 1 || (clientAPIVersion.major == 1 && clientAPIVersion.minor >= 12)
    }

    /// Bytes from the client's socket; returns the Bluetooth requests among the messages they
    /// complete, in order.
    public mutating func receive<Bytes: Sequence>(_ bytes: Bytes) -> [ClientMessage] where Bytes.Element == UInt8 {
        guard closeReason == nil else { return [] }
        var requests: [ClientMessage] = []
        if key == nil { plaintextFrames.append(bytes) } else { noiseFrames.append(bytes) }
        while closeReason == nil {
            do {
                guard let frame = try nextFrame() else { break }
                if let request = try handle(frame) { requests.append(request) }
            } catch let error as APIFramingError {
                failFraming(error)
            } catch let error as NoiseError where session != nil {
                // Past the handshake the key is known good: a tag that fails is a message altered
                // on the way (or sent by someone other than the session's client).
                close(because: error == .authenticationFailed
                      ? "an encrypted message does not authenticate: it was altered on the way, or the session is not the sender's"
                      : error.description)
            } catch let error as NoiseError {
                reject(error)
            } catch let error as ClientMessage.DecodeError {
                close(because: error.description)
            } catch {
                close(because: "\(error)")
            }
        }
        return requests
    }

    /// A message for the client (ignored once the connection is closing or before its hello).
    public mutating func send(_ message: ServerMessage) {
        guard closeReason == nil, isReady else { return }
        write(message.frame)
    }

    /// What to write to the client's socket now.
    public mutating func takeOutput() -> [UInt8] {
        defer { output.removeAll(keepingCapacity: true) }
        return output
    }

    /// Ends the connection from the proxy's side (ESPHome's DisconnectRequest), e.g. at shutdown.
    public mutating func disconnect(because reason: String) {
        if isReady { write(ServerMessage.disconnect.frame) }
        close(because: reason)
    }

    // MARK: - Frames

    private mutating func nextFrame() throws -> APIFrame? {
        guard key != nil else { return try plaintextFrames.next() }
        let limit = session == nil ? NoiseFraming.maximumHandshakeLength : NoiseFraming.maximumDataLength
        guard let contents = try noiseFrames.next(limit: limit) else { return nil }
        guard var current = session else {
            try handshake(contents)
            return try nextFrame()
        }
        let message = try current.receive.decrypt(contents)
        session = current
        guard message.count >= 4 else { throw APIFramingError.malformedNoiseMessage(length: message.count) }
        let type = UInt16(message[0]) << 8 | UInt16(message[1])
        let length = Int(message[2]) << 8 | Int(message[3])
        guard length <= message.count - 4 else { throw APIFramingError.malformedNoiseMessage(length: message.count) }
        return APIFrame(type: type, payload: Array(message[4..<(4 + length)]))
    }

    private mutating func write(_ frame: APIFrame) {
        guard key != nil else { return PlaintextFraming.encode(frame, into: &output) }
        guard var current = session else { return }
        var message: [UInt8] = [UInt8(frame.type >> 8), UInt8(frame.type & 0xFF),
                                UInt8(truncatingIfNeeded: frame.payload.count >> 8), UInt8(truncatingIfNeeded: frame.payload.count)]
        message.append(contentsOf: frame.payload)
        do {
            NoiseFraming.encode(try current.send.encrypt(message), into: &output)
            session = current
        } catch {
            close(because: error.description)
        }
    }

    // MARK: - Noise handshake

    /// The client's hello frame (empty today; its bytes are bound into the prologue, as ESPHome
    /// does), then its handshake message.
    private mutating func handshake(_ contents: [UInt8]) throws {
        switch phase {
        case .awaitingNoiseHello:
            guard let key else { return }
            let prologue = Array("NoiseAPIInit".utf8) + [UInt8(truncatingIfNeeded: contents.count >> 8), UInt8(truncatingIfNeeded: contents.count)] + contents
            let responder = NoiseResponder(presharedKey: key.bytes, prologue: prologue,
                                           ephemeralPrivateKey: ephemeralPrivateKey ?? NoisePrimitives.randomBytes(32))
            ephemeralPrivateKey = nil
            // The server hello: the chosen protocol (1, the only one), the node name and the MAC,
            // each name NUL-terminated.
            var hello: [UInt8] = [0x01]
            hello += Array(identity.name.utf8) + [0]
            hello += Array(identity.compactMACAddress.utf8) + [0]
            NoiseFraming.encode(hello, into: &output)
            phase = .awaitingNoiseHandshake(responder)
        case var .awaitingNoiseHandshake(responder):
            guard let first = contents.first, first == 0x00 else {
                throw NoiseError.malformedHandshake(length: contents.count)
            }
            try responder.readInitiatorMessage(Array(contents.dropFirst()))
            let (message, receive, send) = try responder.writeResponderMessage()
            NoiseFraming.encode([0x00] + message, into: &output)
            session = NoiseSession(receive: receive, send: send)
            phase = .awaitingHello
        case .awaitingHello, .ready, .closed:
            return
        }
    }

    /// A handshake the client cannot finish: say why in the frame ESPHome uses (1, then the
    /// reason), so aioesphomeapi reports "Invalid encryption key" for a wrong key.
    private mutating func reject(_ error: NoiseError) {
        if case .awaitingNoiseHandshake = phase {
            NoiseFraming.encode([0x01] + Array(error.rejectReason.utf8), into: &output)
        }
        close(because: error.description)
    }

    private mutating func failFraming(_ error: APIFramingError) {
        switch error {
        case .badIndicator where key == nil:
            // ESPHome's answer to a Noise client on a plaintext port: 0x00 then text, at least
            // three bytes, which the client reads as "the device uses plaintext".
            output += [0x00] + Array("Bad indicator byte".utf8)
        case .badIndicator, .frameTooLarge:
            // During the handshake ESPHome rejects with a reason the client can show.
            guard key != nil, session == nil else { break }
            let reason = if case .badIndicator = error { "Bad indicator byte" } else { "Bad handshake packet len" }
            NoiseFraming.encode([0x01] + Array(reason.utf8), into: &output)
        case .malformedHeader, .malformedNoiseMessage:
            break
        }
        close(because: error.description)
    }

    // MARK: - Messages

    private mutating func handle(_ frame: APIFrame) throws(ClientMessage.DecodeError) -> ClientMessage? {
        let message = try ClientMessage(frame)
        switch (phase, message) {
        case let (.awaitingHello, .hello(clientInfo, major, minor)):
            self.clientInfo = clientInfo
            clientAPIVersion = (major, minor)
            phase = .ready
            write(ServerMessage.hello(apiVersionMajor: Self.apiVersion.major, apiVersionMinor: Self.apiVersion.minor,
                                      serverInfo: identity.serverInfo, name: identity.name).frame)
            return nil
        case (.awaitingHello, .ping):
            write(ServerMessage.pingResponse.frame)
            return nil
        case (.awaitingHello, .disconnect):
            write(ServerMessage.disconnectResponse.frame)
            endedByClient = true
            close(because: "the client disconnected before its hello")
            return nil
        case (.awaitingHello, _):
            close(because: "the client sent \(frame.type) before its hello")
            return nil
        case (.ready, .hello):
            close(because: "the client sent a second hello")
            return nil
        case (.ready, .authentication):
            // This proxy has no password: like ESPHome since passwords were removed, it
            // answers nothing (aioesphomeapi does not wait for an answer).
            return nil
        case (.ready, .ping):
            write(ServerMessage.pingResponse.frame)
            return nil
        case (.ready, .pingResponse), (.ready, .getTimeResponse), (.ready, .subscriptionWithNothingToSend), (.ready, .disconnectResponse):
            return nil
        case (.ready, .disconnect):
            write(ServerMessage.disconnectResponse.frame)
            endedByClient = true
            close(because: "the client disconnected")
            return nil
        case (.ready, .deviceInfo):
            write(ServerMessage.deviceInfo(identity).frame)
            return nil
        case (.ready, .deviceCapabilities):
            write(ServerMessage.deviceCapabilities(identity).frame)
            return nil
        case (.ready, .listEntities):
            write(ServerMessage.listEntitiesDone.frame)
            return nil
        case (.ready, _):
            return message
        case (.awaitingNoiseHello, _), (.awaitingNoiseHandshake, _), (.closed, _):
            return nil
        }
    }

    private mutating func close(because reason: String) {
        guard closeReason == nil else { return }
        closeReason = reason
        phase = .closed
    }
}
