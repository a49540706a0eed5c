// libFuzzer harness: LE signaling (CID 0x0005) commands — the Wire codec
// (Wire/L2CAP/LESignalingCommand.swift) and the host's answers to them
// (HostCore/Link/LESignalingResponder.swift, through @testable import), plus the Security
// Manager answer over the same bytes.
//
// Input: one C-frame payload.
// Checks: no trap; a decoded command re-encodes to bytes that decode to the same command; the
// host answers every request it decodes (no peer is left waiting for the RTX timer), and its
// answer itself encodes and decodes.
import Wire
@testable import HostCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLESignaling(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).bytes
    let payload = bytes[...]

    let reply = LESignalingResponder.answer(payload)
    _ = reply.warning?.description
    if let response = reply.response {
        let encoded = response.encoded
        invariant((try? LESignalingCommand.decode(encoded)) == response, "the host's answer does not survive a round trip")
    }
    _ = SecurityManagerResponder.answer(payload)

    let command: LESignalingCommand
    do {
        command = try LESignalingCommand.decode(payload)
    } catch {
        _ = error.description
        return 0
    }
    var fields = FieldList()
    command.describeFields(into: &fields)
    _ = command.summary
    _ = command.code.name
    let encoded = command.encoded
    invariant((try? LESignalingCommand.decode(encoded)) == command,
              "\(command.code.name) changes in an encode/decode round trip [\(Hex.spaced(bytes))] → [\(Hex.spaced(encoded))]")
    _ = command.frame(handle: 0x0040).pduBytes

    // Requests with a valid identifier are always answered (Core Spec v5.4 Vol 3, Part A, §4).
    switch command {
    case let .connectionParameterUpdateRequest(id, _), let .leCreditBasedConnectionRequest(id, _),
         let .disconnectionRequest(id, _), let .creditBasedConnectionRequest(id, _),
         let .creditBasedReconfigureRequest(id, _), let .unknown(_, id, _):
        if id != 0 { invariant(reply.response != nil, "request \(command.code.name) left unanswered") }
    default:
        break
    }
    return 0
}
