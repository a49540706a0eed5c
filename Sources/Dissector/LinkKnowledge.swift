import Wire

/// What the decoder has learned about one connection from the capture itself: the peer, and
/// which characteristic stands behind each attribute handle (from discovery responses, or
/// from a GATT cache when the capture has none), so a notification on handle 0x0012 can be
/// shown as "Heart Rate Measurement: 72 bpm".
struct LinkKnowledge {
    var peer: DeviceAddress?
    /// Attribute handle → characteristic or descriptor UUID.
    var attributeTypes: [UInt16: BluetoothUUID] = [:]
    /// Handles whose type came from a GATT cache, not from a discovery in the capture.
    var cachedHandles: Set<UInt16> = []
    /// Last request seen on each ATT bearer in each direction, to interpret the response
    /// coming the other way (`BearerKey`: each EATT channel pairs its own requests).
    var pendingRequest: [BearerKey: PendingRequest] = [:]
    /// The link's credit-based channels (LE and enhanced), from the signaling seen.
    var channels = CreditBasedChannels()
    /// The link's BR/EDR connection-oriented channels, from the signaling on CID 0x0001.
    var brEdrChannels = BREDRChannels()

    init(peer: DeviceAddress? = nil, cachedTypes: [UInt16: BluetoothUUID]? = nil) {
        self.peer = peer
        if let cachedTypes {
            attributeTypes = cachedTypes
            cachedHandles = Set(cachedTypes.keys)
        }
    }

    enum PendingRequest {
        case readByType(BluetoothUUID)
        case read(handle: UInt16)
        case other
    }

    /// One direction of one ATT bearer: `bearer` is 0x0004 for the fixed channel, else the
    /// host-side CID of the EATT channel.
    struct BearerKey: Hashable {
        var bearer: UInt16
        var direction: Direction
    }

    mutating func learn(from pdu: ATTPDU, direction: Direction, bearer: UInt16) {
        let here = BearerKey(bearer: bearer, direction: direction)
        let answerTo = BearerKey(bearer: bearer, direction: direction.reversed)
        switch pdu {
        case .readByTypeRequest(let q):
            pendingRequest[here] = .readByType(q.attributeType)
        case .readRequest(let handle):
            pendingRequest[here] = .read(handle: handle)
        case .readByTypeResponse(let list):
            if case .readByType(let type)? = pendingRequest[answerTo], type == .characteristic {
                for entry in list {
                    if let decl = try? CharacteristicDeclaration(bytes: entry.value) {
                        learnType(decl.uuid, of: decl.valueHandle, overriding: true)
                    }
                }
            }
            pendingRequest[answerTo] = nil
        case .findInformationResponse(let info):
            for d in info.informationData {
                learnType(d.uuid, of: d.handle, overriding: false)
            }
            pendingRequest[answerTo] = nil
        case .errorResponse, .readResponse, .writeResponse, .readByGroupTypeResponse,
             .findByTypeValueResponse, .exchangeMTUResponse, .readBlobResponse:
            break
        default:
            if pdu.opcode.kind == .request { pendingRequest[here] = .other }
        }
    }

    /// A type seen in the capture replaces one from the cache; between two seen in the
    /// capture, a characteristic declaration's wins over Find Information's.
    private mutating func learnType(_ uuid: BluetoothUUID, of handle: UInt16, overriding: Bool) {
        if cachedHandles.remove(handle) != nil || overriding || attributeTypes[handle] == nil {
            attributeTypes[handle] = uuid
        }
    }

    /// The handle a Read Response answers, if the request was seen.
    mutating func takeReadHandle(responseDirection: Direction, bearer: UInt16) -> UInt16? {
        let requester = BearerKey(bearer: bearer, direction: responseDirection.reversed)
        if case .read(let h)? = pendingRequest[requester] {
            pendingRequest[requester] = nil
            return h
        }
        return nil
    }

    /// The link went down: no request is answered any more, no channel carries data.
    mutating func disconnected() {
        pendingRequest = [:]
        channels = CreditBasedChannels()
        brEdrChannels = BREDRChannels()
    }
}

extension Direction {
    /// The other way.
    var reversed: Direction { self == .hostToController ? .controllerToHost : .hostToController }
}
