// libFuzzer harness: the HCI command decoder (HCICommandPacket and HCICommandCatalog) over
// arbitrary command packets, and the catalog's return-parameter decoders over the same bytes
// (what a Command Complete for that opcode would carry).
//
// Checks: no trap; the packet re-encodes to a packet equal to itself; every parameter block the
// catalog decodes re-encodes to bytes that decode to the same fields.
import Wire

/// The fields of a decoded value, for comparing values known only as `any FieldDescribing`.
private func fields(_ value: any FieldDescribing) -> [FieldList.Entry] {
    var f = FieldList()
    value.describeFields(into: &f)
    _ = value.summary
    return f.entries
}

private func checkRoundTrip(_ result: Result<any FieldDescribing, WireError>?, what: String,
                            decodeAgain: (ArraySlice<UInt8>) -> Result<any FieldDescribing, WireError>?) {
    guard case let .success(value)? = result else { return }
    let first = fields(value)
    guard let codable = value as? any WireCodable else { return }
    let encoded = codable.encoded
    switch decodeAgain(encoded[...]) {
    case let .success(again)?:
        invariant(fields(again) == first, "\(what) changes in an encode/decode round trip [\(Hex.spaced(encoded))]")
    case let .failure(error)?:
        invariant(false, "\(what): re-encoded parameters do not decode: \(error) [\(Hex.spaced(encoded))]")
    case nil:
        invariant(false, "\(what): the catalog forgot the opcode")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHCICommand(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).bytes
    let packet: HCICommandPacket
    do {
        packet = try HCICommandPacket(bytes: bytes[...])
    } catch {
        _ = error.description
        return 0
    }
    let opcode = packet.opcode
    _ = opcode.name
    _ = fields(packet)
    invariant((try? HCICommandPacket(bytes: packet.encoded)) == packet, "command packet round trip")

    checkRoundTrip(HCICommandCatalog.decodeParameters(opcode: opcode, packet.parameters),
                   what: "\(opcode.name) parameters") {
        HCICommandCatalog.decodeParameters(opcode: opcode, $0)
    }
    checkRoundTrip(HCICommandCatalog.decodeReturnParameters(opcode: opcode, packet.parameters),
                   what: "\(opcode.name) return parameters") {
        HCICommandCatalog.decodeReturnParameters(opcode: opcode, $0)
    }
    _ = HCICommandCatalog.completesWithStatus(opcode)
    return 0
}
