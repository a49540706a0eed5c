import Testing
import TestSupport
import Wire
@testable import Sensors

@Suite struct PassiveFormatFuzzTests {
    /// Random advertising data built from the structures the passive decoders look at (Apple
    /// manufacturer data, Eddystone and BTHome service data) with random contents: decoding
    /// never traps, and everything reported has quantities or a named problem.
    @Test func randomAdvertisementsNeverTrap() {
        var rng = SplitMix64(seed: 0xFEAA)
        var found = [String: Int]()
        for _ in 0..<30_000 {
            var values: [ADValue] = []
            for _ in 0..<(1 + rng.below(3)) {
                switch rng.below(4) {
                case 0: values.append(.manufacturerSpecificData(ADManufacturerData(company: IBeacon.company,
                                                                                 data: [0x02, 0x15] + rng.bytes(rng.below(26)))))
                case 1: values.append(.serviceData(ADServiceData(uuid: EddystoneFrame.serviceUUID,
                                                                 data: [UInt8(rng.below(5) << 4)] + rng.bytes(rng.below(22)))))
                case 2: values.append(.serviceData(ADServiceData(uuid: BTHomeAdvertisement.serviceUUID,
                                                                 data: [0x40 | UInt8(rng.below(8))] + rng.bytes(rng.below(24)))))
                default: values.append(.unparsed(ADType(rawValue: UInt8(rng.below(256))), rng.bytes(rng.below(10))[...]))
                }
            }
            let ad = AdvertisingData(values: values)
            for p in PassiveAdvertisement.decode(ad, address: .zero, bthomeKey: rng.bytes(16), cipher: ExampleCipher()) {
                found[p.format, default: 0] += 1
                let q = p.quantities
                if case .malformed = p { #expect(q.isEmpty) }
                for x in q { #expect(!x.key.isEmpty && !x.text.isEmpty) }
            }
        }
        #expect(found["ibeacon", default: 0] > 100)
        #expect(found["eddystone", default: 0] > 100)
        #expect(found["bthome", default: 0] > 1000)
        #expect(found["iBeacon", default: 0] > 100)      // malformed (short) iBeacons, named
        #expect(found["Eddystone", default: 0] > 100)
    }
}
