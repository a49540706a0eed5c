import Testing
import TestSupport
import Wire
@testable import Sensors

/// A stand-in for AES-CCM that knows one answer: bthome.io/encryption's example (key
/// 231d39c1…, MAC 54:48:E6:8F:80:A5, counter 00112233, plaintext 02CA09 03BF13), whose MIC
/// without the v1 header (v2 has none) is 78237214 — computed with Python cryptography's
/// AESCCM; the vectors in bthome-ble's tests (…b7ced8e5) still carry the v1 header 0x11. It
/// checks that the decoder builds the nonce and splits ciphertext and MIC as the format says;
/// the real cipher (Nettle) is tested in GatewayTests against the same vector.
struct ExampleCipher: BTHomeCipher {
    func decrypt(key: [UInt8], nonce: [UInt8], ciphertext: ArraySlice<UInt8>, tag: ArraySlice<UInt8>) -> [UInt8]? {
        guard key == bytes("23 1d 39 c1 d7 cc 1a b1 ae e2 24 cd 09 6d b9 32"),
              nonce == bytes("54 48 E6 8F 80 A5 D2 FC 41 00 11 22 33"),
              Array(ciphertext) == bytes("a4 72 66 c9 5f 73"), Array(tag) == bytes("78 23 72 14") else { return nil }
        return bytes("02 CA 09 03 BF 13")
    }
}

@Suite struct BTHomeTests {
    static func decode(_ hex: String) -> BTHomeAdvertisement { BTHomeAdvertisement(serviceData: bytes(hex)) }

    @Test func theFormatPagesExample() {
        // bthome.io/format: 0A16D2FC 40 02C409 03BF13 — 25.00 °C, 50.55 %.
        let b = Self.decode("40 02 C4 09 03 BF 13")
        #expect(b.issue == nil)
        #expect(b.deviceInfo.version == 2 && !b.deviceInfo.isEncrypted && !b.deviceInfo.isTriggerBased)
        let q = PassiveAdvertisement.bthome(b).quantities
        #expect(q.map(\.text) == ["25.00 °C", "50.55 %"])
        #expect(q.map(\.deviceClass) == [.temperature, .humidity])
        #expect(q.map(\.key) == ["temperature", "humidity"])
    }

    /// Examples from bthome.io's object tables: object octets and the value they stand for.
    static let objects: [(String, String)] = [
        ("01 61", "97 %"), ("04 13 8A 01", "1008.83 hPa"), ("05 13 8A 14", "13460.67 lx"),
        ("06 5E 1F", "80.30 kg"), ("07 3E 1D", "74.86 lb"), ("08 CA 06", "17.38 °C"), ("09 60", "96"),
        ("0A 13 8A 14", "1346.067 kWh"), ("0B 02 1B 00", "69.14 W"), ("0C 02 0C", "3.074 V"),
        ("0D 12 0C", "3090 µg/m³"), ("0E 02 1C", "7170 µg/m³"), ("12 E2 04", "1250 ppm"),
        ("13 33 01", "307 µg/m³"), ("14 02 0C", "30.74 %"), ("2E 23", "35 %"), ("2F 23", "35 %"),
        ("3D 09 60", "24585"), ("3E 2A 2C 09 60", "1611213866"), ("3F 02 0C", "307.4 °"),
        ("40 0C 00", "12 mm"), ("41 4E 00", "7.8 m"), ("42 4E 34 00", "13.390 s"), ("43 4E 34", "13.390 A"),
        ("44 4E 34", "133.90 m/s"), ("45 11 01", "27.3 °C"), ("46 32", "5.0"), ("47 87 56", "2215.1 L"),
        ("48 DC 87", "34780 mL"), ("49 DC 87", "34.780 m³/h"), ("4A 02 0C", "307.4 V"),
        ("4B 13 8A 14", "1346.067 m³"), ("4C 41 01 8A 01", "25821.505 m³"), ("4D 12 13 8A 14", "344593.170 kWh"),
        ("4E 87 56 2A 01", "19551.879 L"), ("4F 87 56 2A 01", "19551.879 L"), ("51 87 56", "22.151 m/s²"),
        ("52 87 56", "22.151 °/s"), ("55 87 56 2A 01", "19551.879 L"), ("56 04 13", "4868 µS/cm"),
        ("57 EA", "-22 °C"), ("58 30", "16.80 °C"), ("59 EA", "-22"), ("5A 0C F3", "-3316"),
        ("5B 0C F3 FF FF", "-3316"), ("5C 02 FB FF FF", "-12.78 W"), ("5D 01 80", "-32.767 A"),
        ("5E 27 74", "297.35 °"), ("5F 0C 00", "1.2 mm"), ("60 01", "1"), ("61 00 02", "512 rpm"),
        ("62 01 00 00 80", "-2147.483647 m/s"), ("F0 01 00", "1"),
        ("F1 04 03 02 01", "1.2.3.4"), ("F2 00 01 02", "2.1.0"),
        ("50 5D 39 61 64", "2023-05-14T19:41:17Z"), ("53 05 68 65 6C 6C 6F", "hello"), ("54 02 AB CD", "abcd"),
        ("3A 01", "press"), ("3A 04", "long_press"), ("3A 80", "hold_press"), ("3A 42", "event_0x42"),
        ("3C 01 03", "rotate_left 3"), ("3C 02 05", "rotate_right 5"), ("21 01", "on"), ("1A 00", "off"),
    ]

    @Test(arguments: 0..<objects.count)
    func object(index: Int) throws {
        let (hex, text) = Self.objects[index]
        let b = Self.decode("40 " + hex)
        #expect(b.issue == nil, "\(hex): \(String(describing: b.issue))")
        let q = try #require(PassiveAdvertisement.bthome(b).quantities.first)
        #expect(q.text == text, "\(hex)")
        #expect(b.objects.count == 1)
    }

    @Test func everyTableEntryIsConsistent() {
        #expect(Set(BTHomeObjectType.table.map(\.id)).count == BTHomeObjectType.table.count)
        for t in BTHomeObjectType.table {
            #expect(BTHomeObjectType.forID(t.id) == t)
            if t.kind == .binary { #expect(t.format == .binary) }
            if case .unsigned(let n) = t.format { #expect((1...4).contains(n)) }
            if case .signed(let n) = t.format { #expect((1...4).contains(n)) }
        }
        #expect(BTHomeObjectType.forID(0x30) == nil && BTHomeObjectType.forID(0xFF) == nil)
    }

    @Test func anUnknownObjectStopsDecodingWithANamedIssue() {
        let b = Self.decode("40 02 C4 09 FE 01 03 BF 13")
        #expect(b.objects.map(\.id) == [0x02])
        #expect(b.issue == .unknownObjectID(id: 0xFE, offset: 4))
        #expect(b.issue?.description == "unknown BTHome object id 0xFE at offset 4; its length is unknown, so decoding stops there")
    }

    @Test func truncationAndVersions() {
        #expect(Self.decode("40 03 BF").issue == .truncatedObject(id: 0x03, offset: 1, needed: 2, available: 1))
        #expect(Self.decode("40 53").issue == .truncatedObject(id: 0x53, offset: 1, needed: 1, available: 0))
        #expect(Self.decode("40 53 05 68 69").issue == .truncatedObject(id: 0x53, offset: 1, needed: 5, available: 2))
        #expect(Self.decode("20 02 C4 09").issue == .unsupportedVersion(1))
        #expect(Self.decode("").issue == .empty)
        #expect(Self.decode("42 A5 80").issue == .truncatedMAC(available: 2))
        #expect(Self.decode("41 01 02 03 04 05 06 07 08").issue == .truncatedEncryptedPayload(available: 8))
    }

    @Test func macTriggerAndRepeatedKeys() {
        let b = Self.decode("46 A5 80 8F E6 48 54 00 07 02 C4 09 02 10 0A 3A 01")
        #expect(b.deviceInfo.isMACIncluded && b.deviceInfo.isTriggerBased)
        #expect(b.macAddress?.string == "54:48:E6:8F:80:A5")
        #expect(b.packetID == 7)
        let q = PassiveAdvertisement.bthome(b).quantities
        #expect(q.map(\.key) == ["packet_id", "temperature", "temperature_2", "button"])
        #expect(q.map(\.kind) == [.diagnostic, .measurement, .measurement, .event])
    }

    @Test func encryptedWithoutAndWithAKey() throws {
        // bthome.io/encryption's example (see ExampleCipher): MAC 54:48:E6:8F:80:A5.
        let address = try #require(BDAddress(string: "54:48:E6:8F:80:A5"))
        let b = Self.decode("41 a4 72 66 c9 5f 73 00 11 22 33 78 23 72 14")
        #expect(b.issue == .encryptedWithoutKey && b.objects.isEmpty)
        #expect(b.encrypted?.counter == 0x3322_1100)
        #expect(b.nonce(address: address) == bytes("54 48 E6 8F 80 A5 D2 FC 41 00 11 22 33"))
        let key = bytes("23 1d 39 c1 d7 cc 1a b1 ae e2 24 cd 09 6d b9 32")
        let plain = b.decrypting(key: key, address: address, cipher: ExampleCipher())
        #expect(plain.issue == nil)
        #expect(PassiveAdvertisement.bthome(plain).quantities.map(\.text) == ["25.06 °C", "50.55 %"])
        #expect(b.decrypting(key: Array(key.reversed()), address: address, cipher: ExampleCipher()).issue == .decryptionFailed)
        #expect(b.decrypting(key: [1, 2], address: address, cipher: ExampleCipher()).issue == .invalidKeyLength(2))
        // Through the advertising-data entry point, with and without a key.
        let ad = AdvertisingData(values: [.serviceData(ADServiceData(uuid: BTHomeAdvertisement.serviceUUID,
                                                                     data: bytes("41 a4 72 66 c9 5f 73 00 11 22 33 78 23 72 14")))])
        guard case .bthome(let noKey)? = PassiveAdvertisement.decode(ad, address: address).first else { Issue.record("no BTHome"); return }
        #expect(noKey.issue == .encryptedWithoutKey)
        guard case .bthome(let withKey)? = PassiveAdvertisement.decode(ad, address: address, bthomeKey: key, cipher: ExampleCipher()).first
        else { Issue.record("no BTHome"); return }
        #expect(withKey.objects.count == 2)
    }

    /// Random service data never traps; the objects decoded re-encode (id, length octet for
    /// text/raw, data) to exactly the octets walked before the issue, or to all of them.
    @Test func randomPayloadsNeverTrap() {
        var rng = SplitMix64(seed: 0xFCD2)
        var complete = 0, stopped = 0
        for _ in 0..<30_000 {
            var data = rng.bytes(rng.below(30))
            if !data.isEmpty && rng.below(4) != 0 { data[0] = 0x40 | (data[0] & 0x07) }
            let b = BTHomeAdvertisement(serviceData: [0xAA] + data, at: 1)
            _ = PassiveAdvertisement.bthome(b).quantities.map(\.text)
            _ = b.issue?.description
            guard b.encrypted == nil, !data.isEmpty, BTHomeDeviceInfo(rawValue: data[0]).version == 2 else { continue }
            var walked: [UInt8] = []
            for o in b.objects {
                walked.append(o.id)
                if o.type.format.fixedLength == nil { walked.append(UInt8(o.data.count)) }
                walked.append(contentsOf: o.data)
            }
            let payload = Array(data.dropFirst(b.deviceInfo.isMACIncluded ? 7 : 1))
            if b.issue == nil { complete += 1; #expect(walked == payload) } else { stopped += 1; #expect(payload.starts(with: walked)) }
        }
        #expect(complete > 100 && stopped > 100)
    }
}

extension BTHomeAdvertisement {
    /// Decodes from a slice that does not start at index 0, as service data inside an
    /// advertising report does.
    init(serviceData: [UInt8], at offset: Int) {
        self.init(serviceData: serviceData[offset...])
    }
}
