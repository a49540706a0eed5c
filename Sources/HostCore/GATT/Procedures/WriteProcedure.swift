import Wire

/// Write Characteristic Value (Core Spec v5.4 Vol 3, Part G, §4.9.3) — also used to write a
/// Client Characteristic Configuration descriptor (§4.12.3) — or, when `withoutResponse`,
/// Write Without Response (§4.9.1), which completes as soon as the command is handed over.
final class WriteProcedure: GATTProcedure {
    let handle: UInt16
    let value: [UInt8]
    let withoutResponse: Bool

    init(handle: UInt16, value: [UInt8], withoutResponse: Bool = false) {
        self.handle = handle
        self.value = value
        self.withoutResponse = withoutResponse
    }

    func start(mtu: UInt16) -> GATTStep {
        // Opcode and handle take 3 bytes of the PDU (Vol 3, Part F, §3.4.5.1, §3.4.5.3).
        let room = Int(mtu) - 3
        guard value.count <= room else {
            return .failed(.invalidState("a value of \(value.count) bytes does not fit one write (ATT_MTU \(mtu) leaves \(room)); a long write (writeLong) writes it in parts"))
        }
        let hv = ATTHandleValue(handle: handle, value: value[...])
        return withoutResponse ? .command(.writeCommand(hv)) : .request(.writeRequest(hv))
    }

    func receive(_ response: ATTPDU, mtu: UInt16) -> GATTStep {
        switch response {
        case .writeResponse: return .done
        case let .errorResponse(e): return .failed(e)
        default: return .unexpected(response, in: "Write Characteristic Value")
        }
    }

    var result: GATTResult { .done }
}
