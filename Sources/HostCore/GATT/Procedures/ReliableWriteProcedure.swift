import Wire

/// Reliable Writes (Core Spec v5.4 Vol 3, Part G, §4.9.5): the values of several
/// characteristics (or several parts of one) queued at the server with Prepare Write, every
/// echo checked against what was sent, then one Execute Write, so the server writes all of
/// them or none. A wrong echo or a refused part cancels the queue (`PreparedWriteQueue`).
final class ReliableWriteProcedure: GATTProcedure {
    private var queue: PreparedWriteQueue

    init(writes: [(handle: UInt16, value: [UInt8])]) {
        queue = PreparedWriteQueue(writes: writes)
    }

    func start(mtu: UInt16) -> GATTStep {
        if let refusal = queue.refusal { return .failed(refusal) }
        return queue.nextRequest(mtu: mtu)
    }

    func receive(_ response: ATTPDU, mtu: UInt16) -> GATTStep {
        queue.receive(response, mtu: mtu, procedure: "Reliable Writes")
    }

    var result: GATTResult { .done }
}
