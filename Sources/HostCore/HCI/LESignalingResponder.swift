import Wire

/// The central's answers on the LE signaling channel (CID 0x0005, Core Spec v5.4 Vol 3,
/// Part A, §4). The host offers no credit-based channels, so besides the Connection Parameter
/// Update Request everything asked of it is refused in the way the peer expects, so that no
/// peer waits 30 s for an answer that never comes (§4 RTX timer).
enum LESignalingResponder {
    struct Reply: Sendable {
        /// The command to send back, if any.
        var response: LESignalingCommand?
        /// Parameters accepted from a Connection Parameter Update Request: the host applies
        /// them with LE Connection Update (Vol 4, Part E, §7.8.18).
        var connectionUpdate: L2CAPConnectionParameterUpdateRequest?
        var warning: HostWarning?
    }

    static func answer(_ payload: ArraySlice<UInt8>) -> Reply {
        let command: LESignalingCommand
        do {
            command = try LESignalingCommand.decode(payload)
        } catch {
            return malformed(payload, error)
        }
        switch command {
        case let .connectionParameterUpdateRequest(id, request):
            guard id != 0 else { return illegalIdentifier(payload) }
            // §4.20: the central answers first, then starts the update.
            guard let problem = problem(of: request) else {
                return Reply(response: .connectionParameterUpdateResponse(identifier: id, result: .accepted),
                             connectionUpdate: request)
            }
            return Reply(response: .connectionParameterUpdateResponse(identifier: id, result: .rejected),
                         warning: HostWarning("LE signaling: the peripheral's Connection Parameter Update Request rejected: \(problem); the link keeps its parameters",
                                              bytes: Array(payload)))
        case let .leCreditBasedConnectionRequest(id, _):
            guard id != 0 else { return illegalIdentifier(payload) }
            // §4.23: every field but Result is 0 on a refusal.
            return Reply(response: .leCreditBasedConnectionResponse(
                identifier: id,
                L2CAPLECreditBasedConnectionResponse(destinationCID: .null, mtu: 0, mps: 0, initialCredits: 0,
                                                     result: .spsmNotSupported)))
        case let .creditBasedConnectionRequest(id, request):
            guard id != 0 else { return illegalIdentifier(payload) }
            // §4.26: one Destination CID per Source CID asked for, 0x0000 for each refused.
            return Reply(response: .creditBasedConnectionResponse(
                identifier: id,
                L2CAPCreditBasedConnectionResponse(mtu: 0, mps: 0, initialCredits: 0, result: .spsmNotSupported,
                                                   destinationCIDs: request.sourceCIDs.map { _ in .null })))
        case let .creditBasedReconfigureRequest(id, _):
            guard id != 0 else { return illegalIdentifier(payload) }
            // No channel of this host can be named in it (§4.28).
            return Reply(response: .creditBasedReconfigureResponse(identifier: id, result: .invalidDestinationCID))
        case let .disconnectionRequest(id, p):
            guard id != 0 else { return illegalIdentifier(payload) }
            // No such channel here (§4.6): Invalid CID in request, with the CIDs as seen from
            // this side (its destination is the local CID).
            return Reply(response: .commandReject(
                identifier: id,
                .invalidCIDInRequest(localCID: p.destinationCID.rawValue, remoteCID: p.sourceCID.rawValue)))
        case let .unknown(code, id, _):
            // §4.1: a command not understood is rejected; a malformed one too.
            return Reply(response: .commandReject(identifier: id, L2CAPCommandReject(reason: .commandNotUnderstood)),
                         warning: HostWarning("LE signaling: code \(Hex.number(code.rawValue, width: 2)) not understood, rejected",
                                              bytes: Array(payload)))
        case .flowControlCreditInd:
            return Reply(warning: HostWarning("LE signaling: credits for a channel that does not exist, ignored",
                                              bytes: Array(payload)))
        case .commandReject, .connectionParameterUpdateResponse, .leCreditBasedConnectionResponse,
             .disconnectionResponse, .creditBasedConnectionResponse, .creditBasedReconfigureResponse:
            // Responses to requests this host never sends: nothing to answer.
            return Reply()
        }
    }

    /// What §4.20's ranges do not allow, by the same rule the host applies to its own LE
    /// Connection Update (`ConnectionParameters.problem`), so that a peripheral cannot get
    /// parameters the central would refuse to ask for itself; nil when acceptable.
    static func problem(of r: L2CAPConnectionParameterUpdateRequest) -> String? {
        ConnectionParameters(intervalMin: r.intervalMin, intervalMax: r.intervalMax,
                             latency: r.peripheralLatency, supervisionTimeout: r.timeoutMultiplier).problem
    }

    /// Request codes of the LE signaling channel (§4): the ones that expect an answer.
    private static let requestCodes: Set<UInt8> = [0x06, 0x12, 0x14, 0x17, 0x19]

    /// A request whose header is sound (identifier not 0, Length matching what arrived) but
    /// whose parameters do not decode is rejected as not understood (§4.1), so that the peer
    /// does not wait out its RTX timer; anything else malformed has no one to answer and is
    /// dropped. Both are reported with their bytes.
    private static func malformed(_ payload: ArraySlice<UInt8>, _ error: WireError) -> Reply {
        let b = payload.startIndex
        guard payload.count >= 4, requestCodes.contains(payload[b]), payload[b + 1] != 0,
              Int(payload[b + 2]) | Int(payload[b + 3]) << 8 == payload.count - 4 else {
            return Reply(warning: HostWarning("LE signaling: malformed command dropped: \(error)", bytes: Array(payload)))
        }
        return Reply(response: .commandReject(identifier: payload[b + 1], L2CAPCommandReject(reason: .commandNotUnderstood)),
                     warning: HostWarning("LE signaling: malformed request rejected as not understood: \(error)",
                                          bytes: Array(payload)))
    }

    private static func illegalIdentifier(_ payload: ArraySlice<UInt8>) -> Reply {
        // §4: identifier 0x00 is illegal in a command; there is nothing to pair an answer with.
        Reply(warning: HostWarning("LE signaling: request with identifier 0 dropped", bytes: Array(payload)))
    }
}
