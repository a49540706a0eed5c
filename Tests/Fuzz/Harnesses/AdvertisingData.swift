// libFuzzer harness: advertising data (Wire/Advertising) — the AD structure walk, every typed
// value and every accessor a scanner or the dissector uses.
//
// Input: [service UUID probe: 2 bytes] then the advertising data (up to 1650 bytes, the
// extended advertising maximum; legacy data is 31).
// Checks: no trap; the structures walked, encoded again, give back the input up to where the
// walk stopped; a value that decodes encodes to data that decodes to the same value.
import Wire

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAdvertisingData(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let probe = BluetoothUUID(input.u16())
    let bytes = input.take(1650)
    let ad = AdvertisingData(bytes)

    // The walk covers a prefix of the input, structure by structure.
    var w = ByteWriter(capacity: bytes.count)
    var count = 0
    for s in ad {
        invariant(s.offset == w.count, "structure at offset \(s.offset), expected \(w.count)")
        s.encode(into: &w)
        count += 1
        _ = s.problem
        if let value = s.value {
            let again = try? ADValue.decode(type: s.type, data: value.encodedData[...])
            invariant(again == value, "\(s.type.name) value changes in an encode/decode round trip [\(Hex.spaced(s.data))]")
            invariant(s.problem == nil, "a structure that decodes has a problem")
        } else {
            invariant(s.problem != nil, "a structure that does not decode has no problem")
        }
    }
    invariant(w.bytes[...] == bytes.prefix(w.count), "re-encoded structures differ from the input")
    invariant(count == ad.structureCount, "structure count")
    if ad.issues.isEmpty, ad.padding == nil {
        invariant(w.count == bytes.count, "well-formed data not walked to its end")
    }
    if let p = ad.padding {
        invariant(p.offset == w.count && p.offset + p.length == bytes.count, "padding does not cover the rest")
    }
    for issue in ad.issues { _ = issue.description }

    _ = ad.values
    _ = ad.flags
    _ = ad.localName
    _ = ad.isLocalNameShortened
    _ = ad.serviceUUIDs
    _ = ad.solicitedServiceUUIDs
    _ = ad.advertisesService(probe)
    _ = ad.hasCompleteServiceList
    _ = ad.manufacturerData
    _ = ad.allManufacturerData
    _ = ad.txPower
    _ = ad.appearance
    _ = ad.serviceData
    _ = ad.serviceData(for: probe)
    _ = ad.peripheralConnectionIntervalRange
    _ = ad.uri
    _ = ad.leRole
    _ = ad.advertisingInterval
    _ = ad.leBluetoothDeviceAddress
    _ = ad.summary
    var fields = FieldList()
    ad.describeFields(into: &fields)

    // What was understood survives being built again.
    let rebuilt = AdvertisingData(structures: ad.structures.filter { $0.data.count <= 254 })
    invariant(rebuilt.structureCount == ad.structures.filter { $0.data.count <= 254 }.count, "rebuilt structure count")
    return 0
}
