import Testing
@testable import Wire

@Suite struct HCICommandPacketTests {
    // Core Spec v5.4 Vol 4, Part E, §5.4.1: Opcode (2, LE), Parameter_Total_Length (1), parameters.
    @Test func framesOpcodeLengthAndParameters() throws {
        let bytes: [UInt8] = [0x0C, 0x20, 0x02, 0x01, 0x00, 0xEE]
        let p = try HCICommandPacket(bytes: bytes)
        #expect(p.opcode == .leSetScanEnable)
        #expect(p.opcode.ogf == 0x08 && p.opcode.ocf == 0x000C)
        #expect(Array(p.parameters) == [0x01, 0x00])
        // The parameters are a slice of the input, not a copy.
        #expect(p.parameters.startIndex == 3)
        #expect(p.encoded == [0x0C, 0x20, 0x02, 0x01, 0x00])
    }

    @Test func overrunningLengthThrows() {
        #expect(throws: WireError.truncated(field: "Parameters", needed: 5, available: 2)) {
            _ = try HCICommandPacket(bytes: [0x0C, 0x20, 0x05, 0x01, 0x00])
        }
    }

    @Test func truncatedHeaderThrows() {
        #expect(throws: WireError.self) { _ = try HCICommandPacket(bytes: []) }
        #expect(throws: WireError.self) { _ = try HCICommandPacket(bytes: [0x03]) }
        #expect(throws: WireError.self) { _ = try HCICommandPacket(bytes: [0x03, 0x0C]) }
    }

    @Test func fromHCIPacket() throws {
        let packet = LESetScanEnable(scanEnable: true).packet
        #expect(packet.type == .command)
        #expect(packet.h4Bytes == [0x01, 0x0C, 0x20, 0x02, 0x01, 0x00])
        let framed = try HCICommandPacket(packet)
        #expect(try framed.decode(LESetScanEnable.self) == LESetScanEnable(scanEnable: true))
        #expect(framed.packet == packet)

        #expect(throws: WireError.self) {
            _ = try HCICommandPacket(HCIPacket(type: .event, bytes: [0x0E, 0x00]))
        }
    }

    @Test func decodingAsAnotherCommandThrows() throws {
        let framed = try HCICommandPacket(bytes: [0x03, 0x0C, 0x00])
        #expect(throws: WireError.invalidValue(field: "Opcode", value: 0x0C03)) {
            _ = try framed.decode(LESetScanEnable.self)
        }
        #expect(try framed.decode(Reset.self) == Reset())
    }

    @Test func reservedBooleanValueThrows() {
        // §7.8.11: LE_Scan_Enable 0x02–0xFF reserved.
        #expect(throws: WireError.invalidValue(field: "LE_Scan_Enable", value: 2)) {
            _ = try LESetScanEnable(bytes: [0x02, 0x00])
        }
    }

    @Test func reservedPeerAddressTypeThrows() {
        var bytes = Hex.parse("60 00 30 00 00 01 55 44 33 22 11 C0 00 18 00 28 00 00 00 2A 00 00 00 00 00") ?? []
        #expect((try? LECreateConnection(bytes: bytes)) != nil)
        bytes[5] = 0x04
        #expect(throws: WireError.invalidValue(field: "Peer_Address_Type", value: 4)) {
            _ = try LECreateConnection(bytes: bytes)
        }
    }

    @Test func advertisingDataLengthOver31Throws() {
        let bytes = [UInt8(32)] + [UInt8](repeating: 0, count: 31)
        #expect(throws: WireError.invalidValue(field: "Advertising_Data_Length", value: 32)) {
            _ = try LESetAdvertisingData(bytes: bytes)
        }
    }

    @Test func advertisingDataIsCutTo31Octets() throws {
        let long = LESetAdvertisingData(advertisingData: [UInt8](repeating: 0xAA, count: 40))
        let bytes = HCICommandPacket.encode(long)
        #expect(bytes.count == 3 + 32)
        #expect(bytes[3] == 31)
        #expect(try LESetAdvertisingData(bytes: bytes[3...]).advertisingData.count == 31)
    }

    @Test func extendedEntriesAreWrittenInPHYOrder() throws {
        let unordered = LESetExtendedScanParameters(phys: [
            .init(phy: .leCoded, scanType: .passive, scanInterval: 0x0120, scanWindow: 0x0090),
            .init(phy: .le1M, scanType: .active, scanInterval: 0x0060, scanWindow: 0x0030),
        ])
        #expect(unordered.scanningPHYs == [.le1M, .leCoded])
        #expect(HCICommandPacket.encode(unordered) == Hex.parse("41 20 0D 00 00 05 01 60 00 30 00 00 20 01 90 00"))
    }

    @Test func extendedScanParametersWithMissingEntryThrows() {
        // Scanning_PHYs says 1M and Coded but only one entry follows.
        #expect(throws: WireError.self) {
            _ = try LESetExtendedScanParameters(bytes: Hex.parse("00 00 05 01 60 00 30 00") ?? [])
        }
    }

    @Test func commandsAnsweredWithCommandStatus() {
        #expect(LECreateConnection.completesWithStatus)
        #expect(LEExtendedCreateConnection.completesWithStatus)
        #expect(Disconnect.completesWithStatus)
        #expect(LEConnectionUpdate.completesWithStatus)
        #expect(LEReadRemoteFeatures.completesWithStatus)
        #expect(ReadRemoteVersionInformation.completesWithStatus)
        #expect(LESetPHY.completesWithStatus)
        #expect(!LECreateConnectionCancel.completesWithStatus)
        #expect(!Reset.completesWithStatus)
        #expect(!LESetDataLength.completesWithStatus)
        #expect(!ReadRSSI.completesWithStatus)
        let statusCommands = HCICommandCatalog.allCommandTypes.filter { $0.completesWithStatus }.map { $0.opcode }
        #expect(Set(statusCommands) == [.leCreateConnection, .leExtendedCreateConnection, .disconnect,
                                       .leConnectionUpdate, .leReadRemoteFeatures, .readRemoteVersionInformation,
                                       .leSetPHY])
    }
}
