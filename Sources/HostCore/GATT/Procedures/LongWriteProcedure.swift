import Wire

/// Write Long Characteristic Values (Core Spec v5.4 Vol 3, Part G, §4.9.4): Prepare Write in
/// chunks of ATT_MTU − 5 bytes, then Execute Write (`PreparedWriteQueue`). Each Prepare Write
/// Response must echo the request (as Reliable Writes require, §4.9.5); on a mismatch the
/// queued parts are cancelled with Execute Write (flags 0x00) and the write fails.
final class LongWriteProcedure: GATTProcedure {
    let handle: UInt16
    let value: [UInt8]
    private var queue: PreparedWriteQueue

    init(handle: UInt16, value: [UInt8]) {
        self.handle = handle
        self.value = value
        queue = PreparedWriteQueue(writes: [(handle, value)])
    }

    func start(mtu: UInt16) -> GATTStep {
        if let refusal = queue.refusal { return .failed(refusal) }
        // Nothing to queue: a plain write of the empty value.
        if value.isEmpty {
            return .request(.writeRequest(ATTHandleValue(handle: handle, value: value[...])))
        }
        return queue.nextRequest(mtu: mtu)
    }

    func receive(_ response: ATTPDU, mtu: UInt16) -> GATTStep {
        guard value.isEmpty else { return queue.receive(response, mtu: mtu, procedure: "Write Long Characteristic Values") }
        switch response {
        case .writeResponse: return .done
        case let .errorResponse(e): return .failed(e)
        default: return .unexpected(response, in: "Write Long Characteristic Values")
        }
    }

    var result: GATTResult { .done }
}
