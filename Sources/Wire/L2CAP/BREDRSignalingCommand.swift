/// One command on the BR/EDR signaling channel, CID 0x0001 (Core Spec v5.4 Vol 3, Part A,
/// §4): it opens, configures and closes the connection-oriented channels of an ACL-U link
/// (SDP, RFCOMM, AVDTP, ATT over BR/EDR …). Unlike the LE channel, one C-frame may carry
/// several commands (`decodeAll`). Codes without a case decode as `.unknown`.
public enum BREDRSignalingCommand: Sendable, Hashable {
    case commandReject(identifier: UInt8, L2CAPCommandReject)
    case connectionRequest(identifier: UInt8, L2CAPConnectionRequest)
    case connectionResponse(identifier: UInt8, L2CAPConnectionResponse)
    case configurationRequest(identifier: UInt8, L2CAPConfigurationRequest)
    case configurationResponse(identifier: UInt8, L2CAPConfigurationResponse)
    case disconnectionRequest(identifier: UInt8, L2CAPDisconnectionParameters)
    case disconnectionResponse(identifier: UInt8, L2CAPDisconnectionParameters)
    case echoRequest(identifier: UInt8, data: ArraySlice<UInt8>)
    case echoResponse(identifier: UInt8, data: ArraySlice<UInt8>)
    case informationRequest(identifier: UInt8, L2CAPInformationType)
    case informationResponse(identifier: UInt8, L2CAPInformationResponse)
    case unknown(code: L2CAPSignalingCode, identifier: UInt8, data: ArraySlice<UInt8>)

    public var code: L2CAPSignalingCode {
        switch self {
        case .commandReject: return .commandReject
        case .connectionRequest: return .connectionRequest
        case .connectionResponse: return .connectionResponse
        case .configurationRequest: return .configurationRequest
        case .configurationResponse: return .configurationResponse
        case .disconnectionRequest: return .disconnectionRequest
        case .disconnectionResponse: return .disconnectionResponse
        case .echoRequest: return .echoRequest
        case .echoResponse: return .echoResponse
        case .informationRequest: return .informationRequest
        case .informationResponse: return .informationResponse
        case let .unknown(code, _, _): return code
        }
    }

    public var identifier: UInt8 {
        switch self {
        case let .commandReject(id, _), let .connectionRequest(id, _), let .connectionResponse(id, _),
             let .configurationRequest(id, _), let .configurationResponse(id, _), let .disconnectionRequest(id, _),
             let .disconnectionResponse(id, _), let .echoRequest(id, _), let .echoResponse(id, _),
             let .informationRequest(id, _), let .informationResponse(id, _), let .unknown(_, id, _):
            return id
        }
    }

    /// The commands of one C-frame, in order. A command that cannot be decoded ends the list:
    /// `error` says why, and the commands before it are kept.
    public static func decodeAll(_ bytes: ArraySlice<UInt8>) -> (commands: [BREDRSignalingCommand], error: WireError?) {
        var reader = ByteReader(bytes)
        var commands: [BREDRSignalingCommand] = []
        while !reader.isAtEnd {
            do {
                commands.append(try decode(from: &reader))
            } catch {
                return (commands, error)
            }
        }
        return (commands, nil)
    }

    /// Decodes one command and leaves the following ones in `reader`.
    public static func decode(from reader: inout ByteReader) throws(WireError) -> BREDRSignalingCommand {
        let (code, identifier, data) = try L2CAPSignalingFraming.read(&reader)
        switch code {
        case .commandReject:
            return .commandReject(identifier: identifier, try L2CAPCommandReject(data: data))
        case .connectionRequest:
            return .connectionRequest(identifier: identifier, try L2CAPSignalingFraming.exact(data, code))
        case .connectionResponse:
            return .connectionResponse(identifier: identifier, try L2CAPSignalingFraming.exact(data, code))
        case .configurationRequest:
            return .configurationRequest(identifier: identifier, try L2CAPSignalingFraming.exact(data, code))
        case .configurationResponse:
            return .configurationResponse(identifier: identifier, try L2CAPSignalingFraming.exact(data, code))
        case .disconnectionRequest:
            return .disconnectionRequest(identifier: identifier, try L2CAPSignalingFraming.exact(data, code))
        case .disconnectionResponse:
            return .disconnectionResponse(identifier: identifier, try L2CAPSignalingFraming.exact(data, code))
        case .echoRequest:
            return .echoRequest(identifier: identifier, data: data)
        case .echoResponse:
            return .echoResponse(identifier: identifier, data: data)
        case .informationRequest:
            var r = ByteReader(data)
            let type = L2CAPInformationType(try r.u16("InfoType"))
            try L2CAPSignalingFraming.expectEnd(r, code)
            return .informationRequest(identifier: identifier, type)
        case .informationResponse:
            return .informationResponse(identifier: identifier, try L2CAPSignalingFraming.exact(data, code))
        default:
            return .unknown(code: code, identifier: identifier, data: data)
        }
    }

    public func encode(into writer: inout ByteWriter) {
        L2CAPSignalingFraming.encode(code: code, identifier: identifier, into: &writer) { writer in
            switch self {
            case let .commandReject(_, reject): reject.encode(into: &writer)
            case let .connectionRequest(_, p): p.encode(into: &writer)
            case let .connectionResponse(_, p): p.encode(into: &writer)
            case let .configurationRequest(_, p): p.encode(into: &writer)
            case let .configurationResponse(_, p): p.encode(into: &writer)
            case let .disconnectionRequest(_, p), let .disconnectionResponse(_, p): p.encode(into: &writer)
            case let .echoRequest(_, data), let .echoResponse(_, data), let .unknown(_, _, data): writer.append(data)
            case let .informationRequest(_, type): writer.u16(type.rawValue)
            case let .informationResponse(_, p): p.encode(into: &writer)
            }
        }
    }

    public var encoded: [UInt8] {
        var writer = ByteWriter(capacity: 16)
        encode(into: &writer)
        return writer.bytes
    }
}
