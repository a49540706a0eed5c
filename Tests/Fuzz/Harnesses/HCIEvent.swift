// libFuzzer harness: the HCI event decoder (Wire/HCI/Events) over arbitrary event packets
// (the bytes after the H4 indicator: code, length, parameters).
//
// Checks: no trap; a decoded event lists its fields and summary; encoding it and decoding the
// result gives the same event (the codec is symmetric on everything it accepts).
import Wire

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHCIEvent(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).bytes
    let event: HCIEvent
    do {
        event = try HCIEvent.decode(bytes[...])
    } catch {
        _ = error.description
        return 0
    }
    _ = event.name
    _ = event.code
    _ = event.leSubevent
    _ = event.summary
    var fields = FieldList()
    event.describeFields(into: &fields)

    let encoded = event.encoded
    let again: HCIEvent
    do {
        again = try HCIEvent.decode(encoded)
    } catch {
        invariant(false, "re-encoded \(event.name) does not decode: \(error) [\(Hex.spaced(encoded))]")
        return 0
    }
    invariant(again == event, "\(event.name) changes in an encode/decode round trip: [\(Hex.spaced(bytes))] → [\(Hex.spaced(encoded))]")
    _ = event.h4Bytes
    return 0
}
