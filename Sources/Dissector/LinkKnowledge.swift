import Wire

/// What the decoder has learned about one connection from the capture itself: the peer, and
/// which characteristic stands behind each attribute handle (from discovery responses), so a
/// notification on handle 0x0012 can be shown as "Heart Rate Measurement: 72 bpm".
struct LinkKnowledge {
    var peer: DeviceAddress?
    /// Attribute handle → characteristic or descriptor UUID.
    var attributeTypes: [UInt16: BluetoothUUID] = [:]
    /// Last request seen in each direction, to interpret the response coming the other way.
    var pendingRequest: [Direction: PendingRequest] = [:]

    enum PendingRequest {
        case readByType(BluetoothUUID)
        case read(handle: UInt16)
        case other
    }

    mutating func learn(from pdu: ATTPDU, direction: Direction) {
        let answerTo = direction == .hostToController ? Direction.controllerToHost : .hostToController
        switch pdu {
        case .readByTypeRequest(let q):
            pendingRequest[direction] = .readByType(q.attributeType)
        case .readRequest(let handle):
            pendingRequest[direction] = .read(handle: handle)
        case .readByTypeResponse(let list):
            if case .readByType(let type)? = pendingRequest[answerTo], type == .characteristic {
                for entry in list {
                    if let decl = try? CharacteristicDeclaration(bytes: entry.value) {
                        attributeTypes[decl.valueHandle] = decl.uuid
                    }
                }
            }
            pendingRequest[answerTo] = nil
        case .findInformationResponse(let info):
            for d in info.informationData where attributeTypes[d.handle] == nil {
                attributeTypes[d.handle] = d.uuid
            }
            pendingRequest[answerTo] = nil
        case .errorResponse, .readResponse, .writeResponse, .readByGroupTypeResponse,
             .findByTypeValueResponse, .exchangeMTUResponse, .readBlobResponse:
            break
        default:
            if pdu.opcode.kind == .request { pendingRequest[direction] = .other }
        }
    }

    /// The handle a Read Response answers, if the request was seen.
    mutating func takeReadHandle(responseDirection: Direction) -> UInt16? {
        let requester = responseDirection == .hostToController ? Direction.controllerToHost : .hostToController
        if case .read(let h)? = pendingRequest[requester] {
            pendingRequest[requester] = nil
            return h
        }
        return nil
    }
}
