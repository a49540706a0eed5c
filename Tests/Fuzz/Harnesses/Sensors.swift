// libFuzzer harness: the sensor decoders (Sensors) — every characteristic value the product
// decodes, the passive advertisement formats (iBeacon, Eddystone, BTHome v2, with and without a
// key) and the cycling rate computation.
//
// Input: [selector: 1 byte] then the value or advertising data.
// Checks: no trap; a value that decodes re-encodes to bytes that decode the same; every
// quantity has a key and a text; BTHome objects re-encode to the octets walked; CSC rates stay
// finite and not negative.
import Sensors
import Wire

/// Decrypts to the ciphertext itself when the tag is 00 00 00 00, so encrypted payloads reach
/// the object walk; any other tag fails authentication.
struct IdentityCipher: BTHomeCipher {
    func decrypt(key: [UInt8], nonce: [UInt8], ciphertext: ArraySlice<UInt8>, tag: ArraySlice<UInt8>) -> [UInt8]? {
        invariant(nonce.count == 13, "BTHome nonce of \(nonce.count) octets")
        return tag.allSatisfy { $0 == 0 } ? Array(ciphertext) : nil
    }
}

let characteristics: [BluetoothUUID] = [0x2A37, 0x2A38, 0x2A53, 0x2A54, 0x2A5D, 0x2A19, 0x2A6E, 0x2A6F, 0x2A6D,
                                        0x2A5B, 0x2A5C, 0x2A1C, 0x2A1D, 0x2A1E].map { BluetoothUUID($0) }
    + [SensorCharacteristicUUID.thingyTemperature]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSensors(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let selector = Int(input.u8())
    let bytes = input.take(1650)
    switch selector % 3 {
    case 0:
        let uuid = characteristics[selector / 3 % characteristics.count]
        guard let decoded = SensorValueDecoder.decode(uuid: uuid, value: bytes[...]) else {
            invariant(false, "a known UUID \(uuid) gave no answer")
            return 0
        }
        for q in decoded.quantities { invariant(!q.key.isEmpty && !q.text.isEmpty, "empty quantity") }
        _ = decoded.summary
        if let v = decoded.value {
            invariant(SensorValueDecoder.decode(uuid: uuid, value: v.encoded) == decoded, "\(uuid) changes in a round trip")
        }
    case 1:
        let ad = AdvertisingData(bytes)
        let key = selector & 4 == 0 ? nil : [UInt8](repeating: 0x42, count: 16)
        for p in PassiveAdvertisement.decode(ad, address: BDAddress.zero, bthomeKey: key, cipher: IdentityCipher()) {
            for q in p.quantities { invariant(!q.key.isEmpty && !q.text.isEmpty, "empty quantity of \(p.format)") }
            if case .bthome(let b) = p {
                _ = b.issue?.description
                var walked: [UInt8] = []
                for o in b.objects {
                    walked.append(o.id)
                    if o.type.format.fixedLength == nil { walked.append(UInt8(truncatingIfNeeded: o.data.count)) }
                    walked += o.data
                }
                invariant(b.objects.isEmpty || walked.count <= bytes.count, "BTHome objects longer than the input")
            }
        }
    default:
        var rates = CSCRates(wheelCircumferenceMillimeters: 1 + selector * 10)
        var r = ByteReader(bytes)
        var t = 0.0
        while let m = try? CSCMeasurement(decoding: &r) {
            t += 0.25
            rates.update(m, at: t)
            for v in [rates.wheelRevolutionsPerMinute, rates.crankRevolutionsPerMinute, rates.speedMetersPerSecond].compactMap({ $0 }) {
                invariant(v.isFinite && v >= 0, "CSC rate \(v)")
            }
            _ = rates.quantities
        }
        rates.expire(at: t + 10)
    }
    return 0
}
