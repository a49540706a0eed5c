import Wire

/// Exchange MTU (Core Spec v5.4 Vol 3, Part G, §4.3.1; Part F, §3.4.2): tell the server our
/// receive MTU, learn its own; the bearer then uses the smaller, never below 23.
final class ExchangeMTUProcedure: GATTProcedure {
    let clientRxMTU: UInt16
    private(set) var negotiated: UInt16?

    init(clientRxMTU: UInt16) {
        self.clientRxMTU = max(clientRxMTU, ATTBearer.defaultMTU)
    }

    func start(mtu: UInt16) -> GATTStep {
        .request(.exchangeMTURequest(clientRxMTU: clientRxMTU))
    }

    func receive(_ response: ATTPDU, mtu: UInt16) -> GATTStep {
        switch response {
        case let .exchangeMTUResponse(serverRxMTU):
            negotiated = ATTBearer.negotiatedMTU(clientRxMTU, serverRxMTU)
            return .done
        case let .errorResponse(e):
            return .failed(e)
        default:
            return .unexpected(response, in: "Exchange MTU")
        }
    }

    var result: GATTResult { .mtu(negotiated ?? ATTBearer.defaultMTU) }
}
