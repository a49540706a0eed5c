import Testing
@testable import Wire

private func hx(_ s: String) -> [UInt8] { Hex.parse(s) ?? [] }

/// Byte vectors from BlueZ doc/mgmt-api ("Packet Structures", and each command's and event's
/// section): header = code, controller index, parameter length, all 2 octets little-endian.
@Suite struct ManagementCodecTests {
    @Test(arguments: [
        // Set Powered (0x0005) on hci0, Powered = 0x01.
        (ManagementCommand.setPowered(true, index: 0), "05 00 00 00 01 00 01"),
        (ManagementCommand.setPowered(false, index: 2), "05 00 02 00 01 00 00"),
        // Set Low Energy (0x000D).
        (ManagementCommand.setLowEnergy(true, index: 1), "0d 00 01 00 01 00 01"),
        // Start Discovery (0x0023), Address_Type 0x06 = LE public | LE random.
        (ManagementCommand.startDiscovery(.lowEnergy, index: 0), "23 00 00 00 01 00 06"),
        // Stop Discovery (0x0024).
        (ManagementCommand.stopDiscovery(.lowEnergy, index: 0x0102), "24 00 02 01 01 00 06"),
        // Read Controller Information (0x0004): no parameters.
        (ManagementCommand.readControllerInformation(index: 3), "04 00 03 00 00 00"),
    ])
    func commandEncoding(_ command: ManagementCommand, _ bytes: String) throws {
        #expect(command.encoded == hx(bytes))
        #expect(try ManagementCommand(bytes: hx(bytes)) == command)
    }

    @Test func commandRoundTripKeepsUnknownOpcodes() throws {
        let c = ManagementCommand(opcode: ManagementOpcode(rawValue: 0x0141), index: 0xFFFF, parameters: [1, 2, 3])
        #expect(try ManagementCommand(bytes: c.encoded) == c)
        #expect(c.opcode.name == "Command 0x0141")
        // Codes the documentation lists have their names (doc/mgmt-protocol).
        #expect(ManagementOpcode(rawValue: 0x0041).name == "Start Limited Discovery")
        #expect(ManagementEventCode(rawValue: 0x000B).name == "Device Connected")
        #expect(ManagementEventCode(rawValue: 0x0FFF).name == "Event 0x0FFF")
    }

    // Command Complete (0x0001): Command_Opcode, Status, Return_Parameters.
    @Test func commandCompleteForSetPowered() throws {
        // Set Powered complete on hci0, Current_Settings = 0x00000201 (Powered | Low Energy).
        let e = try ManagementEvent(bytes: hx("01 00 00 00 07 00 05 00 00 01 02 00 00")[...])
        #expect(e.index == 0)
        guard case let .commandComplete(op, status, rp) = e.payload else { Issue.record("\(e.payload)"); return }
        #expect(op == .setPowered)
        #expect(status == .success)
        #expect(Array(rp) == hx("01 02 00 00"))
        #expect(e.encoded == hx("01 00 00 00 07 00 05 00 00 01 02 00 00"))
    }

    // Command Status (0x0002): Command_Opcode, Status. 0x14 = Permission Denied.
    @Test func commandStatusPermissionDenied() throws {
        let bytes = hx("02 00 00 00 03 00 05 00 14")
        let e = try ManagementEvent(bytes: bytes[...])
        guard case let .commandStatus(op, status) = e.payload else { Issue.record("\(e.payload)"); return }
        #expect(op == .setPowered)
        #expect(status == .permissionDenied)
        #expect(status.description == "Permission Denied (0x14)")
        #expect(e.encoded == bytes)
    }

    // Device Found (0x0012): Address, Address_Type, RSSI, Flags, EIR_Data_Length, EIR_Data.
    @Test func deviceFoundLEPublic() throws {
        // 00:AA:01:01:00:01 LE Public, RSSI -60 (0xC4), Flags 0, EIR: Flags AD (02 01 06).
        let bytes = hx("12 00 00 00 11 00 01 00 01 01 aa 00 01 c4 00 00 00 00 03 00 02 01 06")
        let e = try ManagementEvent(bytes: bytes[...])
        guard case let .deviceFound(d) = e.payload else { Issue.record("\(e.payload)"); return }
        #expect(d.address.string == "00:AA:01:01:00:01")
        #expect(d.leAddress == DeviceAddress(d.address, type: .publicDevice))
        #expect(d.rssi == -60)
        #expect(d.flags.isEmpty)
        #expect(Array(d.eirData) == hx("02 01 06"))
        #expect(e.encoded == bytes)
    }

    @Test func deviceFoundFlagsAndRandomAddress() throws {
        // Address_Type 0x02 (LE Random), Flags 0x24 = Not Connectable | Scan Response.
        let d = try ManagementDeviceFound(bytes: hx("06 05 04 03 02 c1 02 7f 24 00 00 00 00 00"))
        #expect(d.leAddress?.type == .randomDevice)
        #expect(d.flags == [.notConnectable, .scanResponse])
        #expect(d.rssi == 127)
        #expect(d.eirData.isEmpty)
        let bredr = try ManagementDeviceFound(bytes: hx("06 05 04 03 02 c1 00 7f 00 00 00 00 00 00"))
        #expect(bredr.leAddress == nil)
    }

    // Discovering (0x0013): Address_Type, Discovering.
    @Test func discoveringAndNewSettings() throws {
        let d = try ManagementEvent(bytes: hx("13 00 00 00 02 00 06 00")[...])
        guard case let .discovering(t, on) = d.payload else { Issue.record("\(d.payload)"); return }
        #expect(t == .lowEnergy)
        #expect(on == false)
        let s = try ManagementEvent(bytes: hx("06 00 01 00 04 00 01 02 00 00")[...])
        guard case let .newSettings(settings) = s.payload else { Issue.record("\(s.payload)"); return }
        #expect(settings == [.powered, .lowEnergy])
        #expect(s.index == 1)
        let r = try ManagementEvent(bytes: hx("05 00 02 00 00 00")[...])
        guard case .indexRemoved = r.payload else { Issue.record("\(r.payload)"); return }
        let unknown = try ManagementEvent(bytes: hx("0b 00 00 00 02 00 aa bb")[...])
        guard case let .other(code, p) = unknown.payload else { Issue.record("\(unknown.payload)"); return }
        #expect(code.rawValue == 0x000B)
        #expect(Array(p) == [0xAA, 0xBB])
    }

    // Read Controller Information (0x0004) return parameters: 6+1+2+4+4+3+249+11 = 280 octets.
    @Test func controllerInformationRoundTrip() throws {
        let info = ManagementControllerInformation(
            address: BDAddress(string: "00:AA:01:00:00:00") ?? .zero, bluetoothVersion: 0x09, manufacturer: 0x003F,
            supportedSettings: [.powered, .connectable, .lowEnergy, .advertising], currentSettings: [.lowEnergy],
            classOfDevice: 0, name: "rtstack", shortName: "")
        let bytes = info.encoded
        #expect(bytes.count == 280)
        #expect(Array(bytes[0..<13]) == hx("00 00 00 01 aa 00 09 3f 00 03 06 00 00"))
        let back = try ManagementControllerInformation(bytes: bytes)
        #expect(back == info)
        #expect(!back.currentSettings.contains(.powered))
    }

    @Test func malformedInputThrows() {
        // Shorter than a header.
        #expect(throws: WireError.self) { try ManagementEvent(bytes: hx("01 00 00")[...]) }
        // Parameter_Length overruns the packet.
        #expect(throws: WireError.self) { try ManagementEvent(bytes: hx("01 00 00 00 09 00 05 00 00")[...]) }
        // Command Complete without its status.
        #expect(throws: WireError.self) { try ManagementEvent(bytes: hx("01 00 00 00 02 00 05 00")[...]) }
        // Device Found whose EIR_Data_Length overruns the parameters.
        #expect(throws: WireError.self) {
            try ManagementEvent(bytes: hx("12 00 00 00 0f 00 01 00 01 01 aa 00 01 c4 00 00 00 00 05 00 02")[...])
        }
        // Discovering missing its second octet.
        #expect(throws: WireError.self) { try ManagementEvent(bytes: hx("13 00 00 00 01 00 06")[...]) }
        // Truncated controller information.
        #expect(throws: WireError.self) { try ManagementControllerInformation(bytes: hx("00 00 00 01 aa 00 09")) }
        #expect(throws: WireError.self) { try ManagementCommand(bytes: hx("05 00 00 00 02 00 01")) }
    }

    @Test func everyTruncationOfAValidEventThrowsOrDecodes() {
        let bytes = hx("12 00 00 00 11 00 01 00 01 01 aa 00 01 c4 00 00 00 00 03 00 02 01 06")
        for n in 0..<bytes.count {
            #expect(throws: WireError.self) { try ManagementEvent(bytes: bytes[0..<n]) }
        }
    }
}
