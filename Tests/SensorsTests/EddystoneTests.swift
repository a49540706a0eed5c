import Testing
import TestSupport
import Wire
@testable import Sensors

@Suite struct EddystoneTests {
    @Test func uid() throws {
        let withRFU = bytes("00 EE ED D1 EB EA C0 4E 5D EF A0 17 0B DB 87 53 9B 67 00 00")
        guard case .uid(let u) = try EddystoneFrame.decode(serviceData: withRFU[...]) else { Issue.record("not UID"); return }
        #expect(u.txPower == -18)
        #expect(u.beaconID == "edd1ebeac04e5defa017-0bdb87539b67")
        // Beacons that leave the two reserved octets out decode the same.
        #expect(try EddystoneFrame.decode(serviceData: withRFU.dropLast(2)) == .uid(u))
        #expect(EddystoneFrame.uid(u).serviceData == withRFU)
        #expect(throws: WireError.truncated(field: "Eddystone-UID instance", needed: 6, available: 5)) {
            try EddystoneFrame.decode(serviceData: withRFU.prefix(17))
        }
    }

    @Test func urlSchemesAndExpansions() throws {
        // eddystone-url/README.md: scheme 0x03 "https://", then ASCII; 0x00 ".com/", 0x07 ".com".
        let cases: [(String, String)] = [
            ("10 12 03 67 6F 6F 2E 67 6C 2F 53 36 7A 54 36 50", "https://goo.gl/S6zT6P"),
            ("10 EE 00 65 78 61 6D 70 6C 65 00", "http://www.example.com/"),
            ("10 00 01 61 07 2F 62 0D", "https://www.a.com/b.gov"),
            ("10 00 02", "http://"),
        ]
        for (hex, url) in cases {
            guard case .url(let u) = try EddystoneFrame.decode(serviceData: bytes(hex)[...]) else { Issue.record("\(hex)"); continue }
            #expect(u.url == url)
            #expect(u.isEncodable)
            // Re-encoding may pick another expansion (".com/" for ".com" "/"), never another URL.
            #expect(try EddystoneFrame.decode(serviceData: EddystoneFrame.url(u).serviceData) == .url(u))
        }
        #expect(EddystoneFrame.url(EddystoneURL(txPower: 0x12, url: "https://goo.gl/S6zT6P")).serviceData
                == bytes("10 12 03 67 6F 6F 2E 67 6C 2F 53 36 7A 54 36 50"))
        #expect(EddystoneFrame.url(EddystoneURL(txPower: 0, url: "https://www.a.com/b.gov")).serviceData == bytes("10 00 01 61 00 62 0D"))
        #expect(throws: WireError.invalidValue(field: "Eddystone-URL scheme", value: 4)) {
            try EddystoneFrame.decode(serviceData: bytes("10 00 04 61")[...])
        }
        #expect(throws: WireError.invalidValue(field: "Eddystone-URL character", value: 0x0E)) {
            try EddystoneFrame.decode(serviceData: bytes("10 00 03 61 0E")[...])
        }
        #expect(throws: WireError.invalidValue(field: "Eddystone-URL character", value: 0x80)) {
            try EddystoneFrame.decode(serviceData: bytes("10 00 03 80")[...])
        }
        #expect(throws: WireError.malformed("Eddystone-URL of 18 octets is longer than 17")) {
            try EddystoneFrame.decode(serviceData: bytes("10 00 03") + [UInt8](repeating: 0x61, count: 18))
        }
        #expect(!EddystoneURL(txPower: 0, url: "https://ünïcode.example").isEncodable)
    }

    @Test func telemetry() throws {
        // tlm-plain.md: VBATT 3000 mV, TEMP 0x1780 = 23.5 °C (8.8), ADV_CNT 256, SEC_CNT 10000 × 0.1 s.
        let hex = "20 00 0B B8 17 80 00 00 01 00 00 00 27 10"
        guard case .tlm(let t) = try EddystoneFrame.decode(serviceData: bytes(hex)[...]) else { Issue.record("not TLM"); return }
        #expect(t.batteryMillivolts == 3000 && t.temperatureHundredths == 2350)
        #expect(t.advertisingCount == 256 && t.uptimeTenths == 10000)
        #expect(EddystoneFrame.tlm(t).quantities.map(\.text) == ["3.000 V", "23.50 °C", "256", "1000.0 s"])
        #expect(EddystoneFrame.tlm(t).serviceData == bytes(hex))
        let unsupported = try EddystoneFrame.decode(serviceData: bytes("20 00 00 00 80 00 00 00 00 01 00 00 00 02")[...])
        #expect(unsupported.quantities.prefix(2).map(\.value) == [.unavailable("not supported"), .unavailable("not supported")])
        let negative = EddystoneTLM(batteryMillivolts: 1, temperatureRaw: -0x0280, advertisingCount: 0, uptimeTenths: 0)
        #expect(negative.temperatureHundredths == -250)
        let encrypted = try EddystoneFrame.decode(serviceData: bytes("20 01 01 02 03 04 05 06 07 08 09 0A 0B 0C 12 34 AB CD")[...])
        #expect(encrypted == .encryptedTLM(EddystoneEncryptedTLM(encryptedTelemetry: Array(1...12), salt: 0x1234, mic: 0xABCD)))
        #expect(throws: WireError.invalidValue(field: "Eddystone-TLM version", value: 2)) {
            try EddystoneFrame.decode(serviceData: bytes("20 02 00")[...])
        }
    }

    @Test func eidAndUnknownFrames() throws {
        let eid = try EddystoneFrame.decode(serviceData: bytes("30 F6 01 02 03 04 05 06 07 08")[...])
        #expect(eid == .eid(EddystoneEID(txPower: -10, ephemeralID: Array(1...8))))
        #expect(eid.quantities.first?.text == "0102030405060708")
        #expect(throws: WireError.invalidValue(field: "Eddystone frame type", value: 0x40)) {
            try EddystoneFrame.decode(serviceData: bytes("40 00")[...])
        }
        #expect(throws: WireError.truncated(field: "Eddystone frame type", needed: 1, available: 0)) {
            try EddystoneFrame.decode(serviceData: [][...])
        }
    }

    @Test func inAdvertisingData() throws {
        let ad = AdvertisingData(values: [.flags(ADFlags(rawValue: 6)),
                                          .serviceUUIDs(ServiceUUIDList([EddystoneFrame.serviceUUID], width: .bits16)),
                                          .serviceData(ADServiceData(uuid: EddystoneFrame.serviceUUID, data: bytes("10 00 03 61 07")))])
        let found = PassiveAdvertisement.decode(ad, address: .zero)
        #expect(found == [.eddystone(.url(EddystoneURL(txPower: 0, url: "https://a.com")))])
        let bad = AdvertisingData(values: [.serviceData(ADServiceData(uuid: EddystoneFrame.serviceUUID, data: bytes("10 00 09")))])
        #expect(PassiveAdvertisement.decode(bad, address: .zero) == [.malformed(format: "Eddystone", .invalidValue(field: "Eddystone-URL scheme", value: 9))])
    }
}
