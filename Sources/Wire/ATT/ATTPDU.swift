/// One Attribute Protocol PDU (Core Spec v5.4 Vol 3, Part F, §3.4): the payload of an L2CAP
/// frame on the ATT channel (CID 0x0004), opcode first.
///
/// Every value and list of values is a slice of the decoded bytes, so decoding a notification
/// copies and allocates nothing. Opcodes this enum does not model decode as `.unknown`, so a
/// server can answer Request Not Supported and a dissector can still show the bytes.
public enum ATTPDU: Sendable, Hashable {
    /// §3.4.1.1 ATT_ERROR_RSP
    case errorResponse(ATTErrorResponse)
    /// §3.4.2.1 ATT_EXCHANGE_MTU_REQ
    case exchangeMTURequest(clientRxMTU: UInt16)
    /// §3.4.2.2 ATT_EXCHANGE_MTU_RSP
    case exchangeMTUResponse(serverRxMTU: UInt16)
    /// §3.4.3.1 ATT_FIND_INFORMATION_REQ
    case findInformationRequest(ATTHandleRange)
    /// §3.4.3.2 ATT_FIND_INFORMATION_RSP
    case findInformationResponse(ATTFindInformationResponse)
    /// §3.4.3.3 ATT_FIND_BY_TYPE_VALUE_REQ
    case findByTypeValueRequest(ATTFindByTypeValueRequest)
    /// §3.4.3.4 ATT_FIND_BY_TYPE_VALUE_RSP: Handles Information List
    case findByTypeValueResponse([ATTHandlesInformation])
    /// §3.4.4.1 ATT_READ_BY_TYPE_REQ
    case readByTypeRequest(ATTAttributeTypeQuery)
    /// §3.4.4.2 ATT_READ_BY_TYPE_RSP: Attribute Data List (all values the same length)
    case readByTypeResponse([ATTHandleValue])
    /// §3.4.4.3 ATT_READ_REQ
    case readRequest(handle: UInt16)
    /// §3.4.4.4 ATT_READ_RSP
    case readResponse(value: ArraySlice<UInt8>)
    /// §3.4.4.5 ATT_READ_BLOB_REQ
    case readBlobRequest(handle: UInt16, valueOffset: UInt16)
    /// §3.4.4.6 ATT_READ_BLOB_RSP
    case readBlobResponse(partAttributeValue: ArraySlice<UInt8>)
    /// §3.4.4.7 ATT_READ_MULTIPLE_REQ: Set Of Handles (two or more)
    case readMultipleRequest(handles: [UInt16])
    /// §3.4.4.8 ATT_READ_MULTIPLE_RSP: Set Of Values, concatenated without lengths
    case readMultipleResponse(setOfValues: ArraySlice<UInt8>)
    /// §3.4.4.9 ATT_READ_BY_GROUP_TYPE_REQ
    case readByGroupTypeRequest(ATTAttributeTypeQuery)
    /// §3.4.4.10 ATT_READ_BY_GROUP_TYPE_RSP: Attribute Data List (all values the same length)
    case readByGroupTypeResponse([ATTGroupAttributeData])
    /// §3.4.4.11 ATT_READ_MULTIPLE_VARIABLE_REQ: Set Of Handles (two or more)
    case readMultipleVariableRequest(handles: [UInt16])
    /// §3.4.4.12 ATT_READ_MULTIPLE_VARIABLE_RSP
    case readMultipleVariableResponse(ATTReadMultipleVariableResponse)
    /// §3.4.5.1 ATT_WRITE_REQ
    case writeRequest(ATTHandleValue)
    /// §3.4.5.2 ATT_WRITE_RSP
    case writeResponse
    /// §3.4.5.3 ATT_WRITE_CMD
    case writeCommand(ATTHandleValue)
    /// §3.4.5.4 ATT_SIGNED_WRITE_CMD
    case signedWriteCommand(ATTSignedWrite)
    /// §3.4.6.1 ATT_PREPARE_WRITE_REQ
    case prepareWriteRequest(ATTPrepareWrite)
    /// §3.4.6.2 ATT_PREPARE_WRITE_RSP
    case prepareWriteResponse(ATTPrepareWrite)
    /// §3.4.6.3 ATT_EXECUTE_WRITE_REQ
    case executeWriteRequest(flags: ATTExecuteWriteFlags)
    /// §3.4.6.4 ATT_EXECUTE_WRITE_RSP
    case executeWriteResponse
    /// §3.4.7.1 ATT_HANDLE_VALUE_NTF
    case handleValueNotification(ATTHandleValue)
    /// §3.4.7.2 ATT_HANDLE_VALUE_IND
    case handleValueIndication(ATTHandleValue)
    /// §3.4.7.3 ATT_HANDLE_VALUE_CFM
    case handleValueConfirmation
    /// §3.4.7.4 ATT_MULTIPLE_HANDLE_VALUE_NTF: Handle Length Value Tuple List
    case multipleHandleValueNotification([ATTHandleValue])
    /// An opcode without a case here, with the bytes after it.
    case unknown(opcode: ATTOpcode, parameters: ArraySlice<UInt8>)

    public var opcode: ATTOpcode {
        switch self {
        case .errorResponse: return .errorResponse
        case .exchangeMTURequest: return .exchangeMTURequest
        case .exchangeMTUResponse: return .exchangeMTUResponse
        case .findInformationRequest: return .findInformationRequest
        case .findInformationResponse: return .findInformationResponse
        case .findByTypeValueRequest: return .findByTypeValueRequest
        case .findByTypeValueResponse: return .findByTypeValueResponse
        case .readByTypeRequest: return .readByTypeRequest
        case .readByTypeResponse: return .readByTypeResponse
        case .readRequest: return .readRequest
        case .readResponse: return .readResponse
        case .readBlobRequest: return .readBlobRequest
        case .readBlobResponse: return .readBlobResponse
        case .readMultipleRequest: return .readMultipleRequest
        case .readMultipleResponse: return .readMultipleResponse
        case .readByGroupTypeRequest: return .readByGroupTypeRequest
        case .readByGroupTypeResponse: return .readByGroupTypeResponse
        case .readMultipleVariableRequest: return .readMultipleVariableRequest
        case .readMultipleVariableResponse: return .readMultipleVariableResponse
        case .writeRequest: return .writeRequest
        case .writeResponse: return .writeResponse
        case .writeCommand: return .writeCommand
        case .signedWriteCommand: return .signedWriteCommand
        case .prepareWriteRequest: return .prepareWriteRequest
        case .prepareWriteResponse: return .prepareWriteResponse
        case .executeWriteRequest: return .executeWriteRequest
        case .executeWriteResponse: return .executeWriteResponse
        case .handleValueNotification: return .handleValueNotification
        case .handleValueIndication: return .handleValueIndication
        case .handleValueConfirmation: return .handleValueConfirmation
        case .multipleHandleValueNotification: return .multipleHandleValueNotification
        case let .unknown(opcode, _): return opcode
        }
    }

    /// The PDU name, e.g. "Handle Value Notification".
    public var name: String { opcode.name }

    public static func decode(_ bytes: [UInt8]) throws(WireError) -> ATTPDU {
        try decode(bytes[...])
    }

    /// Decodes a whole ATT PDU. Lengths must come out exactly: parameters that stop short,
    /// bytes left after fixed parameters, and lists that do not tile their space all throw
    /// (a server answers such a request with Invalid PDU; a client drops such a response).
    public static func decode(_ bytes: ArraySlice<UInt8>) throws(WireError) -> ATTPDU {
        var r = ByteReader(bytes)
        let opcode = ATTOpcode(try r.u8("ATT opcode"))
        let pdu: ATTPDU
        switch opcode.rawValue {
        case 0x1B:
            // First: the notification is the host's hot path.
            pdu = .handleValueNotification(ATTHandleValue(handle: try r.u16("Attribute Handle"), value: r.rest()))
        case 0x01:
            let request = ATTOpcode(try r.u8("Request Opcode In Error"))
            let handle = try r.u16("Attribute Handle In Error")
            let code = ATTErrorCode(try r.u8("Error Code"))
            pdu = .errorResponse(ATTErrorResponse(requestOpcodeInError: request, attributeHandleInError: handle, errorCode: code))
        case 0x02:
            pdu = .exchangeMTURequest(clientRxMTU: try r.u16("Client Rx MTU"))
        case 0x03:
            pdu = .exchangeMTUResponse(serverRxMTU: try r.u16("Server Rx MTU"))
        case 0x04:
            pdu = .findInformationRequest(try ATTHandleRange(decoding: &r))
        case 0x05:
            pdu = .findInformationResponse(try decodeFindInformationResponse(&r))
        case 0x06:
            let range = try ATTHandleRange(decoding: &r)
            let type = BluetoothUUID(try r.u16("Attribute Type"))
            pdu = .findByTypeValueRequest(ATTFindByTypeValueRequest(range: range, attributeType: type, attributeValue: r.rest()))
        case 0x07:
            pdu = .findByTypeValueResponse(try decodeHandlesInformationList(&r))
        case 0x08:
            pdu = .readByTypeRequest(try decodeTypeQuery(&r, field: "Attribute Type"))
        case 0x09:
            pdu = .readByTypeResponse(try decodeReadByTypeResponse(&r))
        case 0x0A:
            pdu = .readRequest(handle: try r.u16("Attribute Handle"))
        case 0x0B:
            pdu = .readResponse(value: r.rest())
        case 0x0C:
            let handle = try r.u16("Attribute Handle")
            pdu = .readBlobRequest(handle: handle, valueOffset: try r.u16("Value Offset"))
        case 0x0D:
            pdu = .readBlobResponse(partAttributeValue: r.rest())
        case 0x0E:
            pdu = .readMultipleRequest(handles: try decodeSetOfHandles(&r, opcode))
        case 0x0F:
            pdu = .readMultipleResponse(setOfValues: r.rest())
        case 0x10:
            pdu = .readByGroupTypeRequest(try decodeTypeQuery(&r, field: "Attribute Group Type"))
        case 0x11:
            pdu = .readByGroupTypeResponse(try decodeReadByGroupTypeResponse(&r))
        case 0x12:
            pdu = .writeRequest(ATTHandleValue(handle: try r.u16("Attribute Handle"), value: r.rest()))
        case 0x13:
            pdu = .writeResponse
        case 0x16, 0x17:
            let handle = try r.u16("Attribute Handle")
            let offset = try r.u16("Value Offset")
            let write = ATTPrepareWrite(handle: handle, valueOffset: offset, partAttributeValue: r.rest())
            pdu = opcode == .prepareWriteRequest ? .prepareWriteRequest(write) : .prepareWriteResponse(write)
        case 0x18:
            pdu = .executeWriteRequest(flags: ATTExecuteWriteFlags(try r.u8("Flags")))
        case 0x19:
            pdu = .executeWriteResponse
        case 0x1D:
            pdu = .handleValueIndication(ATTHandleValue(handle: try r.u16("Attribute Handle"), value: r.rest()))
        case 0x1E:
            pdu = .handleValueConfirmation
        case 0x20:
            pdu = .readMultipleVariableRequest(handles: try decodeSetOfHandles(&r, opcode))
        case 0x21:
            pdu = .readMultipleVariableResponse(ATTReadMultipleVariableResponse(lengthValueTupleList: r.rest()))
        case 0x23:
            pdu = .multipleHandleValueNotification(try decodeHandleLengthValueList(&r))
        case 0x52:
            pdu = .writeCommand(ATTHandleValue(handle: try r.u16("Attribute Handle"), value: r.rest()))
        case 0xD2:
            let handle = try r.u16("Attribute Handle")
            let rest = r.rest()
            guard rest.count >= ATTSignedWrite.signatureSize else {
                throw WireError.truncated(field: "Authentication Signature", needed: ATTSignedWrite.signatureSize, available: rest.count)
            }
            let split = rest.endIndex - ATTSignedWrite.signatureSize
            pdu = .signedWriteCommand(ATTSignedWrite(handle: handle, value: rest[..<split], authenticationSignature: rest[split...]))
        default:
            pdu = .unknown(opcode: opcode, parameters: r.rest())
        }
        if !r.isAtEnd {
            throw WireError.malformed("\(opcode.name): \(r.count) byte(s) after the parameters")
        }
        return pdu
    }

    private static func decodeFindInformationResponse(_ r: inout ByteReader) throws(WireError) -> ATTFindInformationResponse {
        let formatByte = try r.u8("Format")
        guard let format = ATTFindInformationFormat(rawValue: formatByte) else {
            throw WireError.invalidValue(field: "Find Information Response Format", value: UInt64(formatByte))
        }
        let stride = 2 + format.uuidSize
        try requireTiling(r.count, stride, "Information Data")
        var list: [ATTInformationData] = []
        list.reserveCapacity(r.count / stride)
        while !r.isAtEnd {
            let handle = try r.u16("Handle")
            let uuidBytes = try r.bytes(format.uuidSize, "UUID")
            guard let uuid = BluetoothUUID(littleEndian: uuidBytes) else {
                throw WireError.malformed("Information Data: UUID of \(uuidBytes.count) bytes")
            }
            list.append(ATTInformationData(handle: handle, uuid: uuid))
        }
        return ATTFindInformationResponse(format: format, informationData: list)
    }

    private static func decodeHandlesInformationList(_ r: inout ByteReader) throws(WireError) -> [ATTHandlesInformation] {
        try requireTiling(r.count, 4, "Handles Information List")
        var list: [ATTHandlesInformation] = []
        list.reserveCapacity(r.count / 4)
        while !r.isAtEnd {
            let found = try r.u16("Found Attribute Handle")
            let end = try r.u16("Group End Handle")
            list.append(ATTHandlesInformation(foundAttributeHandle: found, groupEndHandle: end))
        }
        return list
    }

    private static func decodeTypeQuery(_ r: inout ByteReader, field: StaticString) throws(WireError) -> ATTAttributeTypeQuery {
        let range = try ATTHandleRange(decoding: &r)
        let typeBytes = r.rest()
        // ATT carries UUIDs as 2 or 16 bytes only (§3.2.1).
        guard typeBytes.count == 2 || typeBytes.count == 16, let type = BluetoothUUID(littleEndian: typeBytes) else {
            throw WireError.malformed("\(field) of \(typeBytes.count) bytes (must be 2 or 16)")
        }
        return ATTAttributeTypeQuery(range: range, attributeType: type)
    }

    private static func decodeReadByTypeResponse(_ r: inout ByteReader) throws(WireError) -> [ATTHandleValue] {
        let length = Int(try r.u8("Length"))
        guard length >= 2 else {
            throw WireError.invalidValue(field: "Read By Type Response Length", value: UInt64(length))
        }
        try requireTiling(r.count, length, "Attribute Data List")
        var list: [ATTHandleValue] = []
        list.reserveCapacity(r.count / length)
        while !r.isAtEnd {
            let handle = try r.u16("Attribute Handle")
            list.append(ATTHandleValue(handle: handle, value: try r.bytes(length - 2, "Attribute Value")))
        }
        return list
    }

    private static func decodeReadByGroupTypeResponse(_ r: inout ByteReader) throws(WireError) -> [ATTGroupAttributeData] {
        let length = Int(try r.u8("Length"))
        guard length >= 4 else {
            throw WireError.invalidValue(field: "Read By Group Type Response Length", value: UInt64(length))
        }
        try requireTiling(r.count, length, "Attribute Data List")
        var list: [ATTGroupAttributeData] = []
        list.reserveCapacity(r.count / length)
        while !r.isAtEnd {
            let handle = try r.u16("Attribute Handle")
            let end = try r.u16("End Group Handle")
            list.append(ATTGroupAttributeData(attributeHandle: handle, endGroupHandle: end,
                                              value: try r.bytes(length - 4, "Attribute Value")))
        }
        return list
    }

    private static func decodeSetOfHandles(_ r: inout ByteReader, _ opcode: ATTOpcode) throws(WireError) -> [UInt16] {
        guard r.count >= 4, r.count % 2 == 0 else {
            throw WireError.malformed("\(opcode.name): Set Of Handles of \(r.count) bytes (needs two or more handles)")
        }
        var handles: [UInt16] = []
        handles.reserveCapacity(r.count / 2)
        while !r.isAtEnd { handles.append(try r.u16("Handle")) }
        return handles
    }

    private static func decodeHandleLengthValueList(_ r: inout ByteReader) throws(WireError) -> [ATTHandleValue] {
        guard !r.isAtEnd else {
            throw WireError.truncated(field: "Handle Length Value Tuple List", needed: 4, available: 0)
        }
        var list: [ATTHandleValue] = []
        while !r.isAtEnd {
            let handle = try r.u16("Attribute Handle")
            let length = try r.u16("Length")
            list.append(ATTHandleValue(handle: handle, value: try r.bytes(Int(length), "Attribute Value")))
        }
        return list
    }

    private static func requireTiling(_ count: Int, _ stride: Int, _ list: StaticString) throws(WireError) {
        if count == 0 {
            throw WireError.truncated(field: list.description, needed: stride, available: 0)
        }
        if count % stride != 0 {
            throw WireError.malformed("\(list): \(count) bytes are not a whole number of \(stride)-byte entries")
        }
    }
}
