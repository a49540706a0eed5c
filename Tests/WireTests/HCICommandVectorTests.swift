import Testing
@testable import Wire

/// A command and the bytes (after the H4 indicator) the Core Specification layout gives for it.
struct CommandVector: Sendable, CustomTestStringConvertible {
    var name: String
    var command: any HCICommand & Hashable
    var hex: String

    var testDescription: String { name }

    var bytes: [UInt8] { Hex.parse(hex) ?? [] }
}

private let peerC0 = BDAddress(string: "C0:11:22:33:44:55") ?? .zero
private let peer001B = BDAddress(string: "00:1B:DC:01:02:03") ?? .zero

/// Byte vectors derived by hand from the parameter tables of Core Spec v5.4 Vol 4, Part E, §7
/// (opcode little-endian, one length octet, parameters in table order, little-endian).
let commandVectors: [CommandVector] = [
    // §7.3.2 Reset: OGF 0x03 OCF 0x0003 → 0x0C03, no parameters.
    CommandVector(name: "Reset", command: Reset(), hex: "03 0C 00"),
    // §7.3.1 Set Event Mask: Event_Mask (8).
    CommandVector(name: "Set Event Mask", command: SetEventMask(eventMask: 0x3DBF_F807_FFFB_FFFF),
                  hex: "01 0C 08 FF FF FB FF 07 F8 BF 3D"),
    // §7.8.1 LE Set Event Mask: LE_Event_Mask (8).
    CommandVector(name: "LE Set Event Mask", command: LESetEventMask(leEventMask: 0x1F),
                  hex: "01 20 08 1F 00 00 00 00 00 00 00"),
    // §7.4.1, §7.4.2, §7.4.3, §7.4.5, §7.4.6: no parameters.
    CommandVector(name: "Read Local Version Information", command: ReadLocalVersionInformation(), hex: "01 10 00"),
    CommandVector(name: "Read Local Supported Commands", command: ReadLocalSupportedCommands(), hex: "02 10 00"),
    CommandVector(name: "Read Local Supported Features", command: ReadLocalSupportedFeatures(), hex: "03 10 00"),
    CommandVector(name: "Read Buffer Size", command: ReadBufferSize(), hex: "05 10 00"),
    CommandVector(name: "Read BD_ADDR", command: ReadBDADDR(), hex: "09 10 00"),
    // §7.8.2 LE Read Buffer Size [v1] 0x2002 and [v2] 0x2060.
    CommandVector(name: "LE Read Buffer Size", command: LEReadBufferSize(), hex: "02 20 00"),
    CommandVector(name: "LE Read Buffer Size v2", command: LEReadBufferSizeV2(), hex: "60 20 00"),
    // §7.8.3, §7.8.27.
    CommandVector(name: "LE Read Local Supported Features", command: LEReadLocalSupportedFeatures(), hex: "03 20 00"),
    CommandVector(name: "LE Read Supported States", command: LEReadSupportedStates(), hex: "1C 20 00"),
    // §7.8.4 LE Set Random Address: Random_Address (6, LSB first).
    CommandVector(name: "LE Set Random Address", command: LESetRandomAddress(randomAddress: peerC0),
                  hex: "05 20 06 55 44 33 22 11 C0"),
    // §7.8.10 LE Set Scan Parameters: type, interval, window, own address type, filter policy.
    CommandVector(name: "LE Set Scan Parameters",
                  command: LESetScanParameters(scanType: .active, scanInterval: 0x0010, scanWindow: 0x0010),
                  hex: "0B 20 07 01 10 00 10 00 00 00"),
    CommandVector(name: "LE Set Scan Parameters (passive, random, accept list)",
                  command: LESetScanParameters(scanType: .passive, scanInterval: 0x0060, scanWindow: 0x0030,
                                               ownAddressType: .randomDevice, scanningFilterPolicy: .basicFiltered),
                  hex: "0B 20 07 00 60 00 30 00 01 01"),
    // §7.8.11 LE Set Scan Enable: LE_Scan_Enable, Filter_Duplicates.
    CommandVector(name: "LE Set Scan Enable", command: LESetScanEnable(scanEnable: true, filterDuplicates: false),
                  hex: "0C 20 02 01 00"),
    CommandVector(name: "LE Set Scan Enable (disable)", command: LESetScanEnable(scanEnable: false, filterDuplicates: true),
                  hex: "0C 20 02 00 01"),
    // §7.8.64 LE Set Extended Scan Parameters: own type, policy, Scanning_PHYs (1M|Coded = 0x05),
    // then Scan_Type, Scan_Interval, Scan_Window for 1M, then for Coded.
    CommandVector(name: "LE Set Extended Scan Parameters",
                  command: LESetExtendedScanParameters(phys: [
                      .init(phy: .le1M, scanType: .active, scanInterval: 0x0060, scanWindow: 0x0030),
                      .init(phy: .leCoded, scanType: .passive, scanInterval: 0x0120, scanWindow: 0x0090),
                  ]),
                  hex: "41 20 0D 00 00 05 01 60 00 30 00 00 20 01 90 00"),
    // §7.8.65 LE Set Extended Scan Enable: Enable, Filter_Duplicates, Duration (10 ms), Period (1.28 s).
    CommandVector(name: "LE Set Extended Scan Enable",
                  command: LESetExtendedScanEnable(enable: true, filterDuplicates: .enabled, duration: 0x01F4, period: 0),
                  hex: "42 20 06 01 01 F4 01 00 00"),
    // §7.8.12 LE Create Connection: 25 octets.
    CommandVector(name: "LE Create Connection",
                  command: LECreateConnection(scanInterval: 0x0060, scanWindow: 0x0030, peerAddressType: .randomDevice,
                                              peerAddress: peerC0, connectionIntervalMin: 0x0018,
                                              connectionIntervalMax: 0x0028, maxLatency: 0, supervisionTimeout: 0x002A),
                  hex: "0D 20 19 60 00 30 00 00 01 55 44 33 22 11 C0 00 18 00 28 00 00 00 2A 00 00 00 00 00"),
    CommandVector(name: "LE Create Connection (accept list)",
                  command: LECreateConnection(scanInterval: 0x0010, scanWindow: 0x0010, initiatorFilterPolicy: .filterAcceptList,
                                              peerAddressType: .publicDevice, peerAddress: .zero,
                                              ownAddressType: .randomDevice, connectionIntervalMin: 0x0006,
                                              connectionIntervalMax: 0x000C, maxLatency: 4, supervisionTimeout: 0x01F4,
                                              minCELength: 0x0002, maxCELength: 0x0004),
                  hex: "0D 20 19 10 00 10 00 01 00 00 00 00 00 00 00 01 06 00 0C 00 04 00 F4 01 02 00 04 00"),
    // §7.8.13 LE Create Connection Cancel.
    CommandVector(name: "LE Create Connection Cancel", command: LECreateConnectionCancel(), hex: "0E 20 00"),
    // §7.8.66 LE Extended Create Connection: policy, own type, peer type, peer (6), Initiating_PHYs,
    // then 8 × u16 per PHY.
    CommandVector(name: "LE Extended Create Connection (1M)",
                  command: LEExtendedCreateConnection(peerAddressType: .publicDevice, peerAddress: peer001B, phys: [
                      .init(phy: .le1M, scanInterval: 0x0060, scanWindow: 0x0030, connectionIntervalMin: 0x0018,
                            connectionIntervalMax: 0x0028, maxLatency: 0, supervisionTimeout: 0x002A),
                  ]),
                  hex: "43 20 1A 00 00 00 03 02 01 DC 1B 00 01 60 00 30 00 18 00 28 00 00 00 2A 00 00 00 00 00"),
    CommandVector(name: "LE Extended Create Connection (1M + Coded)",
                  command: LEExtendedCreateConnection(ownAddressType: .randomDevice, peerAddressType: .randomDevice,
                                                      peerAddress: peerC0, phys: [
                      .init(phy: .le1M, scanInterval: 0x0010, scanWindow: 0x0010, connectionIntervalMin: 0x0006,
                            connectionIntervalMax: 0x0006, maxLatency: 0, supervisionTimeout: 0x0064),
                      .init(phy: .leCoded, scanInterval: 0x0030, scanWindow: 0x0030, connectionIntervalMin: 0x0018,
                            connectionIntervalMax: 0x0018, maxLatency: 1, supervisionTimeout: 0x0190,
                            minCELength: 1, maxCELength: 2),
                  ]),
                  hex: "43 20 2A 00 01 01 55 44 33 22 11 C0 05"
                      + " 10 00 10 00 06 00 06 00 00 00 64 00 00 00 00 00"
                      + " 30 00 30 00 18 00 18 00 01 00 90 01 01 00 02 00"),
    // §7.1.6 Disconnect: Connection_Handle, Reason.
    CommandVector(name: "Disconnect", command: Disconnect(connectionHandle: 0x0040, reason: .remoteUserTerminatedConnection),
                  hex: "06 04 03 40 00 13"),
    // §7.8.18 LE Connection Update: handle + six u16.
    CommandVector(name: "LE Connection Update",
                  command: LEConnectionUpdate(connectionHandle: 0x0040, connectionIntervalMin: 6, connectionIntervalMax: 12,
                                              maxLatency: 0, supervisionTimeout: 0x01F4),
                  hex: "13 20 0E 40 00 06 00 0C 00 00 00 F4 01 00 00 00 00"),
    // §7.8.33 LE Set Data Length: handle, TX_Octets, TX_Time.
    CommandVector(name: "LE Set Data Length", command: LESetDataLength(connectionHandle: 0x0040, txOctets: 251, txTime: 2120),
                  hex: "22 20 06 40 00 FB 00 48 08"),
    // §7.8.21 LE Read Remote Features, §7.1.23 Read Remote Version Information: handle.
    CommandVector(name: "LE Read Remote Features", command: LEReadRemoteFeatures(connectionHandle: 0x0040),
                  hex: "16 20 02 40 00"),
    CommandVector(name: "Read Remote Version Information", command: ReadRemoteVersionInformation(connectionHandle: 0x0040),
                  hex: "1D 04 02 40 00"),
    // §7.8.14–§7.8.17 Filter Accept List.
    CommandVector(name: "LE Add Device To Filter Accept List",
                  command: LEAddDeviceToFilterAcceptList(addressType: .randomDevice, address: peerC0),
                  hex: "11 20 07 01 55 44 33 22 11 C0"),
    CommandVector(name: "LE Remove Device From Filter Accept List",
                  command: LERemoveDeviceFromFilterAcceptList(addressType: .publicDevice, address: peer001B),
                  hex: "12 20 07 00 03 02 01 DC 1B 00"),
    CommandVector(name: "LE Add Device To Filter Accept List (anonymous)",
                  command: LEAddDeviceToFilterAcceptList(addressType: .anonymous, address: .zero),
                  hex: "11 20 07 FF 00 00 00 00 00 00"),
    CommandVector(name: "LE Clear Filter Accept List", command: LEClearFilterAcceptList(), hex: "10 20 00"),
    CommandVector(name: "LE Read Filter Accept List Size", command: LEReadFilterAcceptListSize(), hex: "0F 20 00"),
    // §7.5.4 Read RSSI: Handle.
    CommandVector(name: "Read RSSI", command: ReadRSSI(handle: 0x0040), hex: "05 14 02 40 00"),
    // §7.8.49 LE Set PHY: handle, All_PHYs, TX_PHYs, RX_PHYs, PHY_Options (2).
    CommandVector(name: "LE Set PHY", command: LESetPHY(connectionHandle: 0x0040, txPHYs: .le2M, rxPHYs: .le2M),
                  hex: "32 20 07 40 00 00 02 02 00 00"),
    CommandVector(name: "LE Set PHY (coded S=8, no RX preference)",
                  command: LESetPHY(connectionHandle: 0x0001, allPHYs: .noRXPreference, txPHYs: .leCoded,
                                    rxPHYs: [], phyOptions: .preferS8),
                  hex: "32 20 07 01 00 02 04 00 02 00"),
    // §7.8.5 LE Set Advertising Parameters: 15 octets.
    CommandVector(name: "LE Set Advertising Parameters",
                  command: LESetAdvertisingParameters(advertisingIntervalMin: 0x00A0, advertisingIntervalMax: 0x00A0),
                  hex: "06 20 0F A0 00 A0 00 00 00 00 00 00 00 00 00 00 07 00"),
    // §7.8.7 LE Set Advertising Data: length octet + 31 octets, zero padded.
    CommandVector(name: "LE Set Advertising Data", command: LESetAdvertisingData(advertisingData: [0x02, 0x01, 0x06]),
                  hex: "08 20 20 03 02 01 06" + String(repeating: " 00", count: 28)),
    // §7.8.8 LE Set Scan Response Data: same layout.
    CommandVector(name: "LE Set Scan Response Data", command: LESetScanResponseData(scanResponseData: [0x02, 0x0A, 0xF4]),
                  hex: "09 20 20 03 02 0A F4" + String(repeating: " 00", count: 28)),
    // §7.8.9 LE Set Advertising Enable.
    CommandVector(name: "LE Set Advertising Enable", command: LESetAdvertisingEnable(advertisingEnable: true),
                  hex: "0A 20 01 01"),
    // §7.3.39 Host Buffer Size: u16, u8, u16, u16.
    CommandVector(name: "Host Buffer Size",
                  command: HostBufferSize(hostACLDataPacketLength: 0x0400, hostTotalNumACLDataPackets: 0x0010),
                  hex: "33 0C 07 00 04 00 10 00 00 00"),
    // §7.3.79 Write LE Host Support: LE_Supported_Host, Unused.
    CommandVector(name: "Write LE Host Support", command: WriteLEHostSupport(leSupportedHost: true), hex: "6D 0C 02 01 00"),
]

private func encodesAndDecodes<C: HCICommand & Hashable>(_ command: C, _ expected: [UInt8]) throws {
    #expect(HCICommandPacket.encode(command) == expected)
    #expect(command.packet.h4Bytes == [0x01] + expected)
    let framed = try HCICommandPacket(bytes: expected)
    #expect(framed.opcode == C.opcode)
    #expect(try framed.decode(C.self) == command)
}

private func everyPrefixThrows<C: HCICommand & Hashable>(_ command: C, _ parameters: ArraySlice<UInt8>) {
    for n in 0..<parameters.count {
        #expect(throws: WireError.self, "\(C.opcode.name) with \(n) of \(parameters.count) octets") {
            _ = try C(bytes: parameters.prefix(n))
        }
    }
}

@Suite struct HCICommandVectorTests {
    @Test(arguments: commandVectors)
    func encodesToSpecBytesAndBack(_ v: CommandVector) throws {
        #expect(!v.bytes.isEmpty)
        try encodesAndDecodes(v.command, v.bytes)
    }

    @Test(arguments: commandVectors)
    func parameterLengthMatchesLengthOctet(_ v: CommandVector) {
        let b = v.bytes
        #expect(b.count >= 3)
        #expect(Int(b[2]) == b.count - 3)
    }

    @Test(arguments: commandVectors)
    func truncatedParametersThrow(_ v: CommandVector) {
        func open<C: HCICommand & Hashable>(_ c: C) { everyPrefixThrows(c, v.bytes.dropFirst(3)) }
        open(v.command)
    }

    @Test func everyCatalogCommandHasAVector() {
        let covered = Set(commandVectors.map { type(of: $0.command).opcode })
        for t in HCICommandCatalog.allCommandTypes {
            #expect(covered.contains(t.opcode), "no vector for \(t.opcode.name)")
        }
    }
}
