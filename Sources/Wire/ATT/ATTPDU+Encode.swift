extension ATTPDU {
    /// Writes the opcode and parameters. Lists are written as given: the length fields of Read
    /// By Type and Read By Group Type Responses come from the first entry, so give them values
    /// of one length.
    public func encode(into w: inout ByteWriter) {
        w.u8(opcode.rawValue)
        switch self {
        case let .errorResponse(e):
            w.u8(e.requestOpcodeInError.rawValue)
            w.u16(e.attributeHandleInError)
            w.u8(e.errorCode.rawValue)
        case let .exchangeMTURequest(mtu), let .exchangeMTUResponse(mtu):
            w.u16(mtu)
        case let .findInformationRequest(range):
            range.encode(into: &w)
        case let .findInformationResponse(response):
            w.u8(response.format.rawValue)
            for entry in response.informationData {
                w.u16(entry.handle)
                switch response.format {
                case .uuid16: w.u16(UInt16(truncatingIfNeeded: entry.uuid.high >> 32))
                case .uuid128: w.append(entry.uuid.littleEndianBytes128)
                }
            }
        case let .findByTypeValueRequest(request):
            request.range.encode(into: &w)
            w.u16(UInt16(truncatingIfNeeded: request.attributeType.high >> 32))
            w.append(request.attributeValue)
        case let .findByTypeValueResponse(list):
            for entry in list {
                w.u16(entry.foundAttributeHandle)
                w.u16(entry.groupEndHandle)
            }
        case let .readByTypeRequest(query), let .readByGroupTypeRequest(query):
            query.range.encode(into: &w)
            w.append(query.attributeType.attBytes)
        case let .readByTypeResponse(list):
            w.u8(UInt8(clamping: 2 + (list.first?.value.count ?? 0)))
            for entry in list {
                w.u16(entry.handle)
                w.append(entry.value)
            }
        case let .readRequest(handle):
            w.u16(handle)
        case let .readResponse(value), let .readBlobResponse(value), let .readMultipleResponse(value):
            w.append(value)
        case let .readBlobRequest(handle, offset):
            w.u16(handle)
            w.u16(offset)
        case let .readMultipleRequest(handles), let .readMultipleVariableRequest(handles):
            for h in handles { w.u16(h) }
        case let .readByGroupTypeResponse(list):
            w.u8(UInt8(clamping: 4 + (list.first?.value.count ?? 0)))
            for entry in list {
                w.u16(entry.attributeHandle)
                w.u16(entry.endGroupHandle)
                w.append(entry.value)
            }
        case let .readMultipleVariableResponse(response):
            w.append(response.lengthValueTupleList)
        case let .writeRequest(hv), let .writeCommand(hv), let .handleValueNotification(hv), let .handleValueIndication(hv):
            w.u16(hv.handle)
            w.append(hv.value)
        case let .signedWriteCommand(s):
            w.u16(s.handle)
            w.append(s.value)
            w.append(s.authenticationSignature)
        case let .prepareWriteRequest(p), let .prepareWriteResponse(p):
            w.u16(p.handle)
            w.u16(p.valueOffset)
            w.append(p.partAttributeValue)
        case let .executeWriteRequest(flags):
            w.u8(flags.rawValue)
        case .writeResponse, .executeWriteResponse, .handleValueConfirmation:
            break
        case let .multipleHandleValueNotification(list):
            for entry in list {
                w.u16(entry.handle)
                w.u16(UInt16(clamping: entry.value.count))
                w.append(entry.value)
            }
        case let .unknown(_, parameters):
            w.append(parameters)
        }
    }

    public var encoded: [UInt8] {
        var w = ByteWriter(capacity: 32)
        encode(into: &w)
        return w.bytes
    }

    /// The frame that carries this PDU to `handle` on the ATT channel.
    public func frame(handle: UInt16) -> L2CAPFrame {
        L2CAPFrame(handle: handle, channelID: .att, payload: encoded[...])
    }
}
