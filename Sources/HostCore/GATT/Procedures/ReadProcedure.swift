import Wire

/// Read Characteristic Value (Core Spec v5.4 Vol 3, Part G, §4.8.1) and, when `long`, Read
/// Long Characteristic Values (§4.8.3): Read, then Read Blob from the bytes read so far while
/// each answer fills the PDU (ATT_MTU − 1 bytes).
final class ReadProcedure: GATTProcedure {
    /// An attribute value is at most 512 octets (Vol 3, Part F, §3.2.9); a peer that keeps
    /// sending full blobs past that is broken or hostile, and the read stops.
    static let maximumValueLength = 512

    let handle: UInt16
    let long: Bool
    private(set) var value: [UInt8] = []

    init(handle: UInt16, long: Bool) {
        self.handle = handle
        self.long = long
    }

    func start(mtu: UInt16) -> GATTStep {
        .request(.readRequest(handle: handle))
    }

    func receive(_ response: ATTPDU, mtu: UInt16) -> GATTStep {
        let part: ArraySlice<UInt8>
        switch response {
        case let .readResponse(v) where value.isEmpty:
            part = v
        case let .readBlobResponse(v) where long:
            part = v
        case let .errorResponse(e):
            // A blob request at the value's exact end may get Attribute Not Long or Invalid
            // Offset instead of an empty answer: the value is complete.
            if e.requestOpcodeInError == .readBlobRequest,
               e.errorCode == .attributeNotLong || e.errorCode == .invalidOffset {
                return .done
            }
            return .failed(e)
        default:
            return .unexpected(response, in: long ? "Read Long Characteristic Values" : "Read Characteristic Value")
        }
        value.append(contentsOf: part)
        guard long, part.count >= Int(mtu) - 1 else { return .done }
        guard value.count <= Self.maximumValueLength, let offset = UInt16(exactly: value.count) else {
            return .failed(.protocolViolation("Read Blob: value of handle \(HandleWalk.text(handle)) goes past \(Self.maximumValueLength) octets"))
        }
        return .request(.readBlobRequest(handle: handle, valueOffset: offset))
    }

    var result: GATTResult { .value(value) }
}
