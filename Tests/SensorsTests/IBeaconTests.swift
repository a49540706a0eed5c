import Testing
import TestSupport
import Wire
@testable import Sensors

@Suite struct IBeaconTests {
    @Test func decodesAndEncodes() throws {
        let uuid = try #require(BluetoothUUID(string: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"))
        let beacon = IBeacon(proximityUUID: uuid, major: 1, minor: 0x0203, measuredPower: -59)
        let data = beacon.manufacturerData
        #expect(Hex.string(data.data) == "0215e2c56db5dffb48d2b060d0f5a71096e00001020" + "3c5")
        #expect(try IBeacon.decode(data) == beacon)
        let q = PassiveAdvertisement.iBeacon(beacon).quantities
        #expect(q.map(\.text) == ["E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "1", "515", "-59 dBm"])
    }

    @Test func otherAppleTypesAndCompaniesAreNotIBeacons() throws {
        #expect(try IBeacon.decode(ADManufacturerData(company: IBeacon.company, data: bytes("10 05 14 18 E6 29 56"))) == nil)
        #expect(try IBeacon.decode(ADManufacturerData(company: CompanyIdentifier(0x0059), data: bytes("02 15") + [UInt8](repeating: 0, count: 21))) == nil)
        #expect(try IBeacon.decode(ADManufacturerData(company: IBeacon.company, data: [0x02])) == nil)
        #expect(throws: WireError.truncated(field: "iBeacon measured power", needed: 1, available: 0)) {
            try IBeacon.decode(ADManufacturerData(company: IBeacon.company, data: bytes("02 15") + [UInt8](repeating: 0, count: 20)))
        }
    }

    /// The FTMS treadmill capture (an Android phone near real Apple devices) holds real iBeacons
    /// among Apple's other advertisement types: tshark 4.0 shows its octets but does not
    /// decode them, so the expected fields are read off the octets by hand (UUID is the ASCII
    /// of "INTELLI_ROCKS_HW").
    @Test(.enabled(if: CaptureAdvertising.directory != nil,
                   "../shared/captures (real phone captures) is absent; nothing to check against"))
    func realBeaconInAPhoneCapture() throws {
        let dir = try #require(CaptureAdvertising.directory)
        let file = try #require(CaptureAdvertising.read(dir + "/ftms-treadmill-android.btsnoop"))
        var beacons: [IBeacon] = []
        var appleReports = 0
        for report in CaptureAdvertising.reports(in: file) {
            let ad = AdvertisingData(report)
            if ad.allManufacturerData.contains(where: { $0.company == IBeacon.company }) { appleReports += 1 }
            for p in PassiveAdvertisement.decode(ad, address: .zero) {
                if case .iBeacon(let b) = p { beacons.append(b) }
                if case .malformed = p { Issue.record("malformed passive format in a real capture: \(p)") }
            }
        }
        #expect(appleReports == 109)
        // `tshark -Y 'btcommon.eir_ad.entry.data contains 02:15'` shows 11 such reports: 10 with
        // major 0x5072, 1 with 0x5075, same UUID, minor 0xF2FF, power 0xC2.
        #expect(beacons.count == 11)
        #expect(beacons.filter { $0.major == 0x5072 }.count == 10 && beacons.filter { $0.major == 0x5075 }.count == 1)
        for b in beacons {
            #expect(b.proximityUUID.fullString == "494E5445-4C4C-495F-524F-434B535F4857")
            #expect(b.minor == 0xF2FF && b.measuredPower == -62)
        }
    }
}
