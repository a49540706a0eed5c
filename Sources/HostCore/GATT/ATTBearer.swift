import Wire

/// The client side of one ATT bearer (Core Spec v5.4 Vol 3, Part F, §3.3): its MTU, the one
/// request in flight and its transaction timer, and the sorting of what the peer sends.
///
/// A value type without outputs: `GATTClient` asks it what an incoming PDU is and acts on the
/// answer, so the rules of the bearer stay in one place and readable.
struct ATTBearer {
    /// ATT_MTU before any exchange on LE (Vol 3, Part F, §3.2.8).
    static let defaultMTU: UInt16 = 23
    /// A transaction not completed in 30 s times out and closes the bearer (§3.3.3).
    static let transactionTimeout: UInt64 = HostDuration.seconds(30)
    /// Handle Value Confirmation (§3.4.7.3), kept as one constant so confirming allocates nothing.
    static let confirmation: [UInt8] = [ATTOpcode.handleValueConfirmation.rawValue]

    private(set) var mtu: UInt16 = defaultMTU
    /// Opcode of the request in flight.
    private(set) var pendingRequest: ATTOpcode?
    private(set) var pendingSince: HostTime = 0
    /// Why the bearer takes no more requests (transaction timeout or link loss).
    private(set) var closedError: HostError?
    /// Requests sent on this bearer, for statistics and tests.
    private(set) var requestsSent = 0
    private(set) var exchangedMTU = false

    var isOpen: Bool { closedError == nil }
    var isIdle: Bool { pendingRequest == nil && closedError == nil }

    /// When the request in flight times out.
    var deadline: HostTime? {
        guard isOpen, pendingRequest != nil else { return nil }
        return pendingSince &+ Self.transactionTimeout
    }

    /// The MTU both sides use after an exchange: the smaller receive MTU, at least 23 (§3.4.2.2).
    static func negotiatedMTU(_ clientRx: UInt16, _ serverRx: UInt16) -> UInt16 {
        max(defaultMTU, min(clientRx, serverRx))
    }

    mutating func requestSent(_ opcode: ATTOpcode, at now: HostTime) {
        pendingRequest = opcode
        pendingSince = now
        requestsSent += 1
        if opcode == .exchangeMTURequest { exchangedMTU = true }
    }

    /// Sets the MTU; true when it changed.
    mutating func setMTU(_ value: UInt16) -> Bool {
        let new = max(Self.defaultMTU, value)
        defer { mtu = new }
        return new != mtu
    }

    /// The transaction timer ran out: returns the request that timed out, and the bearer is
    /// closed for good (§3.3.3: a new bearer is needed).
    mutating func expire(at now: HostTime) -> ATTOpcode? {
        guard let deadline, now >= deadline, let request = pendingRequest else { return nil }
        pendingRequest = nil
        closedError = .attTimeout(request: request.rawValue)
        return request
    }

    mutating func close(_ error: HostError) {
        pendingRequest = nil
        if closedError == nil { closedError = error }
    }

    /// What one incoming PDU is, for the session to act on.
    enum Inbound {
        /// Completes the request in flight (its response, or the Error Response naming it).
        case response(ATTPDU)
        /// Has the response opcode of the request in flight but does not decode: the
        /// transaction is over and failed.
        case malformedResponse(ATTOpcode, WireError)
        case notification(handle: UInt16, value: ArraySlice<UInt8>)
        /// Multiple Handle Value Notification parameters (Handle Length Value Tuple List).
        case multipleNotification(ArraySlice<UInt8>)
        case indication(handle: UInt16, value: ArraySlice<UInt8>)
        /// A request from the peer's client: always answered.
        case peerRequest(ATTOpcode, parameters: ArraySlice<UInt8>)
        /// A command from the peer's client: never answered, ignored by a client-only host.
        case peerCommand
        /// Unexpected or malformed: reported with its bytes and dropped.
        case unexpected(String)
    }

    mutating func classify(_ pdu: ArraySlice<UInt8>) -> Inbound {
        guard let first = pdu.first else { return .unexpected("empty ATT PDU") }
        let opcode = ATTOpcode(first)
        let parameters = pdu.dropFirst()
        switch opcode.kind {
        case .response:
            return classifyResponse(opcode, pdu)
        case .notification:
            if opcode == .multipleHandleValueNotification { return .multipleNotification(parameters) }
            guard let handle = Self.handle(parameters) else {
                return .unexpected("\(opcode.name) of \(pdu.count) bytes (needs 3 or more)")
            }
            return .notification(handle: handle, value: parameters.dropFirst(2))
        case .indication:
            guard let handle = Self.handle(parameters) else {
                return .unexpected("\(opcode.name) of \(pdu.count) bytes (needs 3 or more)")
            }
            guard isOpen else { return .unexpected("\(opcode.name) after the ATT bearer closed; not confirmed") }
            return .indication(handle: handle, value: parameters.dropFirst(2))
        case .request:
            return .peerRequest(opcode, parameters: parameters)
        case .command:
            return .peerCommand
        case .confirmation:
            return .unexpected("\(opcode.name), but this client sends no indications")
        case .unknown:
            // §3.4.8 has no such opcode: a command (bit 6) is ignored, anything else may be a
            // request the peer waits on, so it is answered.
            return opcode.isCommand ? .peerCommand : .peerRequest(opcode, parameters: parameters)
        }
    }

    private mutating func classifyResponse(_ opcode: ATTOpcode, _ pdu: ArraySlice<UInt8>) -> Inbound {
        guard isOpen else { return .unexpected("\(opcode.name) after the ATT bearer closed") }
        guard let pending = pendingRequest else { return .unexpected("\(opcode.name) with no request pending") }
        let decoded: ATTPDU
        do {
            decoded = try ATTPDU.decode(pdu)
        } catch {
            guard opcode == .errorResponse || opcode == pending.responseOpcode else {
                return .unexpected("malformed \(opcode.name) while a \(pending.name) is pending: \(error)")
            }
            pendingRequest = nil
            return .malformedResponse(opcode, error)
        }
        if case let .errorResponse(e) = decoded {
            guard e.requestOpcodeInError == pending else {
                return .unexpected("Error Response for a \(e.requestOpcodeInError.name) while a \(pending.name) is pending")
            }
        } else if opcode != pending.responseOpcode {
            return .unexpected("\(opcode.name) while a \(pending.name) is pending")
        }
        pendingRequest = nil
        return .response(decoded)
    }

    @inline(__always)
    private static func handle(_ parameters: ArraySlice<UInt8>) -> UInt16? {
        guard parameters.count >= 2 else { return nil }
        let i = parameters.startIndex
        return UInt16(parameters[i]) | UInt16(parameters[i + 1]) << 8
    }
}
