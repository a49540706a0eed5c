import Testing
import Wire
@testable import HostCore

@Suite struct GATTCacheCodecTests {
    @Test func encodesTheHeartRateDatabase() {
        let text = GATTCacheCodec.encode(GATTFixtures.heartRateDatabase)
        #expect(text == """
            rtstack-gatt-cache 1
            hash a0a1a2a3a4a5a6a7a8a9aaabacadaeaf
            primary 0001 0005 1800
            characteristic 0002 0003 0003 02 2A00
            characteristic 0004 0005 0005 02 2A01
            primary 0006 000B 1801
            characteristic 0007 0008 0009 20 2A05
            descriptor 0009 2902
            characteristic 000A 000B 000B 02 2B2A
            primary 000C 0013 180D
            characteristic 000D 000E 000F 10 2A37
            descriptor 000F 2902
            characteristic 0010 0011 0011 02 2A38
            characteristic 0012 0013 0013 08 2A39
            primary 0014 0017 180F
            characteristic 0015 0016 0017 12 2A19
            descriptor 0017 2902

            """)
    }

    @Test func roundTripHeartRate() throws {
        let db = GATTFixtures.heartRateDatabase
        #expect(try GATTCacheCodec.decode(GATTCacheCodec.encode(db)) == db)
    }

    @Test func roundTripDiscoveredThingyWith128BitUUIDs() throws {
        let h = GATTHarness(server: GATTFixtures.thingyServer())
        h.linkUp()
        guard case let .success(.database(db))? = h.result(h.perform(.discoverAll)) else {
            Issue.record("no database")
            return
        }
        let text = GATTCacheCodec.encode(db)
        #expect(text.contains("EF680201-9B35-4933-9B10-52FFA9740042"))
        #expect(try GATTCacheCodec.decode(text) == db)
    }

    @Test func roundTripIncludesSecondaryAnd32BitUUIDs() throws {
        let db = GATTDatabase(services: [
            GATTService(uuid: BluetoothUUID(0x1810), startHandle: 0x0001, endHandle: 0x0005, includedServices: [
                GATTIncludedService(declarationHandle: 0x0002, startHandle: 0x0010, endHandle: 0x0012, uuid: BluetoothUUID(0x180F)),
                GATTIncludedService(declarationHandle: 0x0003, startHandle: 0x0020, endHandle: 0x0021, uuid: nil),
            ], characteristics: [
                GATTCharacteristic(uuid: BluetoothUUID(uuid32: 0x1234_5678), declarationHandle: 0x0004, valueHandle: 0x0005,
                                   properties: 0xFF, endHandle: 0x0005),
            ]),
            GATTService(uuid: BluetoothUUID(0x180F), startHandle: 0x0010, endHandle: 0x0012, isPrimary: false),
        ])
        let text = GATTCacheCodec.encode(db)
        #expect(text.contains("include 0003 0020 0021 -\n"))
        #expect(text.contains("secondary 0010 0012 180F\n"))
        #expect(text.contains(" FF 12345678\n"))
        #expect(try GATTCacheCodec.decode(text) == db)
    }

    @Test func emptyDatabase() throws {
        #expect(GATTCacheCodec.encode(GATTDatabase()) == "rtstack-gatt-cache 1\n")
        #expect(try GATTCacheCodec.decode("rtstack-gatt-cache 1\n") == GATTDatabase())
    }

    @Test func toleratesCRLFCommentsAndBlankLines() throws {
        let text = "# saved by rtstack\r\nrtstack-gatt-cache 1\r\n\r\nprimary 0001 0003 180F\r\ncharacteristic 0002 0003 0003 12 2A19\r\n"
        let db = try GATTCacheCodec.decode(text)
        #expect(db.characteristic(BluetoothUUID(0x2A19))?.valueHandle == 0x0003)
    }

    private static let header = "rtstack-gatt-cache 1\n"

    @Test(arguments: [
        ("", 1, "version"),
        ("rtstack-gatt-cache 2\n", 1, "version"),
        (header + "primary 0001 0005\n", 2, "3 fields"),
        (header + "primary 0001 000G 180D\n", 2, "end handle"),
        (header + "primary 0001 00005 180D\n", 2, "4 hex digits"),
        (header + "primary 0000 0005 180D\n", 2, "0000"),
        (header + "primary 0005 0001 180D\n", 2, "after end"),
        (header + "primary 0001 0005 18-D\n", 2, "not a UUID"),
        (header + "primary 0001 0005 180D\nprimary 0004 0008 180F\n", 3, "overlaps"),
        (header + "characteristic 0002 0003 0003 10 2A37\n", 2, "before any service"),
        (header + "primary 0001 0005 180D\ncharacteristic 0002 0003 0009 10 2A37\n", 3, "inside the service"),
        (header + "primary 0001 0005 180D\ncharacteristic 0003 0002 0003 10 2A37\n", 3, "declaration < value"),
        (header + "primary 0001 0005 180D\ncharacteristic 0002 0003 0003 1 2A37\n", 3, "properties"),
        (header + "primary 0001 0005 180D\ndescriptor 0004 2902\n", 3, "before any characteristic"),
        (header + "primary 0001 0005 180D\ncharacteristic 0002 0003 0004 10 2A37\ndescriptor 0005 2902\n", 4, "outside its characteristic"),
        (header + "primary 0001 0005 180D\ncharacteristic 0002 0003 0004 10 2A37\ncharacteristic 0004 0005 0005 02 2A38\n", 4, "overlaps"),
        (header + "hash 0011\n", 2, "32 hex digits"),
        (header + "primary 0001 0005 180D\nhash 000102030405060708090a0b0c0d0e0f\n", 3, "before the services"),
        (header + "primary 0001 0005 180D\n\nservice 0006 0007 180F\n", 4, "unknown line kind"),
        (header + "include 0002 0010 0012 180F\n", 2, "before any service"),
        (header + "primary 0001 0005 180D\ninclude 0009 0010 0012 180F\n", 3, "outside its service"),
    ] as [(String, Int, String)])
    func malformedTextNamesTheLine(text: String, line: Int, reason: String) {
        do {
            _ = try GATTCacheCodec.decode(text)
            Issue.record("decoded malformed text: \(text)")
        } catch {
            #expect(error.line == line)
            #expect(error.reason.contains(reason) || error.description.contains(reason), "\(error)")
            #expect(error.description.contains("line \(line)"))
        }
    }
}
