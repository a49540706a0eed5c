import Wire

/// Discover All Primary Services (Core Spec v5.4 Vol 3, Part G, §4.4.1: Read By Group Type,
/// type 0x2800) or Discover Primary Service by Service UUID (§4.4.2: Find By Type Value, type
/// 0x2800, value the UUID), over 0x0001–0xFFFF. Each request continues from the last End Group
/// Handle + 1; the walk ends at 0xFFFF or on Attribute Not Found.
final class DiscoverPrimaryServicesProcedure: GATTProcedure {
    let uuid: BluetoothUUID?
    private var walk = HandleWalk(start: 0x0001, end: 0xFFFF)
    private(set) var services: [GATTService] = []

    init(uuid: BluetoothUUID?) {
        self.uuid = uuid
    }

    func start(mtu: UInt16) -> GATTStep { nextRequest() }

    private func nextRequest() -> GATTStep {
        if walk.isFinished { return .done }
        if let uuid {
            let value = uuid.attBytes
            return .request(.findByTypeValueRequest(ATTFindByTypeValueRequest(
                range: walk.range, attributeType: .primaryService, attributeValue: value[...])))
        }
        return .request(.readByGroupTypeRequest(ATTAttributeTypeQuery(range: walk.range, attributeType: .primaryService)))
    }

    func receive(_ response: ATTPDU, mtu: UInt16) -> GATTStep {
        switch response {
        case let .readByGroupTypeResponse(list) where uuid == nil:
            let pdu = "Read By Group Type Response"
            for entry in list {
                if let e = walk.accept(entry.attributeHandle, through: entry.endGroupHandle, in: pdu) { return .failed(e) }
                guard entry.value.count == 2 || entry.value.count == 16,
                      let serviceUUID = BluetoothUUID(littleEndian: entry.value) else {
                    return .failed(.protocolViolation("\(pdu): service UUID of \(entry.value.count) bytes at \(HandleWalk.text(entry.attributeHandle))"))
                }
                services.append(GATTService(uuid: serviceUUID, startHandle: entry.attributeHandle, endHandle: entry.endGroupHandle))
            }
            if let e = walk.advance(in: pdu) { return .failed(e) }
            return nextRequest()
        case let .findByTypeValueResponse(list) where uuid != nil:
            let pdu = "Find By Type Value Response"
            for entry in list {
                if let e = walk.accept(entry.foundAttributeHandle, through: entry.groupEndHandle, in: pdu) { return .failed(e) }
                services.append(GATTService(uuid: uuid ?? .primaryService, startHandle: entry.foundAttributeHandle,
                                            endHandle: entry.groupEndHandle))
            }
            if let e = walk.advance(in: pdu) { return .failed(e) }
            return nextRequest()
        case let .errorResponse(e):
            return e.errorCode == .attributeNotFound ? .done : .failed(e)
        default:
            return .unexpected(response, in: "primary service discovery")
        }
    }

    var result: GATTResult { .services(services) }
}
