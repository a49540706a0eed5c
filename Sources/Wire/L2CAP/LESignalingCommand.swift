/// One command on the LE signaling channel, CID 0x0005 (Core Spec v5.4 Vol 3, Part A, §4):
/// Code (1), Identifier (1), Length (2), Data. Each case carries the Identifier, which pairs a
/// response with its request. Codes without a case here decode as `.unknown` so the host can
/// answer them with Command Reject (Command not understood).
public enum LESignalingCommand: Sendable, Hashable {
    case commandReject(identifier: UInt8, L2CAPCommandReject)
    case disconnectionRequest(identifier: UInt8, L2CAPDisconnectionParameters)
    case disconnectionResponse(identifier: UInt8, L2CAPDisconnectionParameters)
    case connectionParameterUpdateRequest(identifier: UInt8, L2CAPConnectionParameterUpdateRequest)
    case connectionParameterUpdateResponse(identifier: UInt8, result: L2CAPConnectionParameterUpdateResult)
    case leCreditBasedConnectionRequest(identifier: UInt8, L2CAPLECreditBasedConnectionRequest)
    case leCreditBasedConnectionResponse(identifier: UInt8, L2CAPLECreditBasedConnectionResponse)
    case flowControlCreditInd(identifier: UInt8, L2CAPFlowControlCreditInd)
    case creditBasedConnectionRequest(identifier: UInt8, L2CAPCreditBasedConnectionRequest)
    case creditBasedConnectionResponse(identifier: UInt8, L2CAPCreditBasedConnectionResponse)
    case creditBasedReconfigureRequest(identifier: UInt8, L2CAPCreditBasedReconfigureRequest)
    case creditBasedReconfigureResponse(identifier: UInt8, result: L2CAPCreditBasedReconfigureResult)
    case unknown(code: L2CAPSignalingCode, identifier: UInt8, data: ArraySlice<UInt8>)

    /// Size of Code + Identifier + Length.
    public static let headerSize = 4

    public var code: L2CAPSignalingCode {
        switch self {
        case .commandReject: return .commandReject
        case .disconnectionRequest: return .disconnectionRequest
        case .disconnectionResponse: return .disconnectionResponse
        case .connectionParameterUpdateRequest: return .connectionParameterUpdateRequest
        case .connectionParameterUpdateResponse: return .connectionParameterUpdateResponse
        case .leCreditBasedConnectionRequest: return .leCreditBasedConnectionRequest
        case .leCreditBasedConnectionResponse: return .leCreditBasedConnectionResponse
        case .flowControlCreditInd: return .flowControlCreditInd
        case .creditBasedConnectionRequest: return .creditBasedConnectionRequest
        case .creditBasedConnectionResponse: return .creditBasedConnectionResponse
        case .creditBasedReconfigureRequest: return .creditBasedReconfigureRequest
        case .creditBasedReconfigureResponse: return .creditBasedReconfigureResponse
        case let .unknown(code, _, _): return code
        }
    }

    public var identifier: UInt8 {
        switch self {
        case let .commandReject(id, _), let .disconnectionRequest(id, _), let .disconnectionResponse(id, _),
             let .connectionParameterUpdateRequest(id, _), let .connectionParameterUpdateResponse(id, _),
             let .leCreditBasedConnectionRequest(id, _), let .leCreditBasedConnectionResponse(id, _),
             let .flowControlCreditInd(id, _), let .creditBasedConnectionRequest(id, _),
             let .creditBasedConnectionResponse(id, _), let .creditBasedReconfigureRequest(id, _),
             let .creditBasedReconfigureResponse(id, _), let .unknown(_, id, _):
            return id
        }
    }

    /// Decodes the command that fills `bytes` (one C-frame payload of the LE signaling
    /// channel, which carries exactly one command). The Length field must equal the data that
    /// follows, and fixed-size commands must have exactly their size.
    public static func decode(_ bytes: ArraySlice<UInt8>) throws(WireError) -> LESignalingCommand {
        var reader = ByteReader(bytes)
        let command = try decode(from: &reader)
        if !reader.isAtEnd {
            throw WireError.malformed("signaling Length leaves \(reader.count) byte(s) after the command")
        }
        return command
    }

    public static func decode(_ bytes: [UInt8]) throws(WireError) -> LESignalingCommand {
        try decode(bytes[...])
    }

    /// Decodes one command and leaves any following bytes in `reader` (the BR/EDR signaling
    /// channel may pack several commands in one frame).
    public static func decode(from reader: inout ByteReader) throws(WireError) -> LESignalingCommand {
        let (code, identifier, data) = try L2CAPSignalingFraming.read(&reader)
        switch code {
        case .commandReject:
            return .commandReject(identifier: identifier, try L2CAPCommandReject(data: data))
        case .disconnectionRequest:
            return .disconnectionRequest(identifier: identifier, try L2CAPSignalingFraming.exact(data, code))
        case .disconnectionResponse:
            return .disconnectionResponse(identifier: identifier, try L2CAPSignalingFraming.exact(data, code))
        case .connectionParameterUpdateRequest:
            return .connectionParameterUpdateRequest(identifier: identifier, try L2CAPSignalingFraming.exact(data, code))
        case .connectionParameterUpdateResponse:
            var r = ByteReader(data)
            let result = L2CAPConnectionParameterUpdateResult(try r.u16("Result"))
            try L2CAPSignalingFraming.expectEnd(r, code)
            return .connectionParameterUpdateResponse(identifier: identifier, result: result)
        case .leCreditBasedConnectionRequest:
            return .leCreditBasedConnectionRequest(identifier: identifier, try L2CAPSignalingFraming.exact(data, code))
        case .leCreditBasedConnectionResponse:
            return .leCreditBasedConnectionResponse(identifier: identifier, try L2CAPSignalingFraming.exact(data, code))
        case .flowControlCreditInd:
            return .flowControlCreditInd(identifier: identifier, try L2CAPSignalingFraming.exact(data, code))
        case .creditBasedConnectionRequest:
            return .creditBasedConnectionRequest(identifier: identifier, try L2CAPSignalingFraming.exact(data, code))
        case .creditBasedConnectionResponse:
            return .creditBasedConnectionResponse(identifier: identifier, try L2CAPSignalingFraming.exact(data, code))
        case .creditBasedReconfigureRequest:
            return .creditBasedReconfigureRequest(identifier: identifier, try L2CAPSignalingFraming.exact(data, code))
        case .creditBasedReconfigureResponse:
            var r = ByteReader(data)
            let result = L2CAPCreditBasedReconfigureResult(try r.u16("Result"))
            try L2CAPSignalingFraming.expectEnd(r, code)
            return .creditBasedReconfigureResponse(identifier: identifier, result: result)
        default:
            return .unknown(code: code, identifier: identifier, data: data)
        }
    }

    public func encode(into writer: inout ByteWriter) {
        L2CAPSignalingFraming.encode(code: code, identifier: identifier, into: &writer) { writer in
            encodeData(into: &writer)
        }
    }

    private func encodeData(into writer: inout ByteWriter) {
        switch self {
        case let .commandReject(_, reject): reject.encode(into: &writer)
        case let .disconnectionRequest(_, p), let .disconnectionResponse(_, p): p.encode(into: &writer)
        case let .connectionParameterUpdateRequest(_, p): p.encode(into: &writer)
        case let .connectionParameterUpdateResponse(_, result): writer.u16(result.rawValue)
        case let .leCreditBasedConnectionRequest(_, p): p.encode(into: &writer)
        case let .leCreditBasedConnectionResponse(_, p): p.encode(into: &writer)
        case let .flowControlCreditInd(_, p): p.encode(into: &writer)
        case let .creditBasedConnectionRequest(_, p): p.encode(into: &writer)
        case let .creditBasedConnectionResponse(_, p): p.encode(into: &writer)
        case let .creditBasedReconfigureRequest(_, p): p.encode(into: &writer)
        case let .creditBasedReconfigureResponse(_, result): writer.u16(result.rawValue)
        case let .unknown(_, _, data): writer.append(data)
        }
    }

    public var encoded: [UInt8] {
        var writer = ByteWriter(capacity: 16)
        encode(into: &writer)
        return writer.bytes
    }

    /// The frame that carries this command to `handle` on the LE signaling channel.
    public func frame(handle: UInt16) -> L2CAPFrame {
        L2CAPFrame(handle: handle, channelID: .leSignaling, payload: encoded[...])
    }
}
