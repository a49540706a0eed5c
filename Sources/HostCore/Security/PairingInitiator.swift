import Wire

/// LE pairing as the central (initiator) on one link, sans-I/O: Core Spec v5.4 Vol 3, Part H,
/// §2.3 (phases 1–3) with LE Secure Connections and legacy pairing, Just Works, Passkey Entry
/// and Numeric Comparison; key distribution both ways; the 30 s SMP timer (§3.4).
///
/// Inputs carry their time: SMP PDUs (`receive`), "encryption changed" from the controller,
/// the user's answers, and `advanceTime`. Outputs are pulled: PDUs to send (`pollTransmit`),
/// events (`pollEvent`: start encryption, show / ask a number, paired, failed) and
/// `nextDeadline`. Crypto comes through `SecurityCryptography`, so the state machine has no C
/// dependency and tests can script its random numbers.
///
/// The host drives it (Docs/security.md): it feeds it CID 0x0006 frames, sends what
/// `pollTransmit` gives on CID 0x0006, answers `startEncryption` with HCI LE Enable
/// Encryption and reports the Encryption Change / Key Refresh Complete that follows (with
/// the key size from HCI Read Encryption Key Size).
public struct PairingInitiator: Sendable {
    public let configuration: PairingConfiguration
    /// rtstack's address on this link (ia / A).
    public let localAddress: DeviceAddress
    /// The peer's address on this link (ra / B).
    public let peerAddress: DeviceAddress
    var crypto: any SecurityCryptography
    var state: PairingState = .idle
    private var transmitQueue = PullQueue<SMPPDU>(capacity: 4)
    private var eventQueue = PullQueue<PairingEvent>(capacity: 4)
    /// The SMP timer (§3.4): reset whenever a PDU is queued; nil when no pairing runs.
    public private(set) var nextDeadline: HostTime?

    public init(configuration: PairingConfiguration, localAddress: DeviceAddress, peerAddress: DeviceAddress,
                crypto: any SecurityCryptography) {
        self.configuration = configuration
        self.localAddress = localAddress
        self.peerAddress = peerAddress
        self.crypto = crypto
    }

    // MARK: State seen from outside

    /// The state's name, for logs and tests.
    public var stateName: String { state.name }
    public var isInProgress: Bool { state.isInProgress }
    public var result: PairingResult? {
        if case let .paired(result) = state { return result }
        return nil
    }
    public var error: PairingError? {
        if case let .failed(error) = state { return error }
        return nil
    }

    // MARK: Outputs

    /// The next SMP PDU to send on CID 0x0006, in order.
    public mutating func pollTransmit() -> SMPPDU? { transmitQueue.pop() }

    public mutating func pollEvent() -> PairingEvent? { eventQueue.pop() }

    // MARK: Inputs

    /// Starts pairing: sends the Pairing Request. Ignored while a pairing runs or after the
    /// SMP timer expired on this link (§3.4 allows no more pairing then); after a completed or
    /// failed pairing it starts anew. `throttledUntil` is `PairingThrottle`'s verdict for this
    /// peer: before that time the attempt fails at once with `.repeatedAttempts`.
    public mutating func start(at now: HostTime, throttledUntil: HostTime? = nil) {
        switch state {
        case .idle, .paired: break
        case let .failed(error) where error != .timeout: break
        default: return
        }
        if let until = throttledUntil, now < until {
            state = .failed(.repeatedAttempts(retryAt: until))
            eventQueue.append(.failed(.repeatedAttempts(retryAt: until)))
            return
        }
        let request = configuration.pairingRequest
        let pdu = SMPPDU.pairingRequest(request)
        state = .awaitingResponse(request: request, preq: pdu.encoded)
        send(pdu, at: now)
    }

    /// A PDU received on the Security Manager channel (CID 0x0006).
    public mutating func receive(_ bytes: ArraySlice<UInt8>, at now: HostTime) {
        if case .failed(.timeout) = state { return }
        let pdu: SMPPDU
        do {
            pdu = try SMPPDU.decode(bytes)
        } catch {
            // §3.5.5: a wrong length is Invalid Parameters; outside a pairing it is dropped.
            if state.isInProgress { fail(.invalidParameters("\(error)"), at: now) }
            return
        }
        receive(pdu, at: now)
    }

    public mutating func receive(_ pdu: SMPPDU, at now: HostTime) {
        if case .failed(.timeout) = state { return }
        switch pdu {
        case let .pairingFailed(reason):
            if state.isInProgress { finish(.peerFailed(reason)) }
            return
        case let .pairingKeypressNotification(type):
            if state.isInProgress { eventQueue.append(.peerKeypress(type)) }
            return
        case let .securityRequest(authReq):
            // Ignored while pairing (§2.4.6); otherwise the host decides.
            if !state.isInProgress { eventQueue.append(.securityRequested(authReq)) }
            return
        case .pairingRequest, .unknown:
            // A central is never paired with by its peripheral; unknown codes are refused (§3.3).
            sendWithoutState(.pairingFailed(reason: .commandNotSupported), at: now)
            return
        default:
            break
        }
        switch state {
        case let .awaitingResponse(request, preq):
            guard case let .pairingResponse(response) = pdu else { return unexpected(pdu, at: now) }
            negotiate(request: request, preq: preq, response: response, pres: pdu.encoded, at: now)
        case let .legacyAwaitingConfirm(negotiation, exchange):
            guard case let .pairingConfirm(sconfirm) = pdu else { return unexpected(pdu, at: now) }
            state = .legacyAwaitingRandom(negotiation, exchange, sconfirm: sconfirm)
            send(.pairingRandom(randomValue: exchange.mrand), at: now)
        case let .legacyAwaitingRandom(negotiation, exchange, sconfirm):
            guard case let .pairingRandom(srand) = pdu else { return unexpected(pdu, at: now) }
            legacyRandomReceived(negotiation, exchange, sconfirm: sconfirm, srand: srand, at: now)
        case let .scAwaitingPublicKey(negotiation, local):
            guard case let .pairingPublicKey(peer) = pdu else { return unexpected(pdu, at: now) }
            publicKeyReceived(negotiation, local: local, peer: peer, at: now)
        case let .scAwaitingConfirm(negotiation, keys, round):
            guard case let .pairingConfirm(peerConfirm) = pdu else { return unexpected(pdu, at: now) }
            state = .scAwaitingRandom(negotiation, keys, round, peerConfirm: peerConfirm)
            send(.pairingRandom(randomValue: round.na), at: now)
        case let .scAwaitingRandom(negotiation, keys, round, peerConfirm):
            guard case let .pairingRandom(nb) = pdu else { return unexpected(pdu, at: now) }
            scRandomReceived(negotiation, keys, round, peerConfirm: peerConfirm, nb: nb, at: now)
        case let .scAwaitingDHKeyCheck(negotiation, ltk, expected):
            guard case let .pairingDHKeyCheck(eb) = pdu else { return unexpected(pdu, at: now) }
            dhKeyCheckReceived(negotiation, ltk: ltk, expected: expected, eb: eb, at: now)
        case let .distributingKeys(negotiation, received):
            keyReceived(pdu, negotiation, received, at: now)
        case .idle, .paired, .failed:
            // Nothing runs: a stray PDU gets no answer beyond being dropped (§3.4: a failed
            // procedure sends no more SMP PDUs).
            break
        case .legacyAwaitingPasskey, .scAwaitingPasskey, .scAwaitingNumberConfirmation, .awaitingEncryption:
            unexpected(pdu, at: now)
        }
    }

    /// The SMP timer: past `nextDeadline` the pairing fails with `.timeout` and this link
    /// takes no more SMP (§3.4: pairing again needs a new connection).
    public mutating func advanceTime(to now: HostTime) {
        guard let deadline = nextDeadline, now >= deadline, state.isInProgress else { return }
        finish(.timeout)
    }

    /// The link went down: a running pairing fails with `.disconnected`.
    public mutating func linkDown() {
        if state.isInProgress { finish(.disconnected) }
    }

    // MARK: Internals shared by the phases

    /// Queues `pdu` and restarts the SMP timer.
    mutating func send(_ pdu: SMPPDU, at now: HostTime) {
        transmitQueue.append(pdu)
        nextDeadline = now &+ configuration.timeout
    }

    /// Queues a PDU that answers a stray command without touching the pairing.
    private mutating func sendWithoutState(_ pdu: SMPPDU, at now: HostTime) {
        transmitQueue.append(pdu)
    }

    mutating func emit(_ event: PairingEvent) {
        eventQueue.append(event)
    }

    /// Fails the pairing: sends Pairing Failed with the error's reason, reports it.
    mutating func fail(_ error: PairingError, at now: HostTime) {
        if let reason = error.sentReason { transmitQueue.append(.pairingFailed(reason: reason)) }
        finish(error)
    }

    /// Ends the pairing with `error` without sending anything more.
    mutating func finish(_ error: PairingError) {
        state = .failed(error)
        nextDeadline = nil
        eventQueue.append(.failed(error))
    }

    mutating func unexpected(_ pdu: SMPPDU, at now: HostTime) {
        fail(.unexpectedPDU(pdu.code), at: now)
    }

    mutating func complete(_ result: PairingResult) {
        state = .paired(result)
        nextDeadline = nil
        eventQueue.append(.paired(result))
    }
}
