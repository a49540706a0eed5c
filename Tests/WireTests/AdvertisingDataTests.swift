import Testing
@testable import Wire

/// Octets from spaced hex over one or more lines; an empty array for bad text (which every
/// test below then notices).
func bytes(_ hex: String) -> [UInt8] {
    Hex.parse(String(hex.filter { !$0.isNewline })) ?? []
}

@Suite struct AdvertisingDataTests {
    // Core Spec v5.4 Vol 3, Part C, §11 (layout); Core Specification Supplement Part A:
    // §1.3 Flags, §1.1 Service UUIDs, §1.2 Local Name, §1.5 TX Power Level, §1.12 Appearance,
    // §1.4 Manufacturer Specific Data.
    @Test func heartRateSensorAdvertisement() throws {
        let adv = AdvertisingData(bytes("02 01 06  03 03 0D 18  04 09 48 52 4D  02 0A 04  03 19 41 03  05 FF 6B 00 01 02"))
        #expect(adv.issues.isEmpty)
        #expect(adv.padding == nil)
        #expect(adv.structures.map(\.type) == [.flags, .completeList16BitServiceUUIDs, .completeLocalName,
                                                .txPowerLevel, .appearance, .manufacturerSpecificData])
        #expect(adv.structures.map(\.offset) == [0, 3, 7, 12, 15, 19])
        #expect(adv.flags == [.leGeneralDiscoverableMode, .brEdrNotSupported])
        #expect(adv.flags?.names == ["LE General Discoverable Mode", "BR/EDR Not Supported"])
        #expect(adv.serviceUUIDs == [.heartRate])
        #expect(adv.advertisesService(.heartRate))
        #expect(!adv.advertisesService(.batteryService))
        #expect(adv.hasCompleteServiceList)
        #expect(adv.localName == "HRM")
        #expect(!adv.isLocalNameShortened)
        #expect(adv.txPower == 4)
        #expect(adv.appearance == .heartRateBelt)
        #expect(adv.appearance?.name == "Heart Rate Sensor: Heart Rate Belt")
        let m = try #require(adv.manufacturerData)
        #expect(m.company == CompanyIdentifier(0x006B))
        #expect(m.company.name == "Polar Electro OY")
        #expect(Array(m.data) == [0x01, 0x02])
        #expect(adv.encodedStructures == Array(adv.bytes))
    }

    // A Nordic Thingy:52 advertisement and its scan response in one buffer: the configuration
    // service as the only entry of a complete 128-bit list (CSS Part A §1.1), name "Thingy".
    @Test func thingyAdvertisementWith128BitList() throws {
        let adv = AdvertisingData(bytes("""
            02 01 06
            11 07 42 00 74 A9 FF 52 10 9B 33 49 35 9B 00 01 68 EF
            07 09 54 68 69 6E 67 79
            """))
        #expect(adv.isWellFormed)
        #expect(adv.serviceUUIDs == [.thingyConfiguration])
        #expect(adv.serviceUUIDs.first?.fullString == "EF680100-9B35-4933-9B10-52FFA9740042")
        #expect(adv.serviceUUIDs.first?.name == "Thingy Configuration Service")
        #expect(adv.advertisesService(.thingyConfiguration))
        #expect(!adv.advertisesService(.thingyWeather))
        #expect(adv.localName == "Thingy")
        try #require(adv.structures.count == 3)
        guard case .serviceUUIDs(let list)? = adv.structures[1].value else {
            Issue.record("no UUID list")
            return
        }
        #expect(list.width == .bits128)
        #expect(list.isComplete)
        #expect(!list.isSolicitation)
        #expect(adv.summary == "\"Thingy\" · 3 AD structures")
    }

    // One table row per typed view: bytes of one AD structure and what its value must be.
    struct Row: Sendable, CustomTestStringConvertible {
        let section: String
        let hex: String
        let expected: ADValue
        /// False where decoding is lossy on purpose (replaced UTF-8, dropped NUL padding,
        /// absent flag octets), so re-encoding cannot give the same octets.
        var roundTrips = true
        var testDescription: String { "CSS Part A \(section): \(hex)" }
    }

    static let rows: [Row] = [
        Row(section: "§1.3", hex: "02 01 05", expected: .flags([.leLimitedDiscoverableMode, .brEdrNotSupported])),
        Row(section: "§1.3 (zero-octet flags)", hex: "01 01", expected: .flags([]), roundTrips: false),
        Row(section: "§1.1", hex: "05 02 0F 18 0A 18",
            expected: .serviceUUIDs(ServiceUUIDList(type: .incompleteList16BitServiceUUIDs, uuids: [.batteryService, .deviceInformation]))),
        Row(section: "§1.1", hex: "05 05 78 56 34 12",
            expected: .serviceUUIDs(ServiceUUIDList(type: .completeList32BitServiceUUIDs, uuids: [BluetoothUUID(uuid32: 0x1234_5678)]))),
        Row(section: "§1.1 (empty complete list: no services)", hex: "01 03",
            expected: .serviceUUIDs(ServiceUUIDList(type: .completeList16BitServiceUUIDs, uuids: []))),
        Row(section: "§1.10", hex: "03 14 0D 18",
            expected: .serviceUUIDs(ServiceUUIDList(soliciting: [.heartRate], width: .bits16))),
        Row(section: "§1.2", hex: "04 08 48 52 4D", expected: .localName(ADLocalName("HRM", isComplete: false))),
        Row(section: "§1.2 (UTF-8)", hex: "07 09 4C C3 A4 75 66 65",
            expected: .localName(ADLocalName("Läufe", isComplete: true))),
        Row(section: "§1.2 (invalid UTF-8 replaced)", hex: "04 09 48 FF 4D",
            expected: .localName(ADLocalName("H\u{FFFD}M", isComplete: true)), roundTrips: false),
        Row(section: "§1.2 (NUL padding dropped)", hex: "05 09 41 42 00 00",
            expected: .localName(ADLocalName("AB", isComplete: true)), roundTrips: false),
        Row(section: "§1.5", hex: "02 0A F4", expected: .txPowerLevel(-12)),
        Row(section: "§1.6", hex: "04 0D 0C 02 5A", expected: .classOfDevice(0x5A020C)),
        Row(section: "§1.9", hex: "05 12 06 00 80 0C",
            expected: .peripheralConnectionIntervalRange(ConnectionIntervalRange(minimum: 0x0006, maximum: 0x0C80))),
        Row(section: "§1.11", hex: "04 16 0F 18 64",
            expected: .serviceData(ADServiceData(uuid: .batteryService, data: [0x64]))),
        Row(section: "§1.11", hex: "07 20 78 56 34 12 AA BB",
            expected: .serviceData(ADServiceData(uuid: BluetoothUUID(uuid32: 0x1234_5678), data: [0xAA, 0xBB], width: .bits32))),
        Row(section: "§1.11", hex: "12 21 42 00 74 A9 FF 52 10 9B 33 49 35 9B 01 02 68 EF 19",
            expected: .serviceData(ADServiceData(uuid: .thingyTemperature, data: [0x19], width: .bits128))),
        Row(section: "§1.13", hex: "07 17 66 55 44 33 22 11",
            expected: .publicTargetAddresses([BDAddress(string: "11:22:33:44:55:66")!])),
        Row(section: "§1.14", hex: "0D 18 66 55 44 33 22 C1 01 00 00 00 00 40",
            expected: .randomTargetAddresses([BDAddress(string: "C1:22:33:44:55:66")!, BDAddress(string: "40:00:00:00:00:01")!])),
        Row(section: "§1.12", hex: "03 19 C1 00", expected: .appearance(.sportsWatch)),
        Row(section: "§1.15", hex: "03 1A 40 06", expected: .advertisingInterval(AdvertisingInterval(units: 0x0640))),
        Row(section: "§1.15 (long, 3 octets)", hex: "04 2F 00 00 01",
            expected: .advertisingInterval(AdvertisingInterval(units: 0x01_0000, byteCount: 3))),
        Row(section: "§1.15 (long, 4 octets)", hex: "05 2F 00 00 00 01",
            expected: .advertisingInterval(AdvertisingInterval(units: 0x0100_0000, byteCount: 4))),
        Row(section: "§1.16", hex: "08 1B 55 44 33 22 11 C0 01",
            expected: .leBluetoothDeviceAddress(DeviceAddress(BDAddress(string: "C0:11:22:33:44:55")!, type: .randomDevice))),
        Row(section: "§1.17", hex: "02 1C 02", expected: .leRole(.bothPeripheralPreferred)),
        Row(section: "§1.18", hex: "0E 24 17 2F 2F 62 74 2E 65 78 61 6D 70 6C 65",
            expected: .uri(ADURI(scheme: .https, remainder: "//bt.example"))),
        Row(section: "§1.18 (empty scheme)", hex: "06 24 01 61 3A 62 63",
            expected: .uri(ADURI(scheme: .empty, remainder: "a:bc"))),
        Row(section: "§1.18 (two-octet code point 0xBB)", hex: "05 24 C2 BB 2F 2F",
            expected: .uri(ADURI(scheme: URIScheme(rawValue: 0xBB), remainder: "//"))),
        Row(section: "Public Broadcast Profile", hex: "05 30 4A 61 7A 7A", expected: .broadcastName("Jazz")),
        Row(section: "§1.4", hex: "03 FF 59 00",
            expected: .manufacturerSpecificData(ADManufacturerData(company: .nordicSemiconductor, data: []))),
        Row(section: "§1.8 (opaque)", hex: "03 10 01 02", expected: .unparsed(.deviceIDOrSecurityManagerTKValue, [0x01, 0x02][...])),
        Row(section: "unassigned type", hex: "03 99 AB CD", expected: .unparsed(ADType(0x99), [0xAB, 0xCD][...])),
    ]

    @Test(arguments: rows)
    func typedView(_ row: Row) throws {
        let raw = bytes(row.hex)
        let adv = AdvertisingData(raw)
        #expect(adv.issues.isEmpty, "\(adv.issues)")
        #expect(adv.structures.count == 1)
        let s = try #require(adv.structures.first)
        #expect(try s.decodeValue() == row.expected)
        // Encoding the expected value gives back the very octets (round trip), and decoding
        // what was encoded gives the value back.
        if row.roundTrips {
            #expect(ADStructure(row.expected).data == s.data)
            #expect(AdvertisingData(values: [row.expected]).bytes.elementsEqual(raw))
        }
        #expect(try ADStructure(row.expected).decodeValue() == row.expected)
        // Every structure describes itself with its type name.
        var fields = FieldList()
        s.describeFields(into: &fields)
        #expect(fields.entries.first?.label == s.type.name)
    }

    @Test func connectionIntervalRangeNoSpecificValue() throws {
        // CSS Part A §1.9: 0xFFFF = no specific minimum/maximum.
        let adv = AdvertisingData(bytes("05 12 FF FF 10 00"))
        let r = try #require(adv.peripheralConnectionIntervalRange)
        #expect(r.minimumMilliseconds == nil)
        #expect(r.maximumMilliseconds == 20)
        #expect(r.isValid)
        #expect(r.description == "no specific minimum – 20 ms (0x0010)")
        #expect(ConnectionIntervalRange(minimum: 6, maximum: 6).minimumMilliseconds == 7.5)
        #expect(ConnectionIntervalRange(minimum: 6, maximum: 6).description == "7.5 ms (0x0006) – 7.5 ms (0x0006)")
        #expect(!ConnectionIntervalRange(minimum: 0x20, maximum: 0x10).isValid)
        #expect(!ConnectionIntervalRange(minimum: 0x0005, maximum: 0x10).isValid)
    }

    @Test func uriSchemes() throws {
        #expect(URIScheme.http.prefix == "http:")
        #expect(URIScheme.https.prefix == "https:")
        #expect(ADURI("https://example.org/a").scheme == .https)
        #expect(ADURI("https://example.org/a").remainder == "//example.org/a")
        #expect(ADURI("http://x").scheme == .http)
        #expect(ADURI("mailto:a@b").scheme.rawValue == 0x26)
        #expect(ADURI("zzz:q").scheme == .empty)
        #expect(ADURI("zzz:q").string == "zzz:q")
        // Encoded: code point 0x17 as one UTF-8 octet, then the rest.
        let adv = AdvertisingData.Builder().uri("https://x.io").build()
        #expect(Array(adv.bytes) == bytes("08 24 17 2F 2F 78 2E 69 6F"))
        #expect(adv.uri?.string == "https://x.io")
        // Unknown code points keep their value and the remainder.
        let unknown = AdvertisingData(bytes("04 24 7E 2F 2F"))
        #expect(unknown.uri?.scheme.prefix == nil)
        #expect(unknown.uri?.scheme.rawValue == 0x7E)
        #expect(unknown.uri?.description == "unknown scheme (0x007E) //")
    }

    @Test func advertisingIntervalMilliseconds() {
        #expect(AdvertisingInterval(units: 0x0640).milliseconds == 1000)
        #expect(AdvertisingInterval(units: 0x00A0).description == "100 ms (0x00A0)")
        #expect(AdvertisingInterval(units: 0x1_0000, byteCount: 2).units == 0) // cut to two octets
        #expect(AdvertisingInterval(units: 1, byteCount: 9).byteCount == 4)
    }

    // Core Spec v5.4 Vol 3, Part C, §11: "If the Length field is set to zero, then the Data
    // field has zero octets. This shall only occur to allow an early termination of the
    // Advertising or Scan Response data." The rest is padding, not an error.
    @Test func zeroLengthEndsSignificantPart() {
        let padded = AdvertisingData(bytes("02 01 06 00 00 00 00"))
        #expect(padded.structures.count == 1)
        #expect(padded.issues.isEmpty)
        #expect(padded.isWellFormed)
        #expect(padded.padding == ADPadding(offset: 3, length: 4, isAllZero: true))

        // Octets after the zero length are not parsed, even if they look like structures.
        let trailing = AdvertisingData(bytes("02 01 06 00 04 09 41 42 43"))
        #expect(trailing.structures.count == 1)
        #expect(trailing.localName == nil)
        #expect(trailing.padding == ADPadding(offset: 3, length: 6, isAllZero: false))
        #expect(trailing.issues.isEmpty)

        // A zero length first: nothing significant at all.
        let allZero = AdvertisingData([UInt8](repeating: 0, count: 31))
        #expect(allZero.structures.isEmpty)
        #expect(allZero.padding?.length == 31)

        var fields = FieldList()
        trailing.describeFields(into: &fields)
        #expect(fields.value(of: "Padding") == "6 octet(s) at offset 3 after a zero-length AD structure (not all zero)")
    }

    @Test func overrunIsAnIssueAndEarlierStructuresStay() {
        // Complete Local Name claims 5 octets (type + 4), only 3 remain after the length octet.
        let adv = AdvertisingData(bytes("02 01 06  05 09 41 42"))
        #expect(adv.flags == .generalDiscoverableLEOnly)
        #expect(adv.structures.count == 1)
        #expect(adv.localName == nil)
        #expect(adv.issues == [.lengthOverrun(offset: 3, type: .completeLocalName, length: 5, available: 3)])
        #expect(!adv.isWellFormed)
        #expect(adv.issues.first?.description == "Complete Local Name: length 5 at offset 3 overruns the data (3 octet(s) left)")

        // A length octet with nothing after it.
        let bare = AdvertisingData(bytes("02 01 06 07"))
        #expect(bare.issues == [.lengthOverrun(offset: 3, type: nil, length: 7, available: 0)])
        #expect(bare.structures.count == 1)
        #expect(bare.summary == "1 AD structure · 1 issue")
    }

    @Test func malformedContentIsReportedAndKept() throws {
        // A 16-bit list with 3 data octets (CSS Part A §1.1: a multiple of 2 is required), then
        // a good name: the name still decodes.
        let adv = AdvertisingData(bytes("04 03 0D 18 0F  04 09 48 52 4D  02 19 41"))
        try #require(adv.structures.count == 3)
        #expect(adv.localName == "HRM")
        #expect(adv.serviceUUIDs.isEmpty)
        #expect(!adv.advertisesService(.heartRate))
        #expect(adv.appearance == nil)
        try #require(adv.issues.count == 2)
        guard case .malformedStructure(let offset, let type, _) = adv.issues[0] else {
            Issue.record("expected a malformed structure, got \(adv.issues)")
            return
        }
        #expect(offset == 0)
        #expect(type == .completeList16BitServiceUUIDs)
        #expect(adv.issues[1] == .malformedStructure(offset: 10, type: .appearance,
                                                      error: .truncated(field: "Appearance", needed: 2, available: 1)))
        #expect(throws: WireError.self) { try adv.structures[0].decodeValue() }
        #expect(adv.structures[0].value == nil)

        var fields = FieldList()
        adv.describeFields(into: &fields)
        #expect(fields.entries.first?.label == "Complete List of 16-bit Service or Service Class UUIDs")
        #expect(fields.entries.first?.value == "malformed")
        #expect(fields.entries.filter { $0.label == "Issue" }.count == 2)
    }

    @Test func fieldListIsBtmonLike() throws {
        let adv = AdvertisingData(bytes("02 01 06  05 03 0D 18 0F 18  04 09 48 52 4D  05 FF 4C 00 02 15"))
        var fields = FieldList()
        adv.describeFields(into: &fields)
        let lines = fields.entries.map { String(repeating: "  ", count: $0.level) + $0.label + ": " + $0.value }
        #expect(lines == [
            "Flags: 0x06",
            "  Bit 1: LE General Discoverable Mode",
            "  Bit 2: BR/EDR Not Supported",
            "Complete List of 16-bit Service or Service Class UUIDs: 2 UUID(s)",
            "  UUID: Heart Rate (0x180D)",
            "  UUID: Battery (0x180F)",
            "Complete Local Name: \"HRM\"",
            "Manufacturer Specific Data: Apple, Inc. (0x004C)",
            "  Company: Apple, Inc. (0x004C)",
            "  Data: 02 15",
        ])
        try #require(adv.structures.count == 4)
        #expect(adv.structures[2].summary == "Complete Local Name: \"HRM\"")
    }

    @Test func hostileNamesAreQuotedSafely() {
        let adv = AdvertisingData.Builder().completeLocalName("a\"b\n\u{7}").build()
        var fields = FieldList()
        adv.describeFields(into: &fields)
        #expect(fields.value(of: "Complete Local Name") == "\"a\\\"b\\n\\u{7}\"")
    }

    @Test func serviceDataAccessors() {
        let adv = AdvertisingData.Builder()
            .serviceData(.batteryService, [0x55])
            .serviceData(.environmentalSensing, [0x01, 0x02])
            .serviceData(.thingyWeather, [0x09])
            .build()
        #expect(adv.isWellFormed)
        #expect(adv.serviceData.map(\.uuid) == [.batteryService, .environmentalSensing, .thingyWeather])
        #expect(adv.serviceData.map(\.width) == [.bits16, .bits16, .bits128])
        #expect(adv.serviceData(for: .environmentalSensing).map(Array.init) == [0x01, 0x02])
        #expect(adv.serviceData(for: .thingyWeather).map(Array.init) == [0x09])
        #expect(adv.serviceData(for: .heartRate) == nil)
    }

    @Test func builderGroupsUUIDsByWidthAndRoundTrips() throws {
        let uuids: [BluetoothUUID] = [.heartRate, .thingyWeather, BluetoothUUID(uuid32: 0x0001_0000), .batteryService]
        let built = AdvertisingData.Builder()
            .flags(.generalDiscoverableLEOnly)
            .serviceUUIDs(uuids, complete: false)
            .solicitedServiceUUIDs([.currentTimeService])
            .shortenedLocalName("Run")
            .txPowerLevel(-8)
            .appearance(.onShoeRunningWalkingSensor)
            .manufacturerData(.nordicSemiconductor, [1, 2, 3])
            .peripheralConnectionIntervalRange(minimum: 24, maximum: 40)
            .leRole(.peripheralOnly)
            .advertisingInterval(units: 160)
            .leBluetoothDeviceAddress(DeviceAddress(BDAddress(string: "00:1B:DC:01:02:03")!, type: .publicDevice))
        let adv = built.build()
        #expect(adv.isWellFormed)
        try #require(adv.structures.count == 13)
        #expect(adv.structures == built.structures)
        #expect(built.count == adv.bytes.count)
        #expect(!built.fitsLegacyPDU)
        // 16-bit list first, then 32, then 128; order inside a width kept.
        #expect(adv.serviceUUIDs == [.heartRate, .batteryService, BluetoothUUID(uuid32: 0x0001_0000), .thingyWeather])
        #expect(adv.structures[1].type == .incompleteList16BitServiceUUIDs)
        #expect(adv.structures[2].type == .incompleteList32BitServiceUUIDs)
        #expect(adv.structures[3].type == .incompleteList128BitServiceUUIDs)
        #expect(!adv.hasCompleteServiceList)
        #expect(adv.solicitedServiceUUIDs == [.currentTimeService])
        #expect(adv.localName == "Run")
        #expect(adv.isLocalNameShortened)
        #expect(adv.txPower == -8)
        #expect(adv.appearance?.name == "Running Walking Sensor: On-Shoe Running Walking Sensor")
        #expect(adv.manufacturerData?.company == .nordicSemiconductor)
        #expect(adv.allManufacturerData.count == 1)
        #expect(adv.peripheralConnectionIntervalRange == ConnectionIntervalRange(minimum: 24, maximum: 40))
        #expect(adv.leRole == .peripheralOnly)
        #expect(adv.advertisingInterval?.milliseconds == 100)
        #expect(adv.leBluetoothDeviceAddress?.description == "00:1B:DC:01:02:03/public")
        // Decode every structure and re-encode from the values: the same octets.
        let values = try adv.structures.map { try $0.decodeValue() }
        #expect(AdvertisingData(values: values) == adv)
        #expect(adv.values == values)
    }

    @Test func paddedBuilderOutput() {
        let padded = AdvertisingData.Builder().flags(.generalDiscoverableLEOnly).completeLocalName("HR").padded()
        #expect(padded.bytes.count == 31)
        let adv = padded.build()
        #expect(adv.localName == "HR")
        #expect(adv.padding == ADPadding(offset: 7, length: 24, isAllZero: true))
    }

    @Test func lazyIteratorStopsLikeTheParser() {
        let raw = bytes("02 01 06 03 03 0D 18 09 09")
        var it = ADStructureIterator(raw[...])
        var types: [ADType] = []
        while let s = it.next() { types.append(s.type) }
        #expect(types == [.flags, .completeList16BitServiceUUIDs])
        #expect(it.overrun == .lengthOverrun(offset: 7, type: .completeLocalName, length: 9, available: 1))
        #expect(it.padding == nil)
        #expect(Array(ADStructures(raw[...])).count == 2)
    }

    @Test func parsesFromASliceWithNonZeroStartIndex() throws {
        // Advertising data sits inside an HCI event; offsets are relative to the slice.
        let event = bytes("3E 1A 02 01 00 00 11 22 33 44 55 66 07 02 01 06 03 03 0D 18 C5")
        let slice = event[13..<20]
        let adv = AdvertisingData(slice)
        #expect(adv.isWellFormed)
        #expect(adv.structures.map(\.offset) == [0, 3])
        #expect(adv.serviceUUIDs == [.heartRate])
        try #require(adv.structures.count == 2)
        #expect(adv.structures[1].data.startIndex == 18) // a slice of the event: no copy
    }
}
