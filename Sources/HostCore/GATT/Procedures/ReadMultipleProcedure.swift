import Wire

/// Read Multiple Characteristic Values (Core Spec v5.4 Vol 3, Part G, §4.8.4): one
/// ATT_READ_MULTIPLE_REQ with two or more handles (Part F, §3.4.4.7). The answer is the values
/// one after the other with nothing between them, cut at ATT_MTU − 1 octets by the server: only
/// a client that knows each value's length can split it, so the result is that Set Of Values
/// as it came. `ReadMultipleVariableProcedure` is the form that carries lengths.
final class ReadMultipleProcedure: GATTProcedure {
    let handles: [UInt16]
    private(set) var setOfValues: [UInt8] = []

    init(handles: [UInt16]) {
        self.handles = handles
    }

    func start(mtu: UInt16) -> GATTStep {
        if let refusal = Self.refusal(handles, mtu: mtu, request: "Read Multiple Request") { return .failed(refusal) }
        return .request(.readMultipleRequest(handles: handles))
    }

    func receive(_ response: ATTPDU, mtu: UInt16) -> GATTStep {
        switch response {
        case let .readMultipleResponse(values):
            setOfValues = Array(values)
            return .done
        case let .errorResponse(e):
            return .failed(e)
        default:
            return .unexpected(response, in: "Read Multiple Characteristic Values")
        }
    }

    var result: GATTResult { .value(setOfValues) }

    /// Why `handles` cannot go in one request at this ATT_MTU: the Set Of Handles holds two or
    /// more (§3.4.4.7, §3.4.4.11) and must fit the PDU after its opcode.
    static func refusal(_ handles: [UInt16], mtu: UInt16, request: String) -> HostError? {
        if handles.count < 2 {
            return .invalidState("a \(request) takes two or more handles (Core Spec v5.4 Vol 3, Part F, §3.4.4.7); read a single handle with a plain read")
        }
        let room = maximumHandles(mtu: mtu)
        if handles.count > room {
            return .invalidState("\(handles.count) handles do not fit one \(request) at ATT_MTU \(mtu) (at most \(room))")
        }
        return nil
    }

    /// Handles that fit one request after the opcode.
    static func maximumHandles(mtu: UInt16) -> Int { (Int(mtu) - 1) / 2 }
}
