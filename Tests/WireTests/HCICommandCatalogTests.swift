import Testing
@testable import Wire

@Suite struct HCICommandCatalogTests {
    @Test func everyCommandTypeIsFoundByItsOpcode() {
        let types = HCICommandCatalog.allCommandTypes
        #expect(types.count == Set(types.map { $0.opcode }).count, "two types share an opcode")
        for t in types {
            #expect(HCICommandCatalog.commandType(for: t.opcode) == t, "\(t.opcode.name)")
            #expect(t.opcode.specName != nil, "\(t.opcode.rawValue) has no name")
        }
    }

    @Test func unknownOpcodeGivesNil() {
        #expect(HCICommandCatalog.decodeParameters(opcode: HCIOpcode(rawValue: 0xFC01), [1, 2, 3]) == nil)
        #expect(HCICommandCatalog.decodeReturnParameters(opcode: HCIOpcode(rawValue: 0x2099), [0]) == nil)
        #expect(HCICommandCatalog.completesWithStatus(HCIOpcode(rawValue: 0x2099)) == nil)
        #expect(HCICommandCatalog.completesWithStatus(.leCreateConnection) == true)
    }

    @Test func decodesParametersForDisplay() throws {
        // Core Spec v5.4 Vol 4, Part E, §7.8.12 LE Create Connection.
        let bytes = Hex.parse("60 00 30 00 00 01 55 44 33 22 11 C0 00 18 00 28 00 00 00 2A 00 00 00 00 00") ?? []
        let result = try #require(HCICommandCatalog.decodeParameters(opcode: .leCreateConnection, bytes[...]))
        let decoded = try result.get()
        var fields = FieldList()
        decoded.describeFields(into: &fields)
        #expect(fields.value(of: "Scan interval") == "0x0060 (60.00 ms)")
        #expect(fields.value(of: "Scan window") == "0x0030 (30.00 ms)")
        #expect(fields.value(of: "Filter policy") == "Filter Accept List is not used (0x00)")
        #expect(fields.value(of: "Peer address type") == "Random (0x01)")
        #expect(fields.value(of: "Peer address") == "C0:11:22:33:44:55 (random static)")
        #expect(fields.value(of: "Own address type") == "Public (0x00)")
        #expect(fields.value(of: "Min connection interval") == "0x0018 (30.00 ms)")
        #expect(fields.value(of: "Max connection interval") == "0x0028 (50.00 ms)")
        #expect(fields.value(of: "Max latency") == "0 (0x0000)")
        #expect(fields.value(of: "Supervision timeout") == "0x002A (420.00 ms)")
        #expect(decoded.summary == "C0:11:22:33:44:55/random interval 30.00 ms–50.00 ms")
    }

    @Test func truncatedParametersGiveFailure() throws {
        let result = try #require(HCICommandCatalog.decodeParameters(opcode: .leSetScanParameters, [0x01, 0x10][...]))
        #expect(throws: WireError.self) { _ = try result.get() }
    }

    @Test func decodesReturnParametersForDisplay() throws {
        // §7.8.2 LE Read Buffer Size: 27 × 64.
        let r = try #require(HCICommandCatalog.decodeReturnParameters(opcode: .leReadBufferSize, [0x00, 0x1B, 0x00, 0x40][...]))
        var fields = FieldList()
        try r.get().describeFields(into: &fields)
        #expect(fields.value(of: "Status") == "Success (0x00)")
        #expect(fields.value(of: "Data packet length") == "27")
        #expect(fields.value(of: "Num data packets") == "64")

        // A status-only Command Complete for a command normally answered with Command Status.
        let s = try #require(HCICommandCatalog.decodeReturnParameters(opcode: .leCreateConnection, [0x01][...]))
        #expect(try s.get().summary == "Unknown HCI Command (0x01)")
        let none = try #require(HCICommandCatalog.decodeReturnParameters(opcode: .leCreateConnection, [][...]))
        #expect(try none.get().summary == "")
    }

    @Test func valuesShowTheWayBtmonDoes() throws {
        var f = FieldList()
        LESetScanParameters(scanType: .active, scanInterval: 0x0010, scanWindow: 0x0011).describeFields(into: &f)
        #expect(f.value(of: "Type") == "Active (0x01)")
        #expect(f.value(of: "Interval") == "0x0010 (10.00 ms)")
        #expect(f.value(of: "Window") == "0x0011 (10.625 ms)")
        #expect(f.value(of: "Filter policy") == "Accept all advertisements (0x00)")

        f = FieldList()
        SetEventMask(eventMask: 0x3DBF_F807_FFFB_FFFF).describeFields(into: &f)
        #expect(f.value(of: "Mask") == "0x3DBFF807FFFBFFFF")

        f = FieldList()
        LESetPHY(connectionHandle: 0x0040, txPHYs: [.le1M, .le2M], rxPHYs: .leCoded).describeFields(into: &f)
        #expect(f.value(of: "TX PHYs") == "LE 1M, LE 2M (0x03)")
        #expect(f.value(of: "RX PHYs") == "LE Coded (0x04)")
        #expect(f.value(of: "Handle") == "0x0040")

        f = FieldList()
        Disconnect(connectionHandle: 0x0040).describeFields(into: &f)
        #expect(f.value(of: "Reason") == "Remote User Terminated Connection (0x13)")

        f = FieldList()
        LESetExtendedScanEnable(enable: true, duration: 0x01F4, period: 0x0001).describeFields(into: &f)
        #expect(f.value(of: "Duration") == "0x01F4 (5000.00 ms)")
        #expect(f.value(of: "Period") == "0x0001 (1280.00 ms)")

        f = FieldList()
        ReadRSSI.ReturnParameters(handle: 0x0040, rssi: -60).describeFields(into: &f)
        #expect(f.value(of: "RSSI") == "-60 dBm (0xC4)")

        f = FieldList()
        LEAddDeviceToFilterAcceptList(DeviceAddress(BDAddress(string: "00:1B:DC:01:02:03") ?? .zero, type: .publicDevice))
            .describeFields(into: &f)
        #expect(f.value(of: "Address") == "00:1B:DC:01:02:03 (public)")
        #expect(f.value(of: "Address type") == "Public (0x00)")
    }

    /// Vol 4, Part E, §7.3.1 / §7.8.1: bit n of an event mask enables the (sub)event with code n + 1.
    @Test func eventMaskBitsFollowEventCodes() {
        // Disconnection Complete 0x05 → bit 4, Encryption Change 0x08 → bit 7, LE Meta 0x3E → bit 61.
        let mask = SetEventMask(enabling: [0x05, 0x08, 0x3E, 0x00, 0x41])
        #expect(mask.eventMask == 1 << 4 | 1 << 7 | 1 << 61)
        #expect(mask.enables(eventCode: 0x3E))
        #expect(!mask.enables(eventCode: 0x0E))
        #expect(!mask.enables(eventCode: 0))
        // LE Connection Complete 0x01 → bit 0, LE Enhanced Connection Complete 0x0A → bit 9.
        let le = LESetEventMask(enabling: [0x01, 0x0A])
        #expect(le.leEventMask == 0x0201)
        #expect(le.enables(subeventCode: 0x0A))
        #expect(HCICommandPacket.encode(le) == [0x01, 0x20, 0x08, 0x01, 0x02, 0, 0, 0, 0, 0, 0])
    }

    /// An LE Extended Create Connection as an Android phone sent it (ftms-treadmill capture).
    @Test func realExtendedCreateConnection() throws {
        let bytes = Hex.parse("00 01 01 09 20 24 e3 e4 fa 01 60 00 30 00 09 00 28 00 00 00 f4 01 00 00 00 00") ?? []
        let c = try LEExtendedCreateConnection(bytes: bytes)
        #expect(c.peerAddress.string == "FA:E4:E3:24:20:09")
        #expect(c.initiatingPHYs == .le1M)
        #expect(c.encoded == bytes)
        var f = FieldList()
        c.describeFields(into: &f)
        #expect(f.value(of: "Peer address") == "FA:E4:E3:24:20:09 (random static)")
        #expect(f.value(of: "Own address type") == "Random (0x01)")
        #expect(f.value(of: "Min connection interval") == "0x0009 (11.25 ms)")
        #expect(f.value(of: "Supervision timeout") == "0x01F4 (5000.00 ms)")
    }

    @Test func extendedEntriesAreNestedPerPHY() {
        var f = FieldList()
        LESetExtendedScanParameters(phys: [
            .init(phy: .le1M, scanType: .active, scanInterval: 0x0060, scanWindow: 0x0030),
            .init(phy: .leCoded, scanType: .passive, scanInterval: 0x0120, scanWindow: 0x0090),
        ]).describeFields(into: &f)
        #expect(f.value(of: "PHYs") == "LE 1M, LE Coded (0x05)")
        let entries = f.entries.filter { $0.label == "Entry" }
        #expect(entries.map(\.value) == ["LE 1M", "LE Coded"])
        #expect(entries.allSatisfy { $0.level == 0 })
        let windows = f.entries.filter { $0.label == "Window" }
        #expect(windows.map(\.value) == ["0x0030 (30.00 ms)", "0x0090 (90.00 ms)"])
        #expect(windows.allSatisfy { $0.level == 1 })
    }

    @Test func commandPacketDescribesItself() throws {
        let packet = try HCICommandPacket(bytes: [0x0C, 0x20, 0x02, 0x01, 0x00])
        var f = FieldList()
        packet.describeFields(into: &f)
        #expect(f.value(of: "Opcode") == "LE Set Scan Enable (0x08|0x000C)")
        #expect(f.value(of: "Scanning") == "Enabled (0x01)")
        #expect(packet.summary == "LE Set Scan Enable plen 2")

        let vendor = try HCICommandPacket(bytes: [0x57, 0xFD, 0x02, 0xAA, 0xBB])
        f = FieldList()
        vendor.describeFields(into: &f)
        #expect(f.value(of: "Opcode") == "Vendor 0xFD57 (0x3F|0x0157)")
        #expect(f.value(of: "Parameters") == "aa bb")

        let bad = try HCICommandPacket(bytes: [0x0C, 0x20, 0x01, 0x01])
        f = FieldList()
        bad.describeFields(into: &f)
        #expect(f.value(of: "Error") != nil)
        #expect(f.value(of: "Parameters") == "01")
    }
}
