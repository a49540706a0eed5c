import Testing
@testable import Wire

/// Return parameters of Command Complete and the bytes the Core Specification layout gives.
struct ReturnVector: Sendable, CustomTestStringConvertible {
    var name: String
    var value: any WireCodable & FieldDescribing & Hashable
    var hex: String

    var testDescription: String { name }
    var bytes: [UInt8] { Hex.parse(hex) ?? [] }
}

private let addressC0 = BDAddress(string: "C0:11:22:33:44:55") ?? .zero

/// Derived by hand from the Return parameters tables of Core Spec v5.4 Vol 4, Part E, §7.
let returnVectors: [ReturnVector] = [
    // Status only (e.g. §7.3.2 Reset).
    ReturnVector(name: "Status", value: StatusReturnParameters(status: .success), hex: "00"),
    ReturnVector(name: "Status (Command Disallowed)", value: StatusReturnParameters(status: .commandDisallowed), hex: "0C"),
    // §7.4.1 Read Local Version Information: Status, HCI_Version, HCI_Subversion (2), LMP_Version,
    // Company_Identifier (2), LMP_Subversion (2).
    ReturnVector(name: "Read Local Version Information",
                 value: ReadLocalVersionInformation.ReturnParameters(hciVersion: 0x0D, hciSubversion: 0x1234, lmpVersion: 0x0D,
                                                                     companyIdentifier: 0x005D, lmpSubversion: 0x5678),
                 hex: "00 0D 34 12 0D 5D 00 78 56"),
    // §7.4.2 Read Local Supported Commands: Status, Supported_Commands (64).
    ReturnVector(name: "Read Local Supported Commands",
                 value: ReadLocalSupportedCommands.ReturnParameters(
                     supportedCommands: HCISupportedCommands(octets: (0..<64).map { UInt8($0) })),
                 hex: "00 " + (0..<64).map { Hex.number(UInt8($0), width: 2).dropFirst(2) }.joined(separator: " ")),
    // §7.4.3 Read Local Supported Features: Status, LMP_Features (8).
    ReturnVector(name: "Read Local Supported Features",
                 value: ReadLocalSupportedFeatures.ReturnParameters(lmpFeatures: 0x875B_FFDB_FE8F_FFFF),
                 hex: "00 FF FF 8F FE DB FF 5B 87"),
    // §7.4.5 Read Buffer Size: Status, ACL length (2), SCO length (1), ACL count (2), SCO count (2).
    ReturnVector(name: "Read Buffer Size",
                 value: ReadBufferSize.ReturnParameters(aclDataPacketLength: 1021, synchronousDataPacketLength: 64,
                                                        totalNumACLDataPackets: 8, totalNumSynchronousDataPackets: 1),
                 hex: "00 FD 03 40 08 00 01 00"),
    // §7.4.6 Read BD_ADDR: Status, BD_ADDR (6, LSB first).
    ReturnVector(name: "Read BD_ADDR", value: ReadBDADDR.ReturnParameters(bdAddress: addressC0),
                 hex: "00 55 44 33 22 11 C0"),
    // §7.8.2 LE Read Buffer Size [v1]: Status, LE_ACL_Data_Packet_Length (2), Total_Num (1): 27 × 64.
    ReturnVector(name: "LE Read Buffer Size",
                 value: LEReadBufferSize.ReturnParameters(leACLDataPacketLength: 27, totalNumLEACLDataPackets: 64),
                 hex: "00 1B 00 40"),
    // §7.8.2 LE Read Buffer Size [v2]: … plus ISO_Data_Packet_Length (2), Total_Num_ISO (1).
    ReturnVector(name: "LE Read Buffer Size v2",
                 value: LEReadBufferSizeV2.ReturnParameters(leACLDataPacketLength: 251, totalNumLEACLDataPackets: 15,
                                                            isoDataPacketLength: 300, totalNumISODataPackets: 4),
                 hex: "00 FB 00 0F 2C 01 04"),
    // §7.8.3 LE Read Local Supported Features: Status, LE_Features (8).
    ReturnVector(name: "LE Read Local Supported Features",
                 value: LEReadLocalSupportedFeatures.ReturnParameters(leFeatures: LEFeatureSet(rawValue: 0x19FF)),
                 hex: "00 FF 19 00 00 00 00 00 00"),
    // §7.8.27 LE Read Supported States: Status, LE_States (8).
    ReturnVector(name: "LE Read Supported States",
                 value: LEReadSupportedStates.ReturnParameters(leStates: LESupportedStates(rawValue: 0x03_FFFF_FFFF)),
                 hex: "00 FF FF FF FF 03 00 00 00"),
    // §7.8.14 LE Read Filter Accept List Size: Status, Filter_Accept_List_Size.
    ReturnVector(name: "LE Read Filter Accept List Size",
                 value: LEReadFilterAcceptListSize.ReturnParameters(filterAcceptListSize: 8), hex: "00 08"),
    // §7.8.33 LE Set Data Length: Status, Connection_Handle.
    ReturnVector(name: "LE Set Data Length", value: ConnectionHandleReturnParameters(connectionHandle: 0x0040),
                 hex: "00 40 00"),
    // §7.5.4 Read RSSI: Status, Handle, RSSI (signed): 0xC4 = -60 dBm.
    ReturnVector(name: "Read RSSI", value: ReadRSSI.ReturnParameters(handle: 0x0040, rssi: -60), hex: "00 40 00 C4"),
]

@Suite struct HCICommandReturnParametersTests {
    @Test(arguments: returnVectors)
    func decodesSpecBytesAndEncodesBack(_ v: ReturnVector) throws {
        func check<T: WireCodable & FieldDescribing & Hashable>(_ value: T) throws {
            #expect(value.encoded == v.bytes)
            #expect(try T(bytes: v.bytes) == value)
        }
        #expect(!v.bytes.isEmpty)
        try check(v.value)
    }

    /// A successful answer must carry every field: a short one is malformed.
    @Test(arguments: returnVectors)
    func truncatedSuccessfulAnswerThrows(_ v: ReturnVector) {
        func check<T: WireCodable & FieldDescribing & Hashable>(_: T) {
            for n in 0..<v.bytes.count {
                #expect(throws: WireError.self, "\(v.name) with \(n) octets") { _ = try T(bytes: v.bytes.prefix(n)) }
            }
        }
        check(v.value)
    }

    /// Controllers may send only the Status when a command fails; that decodes, with
    /// `isStatusOnly` set, and encodes back to the single octet.
    @Test func failedAnswerWithOnlyStatusDecodes() throws {
        let version = try ReadLocalVersionInformation.ReturnParameters(bytes: [0x01])
        #expect(version.status == .unknownHCICommand)
        #expect(version.isStatusOnly)
        #expect(version.hciVersion == 0)
        #expect(version.encoded == [0x01])

        let buffer = try LEReadBufferSize.ReturnParameters(bytes: [0x0C])
        #expect(buffer.isStatusOnly && buffer.leACLDataPacketLength == 0)
        #expect(buffer.encoded == [0x0C])

        let address = try ReadBDADDR.ReturnParameters(bytes: [0x03])
        #expect(address.isStatusOnly && address.bdAddress == .zero)

        let rssi = try ReadRSSI.ReturnParameters(bytes: [0x02])
        #expect(rssi.isStatusOnly && rssi.status == .unknownConnectionIdentifier)

        let dataLength = try ConnectionHandleReturnParameters(bytes: [0x01])
        #expect(dataLength.isStatusOnly)

        let commands = try ReadLocalSupportedCommands.ReturnParameters(bytes: [0x01])
        #expect(commands.isStatusOnly && commands.supportedCommands.supports(.reset) == false)

        #expect(try LEReadBufferSizeV2.ReturnParameters(bytes: [0x01]).isStatusOnly)
        #expect(try ReadBufferSize.ReturnParameters(bytes: [0x01]).isStatusOnly)
        #expect(try ReadLocalSupportedFeatures.ReturnParameters(bytes: [0x01]).isStatusOnly)
        #expect(try LEReadLocalSupportedFeatures.ReturnParameters(bytes: [0x01]).isStatusOnly)
        #expect(try LEReadSupportedStates.ReturnParameters(bytes: [0x01]).isStatusOnly)
        #expect(try LEReadFilterAcceptListSize.ReturnParameters(bytes: [0x01]).isStatusOnly)
    }

    /// A failed answer that does carry the fields keeps them.
    @Test func failedAnswerWithFieldsKeepsThem() throws {
        let rssi = try ReadRSSI.ReturnParameters(bytes: [0x02, 0x41, 0x00, 0x00])
        #expect(!rssi.isStatusOnly)
        #expect(rssi.handle == 0x0041)
        #expect(rssi.encoded == [0x02, 0x41, 0x00, 0x00])
    }

    @Test func emptyReturnParametersThrow() {
        #expect(throws: WireError.truncated(field: "Status", needed: 1, available: 0)) {
            _ = try StatusReturnParameters(bytes: [])
        }
    }

    @Test func versionAndCompanyNames() throws {
        let v = try ReadLocalVersionInformation.ReturnParameters(bytes: Hex.parse("00 09 00 00 09 FF FF 00 00") ?? [])
        #expect(ReadLocalVersionInformation.coreVersionName(v.hciVersion) == "5.0")
        #expect(ReadLocalVersionInformation.coreVersionName(0x0D) == "5.4")
        #expect(ReadLocalVersionInformation.coreVersionName(0x7F) == nil)
        var fields = FieldList()
        v.describeFields(into: &fields)
        #expect(fields.value(of: "HCI version") == "Bluetooth 5.0 (0x09)")
        #expect(fields.value(of: "Company") == "Reserved for internal use and testing (0xFFFF)")
    }

    @Test func lmpFeatureBitsForLE() throws {
        let f = try ReadLocalSupportedFeatures.ReturnParameters(bytes: Hex.parse("00 FF FF 8F FE DB FF 5B 87") ?? [])
        #expect(f.leSupportedController)      // octet 4 = 0xDB, bit 6 set
        #expect(!f.brEdrNotSupported)         // octet 4 bit 5 clear
        let leOnly = ReadLocalSupportedFeatures.ReturnParameters(lmpFeatures: 0x60 << 32)
        #expect(leOnly.leSupportedController && leOnly.brEdrNotSupported)
    }

    @Test func leFeatureNames() throws {
        let f = try LEReadLocalSupportedFeatures.ReturnParameters(bytes: Hex.parse("00 FF 19 00 00 00 00 00 00") ?? [])
        #expect(f.leFeatures.contains(.le2MPHY))
        #expect(f.leFeatures.contains(.leCodedPHY))
        #expect(f.leFeatures.contains(.leExtendedAdvertising))
        #expect(!f.leFeatures.contains(.lePeriodicAdvertising))
        #expect(f.leFeatures.names.first == "LE Encryption")
        #expect(f.leFeatures.names.last == "LE Extended Advertising")
        #expect(f.leFeatures.names.count == 11)
        #expect(LEFeatureSet(rawValue: 1 << 60).names == ["bit 60"])
    }

    @Test func supportedStatesForScanningWhileInitiating() {
        // Octet 2 = 0xC0 → bits 22 and 23 (scanning + initiating).
        let both = LESupportedStates(rawValue: 0x00C0_0000)
        #expect(both.contains(.passiveScanningAndInitiating))
        #expect(both.contains(.activeScanningAndInitiating))
        #expect(!both.contains(.initiatingAndCentral))
        #expect(LESupportedStates(rawValue: 1 << 28).contains(.initiatingAndCentral))
    }

    @Test func supportedCommandsBitmapPositions() throws {
        // §6.27: LE Set Extended Scan Parameters is octet 37 bit 5, LE Read Buffer Size [v2] octet 41 bit 5,
        // Reset octet 5 bit 7.
        var octets = [UInt8](repeating: 0, count: 64)
        octets[37] = 1 << 5
        octets[5] = 1 << 7
        let bitmap = HCISupportedCommands(octets: octets)
        #expect(bitmap.supports(.leSetExtendedScanParameters) == true)
        #expect(bitmap.supports(.leExtendedCreateConnection) == false)
        #expect(bitmap.supports(.leReadBufferSizeV2) == false)
        #expect(bitmap.supports(.reset) == true)
        #expect(bitmap.supports(.inquiry) == nil)
        #expect(bitmap.count == 2)
        #expect(bitmap.supportedKnownOpcodes == [.reset, .leSetExtendedScanParameters])
        #expect(!bitmap.contains(octet: 64, bit: 0))
        #expect(!bitmap.contains(octet: -1, bit: 0))
        #expect(!bitmap.contains(octet: 5, bit: 8))
    }
}
