// libFuzzer harness: the ATT PDU decoder (Wire/ATT) and the GATT declaration values a client
// parses out of discovery responses.
//
// Input: one ATT PDU (opcode first).
// Checks: no trap; a decoded PDU lists its fields; encoding it and decoding the result gives
// the same PDU; the values of a Read By Type Response parse as characteristic and include
// declarations (or throw), and those that parse survive a round trip too.
import Wire

private func roundTrips<T: WireCodable & Equatable>(_ type: T.Type, _ bytes: ArraySlice<UInt8>) {
    guard let value = try? T(bytes: bytes) else { return }
    invariant((try? T(bytes: value.encoded)) == value, "\(T.self) changes in an encode/decode round trip [\(Hex.spaced(bytes))]")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzATT(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).bytes
    let pdu: ATTPDU
    do {
        pdu = try ATTPDU.decode(bytes[...])
    } catch {
        _ = error.description
        return 0
    }
    _ = pdu.name
    _ = pdu.summary
    _ = pdu.opcode.kind
    _ = pdu.opcode.responseOpcode
    var fields = FieldList()
    pdu.describeFields(into: &fields)

    let encoded = pdu.encoded
    invariant((try? ATTPDU.decode(encoded)) == pdu,
              "\(pdu.name) changes in an encode/decode round trip [\(Hex.spaced(bytes))] → [\(Hex.spaced(encoded))]")
    _ = pdu.frame(handle: 0x0040).pduBytes

    switch pdu {
    case let .readByTypeResponse(list):
        for item in list {
            roundTrips(CharacteristicDeclaration.self, item.value)
            roundTrips(IncludeDeclaration.self, item.value)
        }
    case let .readResponse(value), let .readBlobResponse(value):
        roundTrips(CharacteristicDeclaration.self, value)
        roundTrips(ClientCharacteristicConfiguration.self, value)
    default:
        break
    }
    return 0
}
