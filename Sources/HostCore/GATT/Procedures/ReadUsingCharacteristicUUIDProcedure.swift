import Wire

/// Read Using Characteristic UUID (Core Spec v5.4 Vol 3, Part G, §4.8.2): Read By Type over a
/// range, continued from the last handle + 1 so every matching value in the range is returned.
/// Values longer than ATT_MTU − 4 come back cut, as the server sends them.
final class ReadUsingCharacteristicUUIDProcedure: GATTProcedure {
    let type: BluetoothUUID
    private var walk: HandleWalk
    private(set) var values: [(handle: UInt16, value: [UInt8])] = []

    init(type: BluetoothUUID, range: ClosedRange<UInt16>) {
        self.type = type
        walk = HandleWalk(start: range.lowerBound, end: range.upperBound)
    }

    func start(mtu: UInt16) -> GATTStep {
        if walk.isFinished {
            return .failed(.invalidState("Read By Type range \(HandleWalk.text(walk.start))-\(HandleWalk.text(walk.end)) is empty or starts at handle 0"))
        }
        return nextRequest()
    }

    private func nextRequest() -> GATTStep {
        walk.isFinished ? .done : .request(.readByTypeRequest(ATTAttributeTypeQuery(range: walk.range, attributeType: type)))
    }

    func receive(_ response: ATTPDU, mtu: UInt16) -> GATTStep {
        switch response {
        case let .readByTypeResponse(list):
            let pdu = "Read By Type Response"
            for entry in list {
                if let e = walk.accept(entry.handle, through: entry.handle, in: pdu) { return .failed(e) }
                values.append((entry.handle, Array(entry.value)))
            }
            if let e = walk.advance(in: pdu) { return .failed(e) }
            return nextRequest()
        case let .errorResponse(e):
            // Attribute Not Found ends a continuation; on the first request it is the answer.
            return e.errorCode == .attributeNotFound && !values.isEmpty ? .done : .failed(e)
        default:
            return .unexpected(response, in: "Read Using Characteristic UUID")
        }
    }

    var result: GATTResult { .values(values) }
}
