import Wire

/// Discover All Characteristic Descriptors (Core Spec v5.4 Vol 3, Part G, §4.7.1): Find
/// Information from the value handle + 1 to the characteristic's end. Nothing is asked when
/// that range is empty. Over a range of the caller's choosing it lists every attribute there
/// with its type (Find Information cannot tell descriptors from other attributes).
final class DiscoverDescriptorsProcedure: GATTProcedure {
    private var walk: HandleWalk
    private(set) var descriptors: [GATTDescriptor] = []

    init(characteristic: GATTCharacteristic) {
        // valueHandle < endHandle keeps the + 1 from overflowing; otherwise the walk is empty.
        if characteristic.valueHandle < characteristic.endHandle {
            walk = HandleWalk(start: characteristic.valueHandle + 1, end: characteristic.endHandle)
        } else {
            walk = HandleWalk(start: 1, end: 0)
        }
    }

    init(range: ClosedRange<UInt16>) {
        walk = HandleWalk(start: range.lowerBound, end: range.upperBound)
    }

    /// Whether the characteristic has room for any descriptor at all.
    var isEmpty: Bool { walk.isFinished }

    func start(mtu: UInt16) -> GATTStep { nextRequest() }

    private func nextRequest() -> GATTStep {
        walk.isFinished ? .done : .request(.findInformationRequest(walk.range))
    }

    func receive(_ response: ATTPDU, mtu: UInt16) -> GATTStep {
        switch response {
        case let .findInformationResponse(info):
            let pdu = "Find Information Response"
            for entry in info.informationData {
                if let e = walk.accept(entry.handle, through: entry.handle, in: pdu) { return .failed(e) }
                descriptors.append(GATTDescriptor(uuid: entry.uuid, handle: entry.handle))
            }
            if let e = walk.advance(in: pdu) { return .failed(e) }
            return nextRequest()
        case let .errorResponse(e):
            return e.errorCode == .attributeNotFound ? .done : .failed(e)
        default:
            return .unexpected(response, in: "descriptor discovery")
        }
    }

    var result: GATTResult { .descriptors(descriptors) }
}
