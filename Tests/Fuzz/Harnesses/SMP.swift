// libFuzzer harness: the Security Manager Protocol PDU decoder (Wire/SMP).
//
// Input: one SMP PDU (code first).
// Checks: no trap; a decoded PDU describes itself with keys redacted and shown; the redacted
// description holds no byte of a key; encoding it and decoding the result gives the same PDU
// and the same bytes.
import Wire

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSMP(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).bytes
    let pdu: SMPPDU
    do {
        pdu = try SMPPDU.decode(bytes[...])
    } catch {
        _ = error.description
        return 0
    }
    _ = pdu.name
    _ = pdu.summary
    _ = pdu.code.specIdentifier
    var redacted = FieldList()
    pdu.describeFields(into: &redacted)
    var shown = FieldList()
    pdu.describeFields(into: &shown, keys: .shown)
    if pdu.carriesKey {
        let keyText = Hex.spaced(bytes.dropFirst())
        invariant(!redacted.text.string.contains(keyText), "\(pdu.name): the redacted fields show the key")
        invariant(shown.text.string.contains(keyText), "\(pdu.name): the shown fields lack the key")
        invariant(!pdu.summary.contains(keyText), "\(pdu.name): the summary shows the key")
    }
    let encoded = pdu.encoded
    invariant(encoded == bytes, "\(pdu.name) re-encodes differently [\(Hex.spaced(bytes))] → [\(Hex.spaced(encoded))]")
    invariant((try? SMPPDU.decode(encoded)) == pdu, "\(pdu.name) changes in a round trip")
    return 0
}
