import Testing
@testable import Wire

private func hx(_ s: String) -> [UInt8] { Hex.parse(s) ?? [] }

@Suite struct ATTGATTDeclarationTests {
    // Core Spec v5.4 Vol 3, Part G, §3.3.1: Properties 0x10 (Notify), value handle 0x0003,
    // UUID 0x2A37 (Heart Rate Measurement).
    @Test func characteristicDeclaration16() throws {
        let decl = try CharacteristicDeclaration(bytes: hx("10 03 00 37 2a"))
        #expect(decl.properties == .notify)
        #expect(decl.valueHandle == 3)
        #expect(decl.uuid == BluetoothUUID(0x2A37))
        #expect(decl.encoded == hx("10 03 00 37 2a"))
    }

    @Test func characteristicDeclaration128() throws {
        let bytes = hx("1a 0d 00 42 00 74 a9 ff 52 10 9b 33 49 35 9b 01 01 68 ef")
        let decl = try CharacteristicDeclaration(bytes: bytes)
        #expect(decl.properties == [.read, .write, .notify])
        #expect(decl.uuid.fullString == "EF680101-9B35-4933-9B10-52FFA9740042")
        #expect(decl.encoded == bytes)
        #expect(try CharacteristicDeclaration(bytes: decl.encoded) == decl)
    }

    @Test func characteristicDeclarationRejectsOtherUUIDWidths() {
        #expect(throws: WireError.self) { try CharacteristicDeclaration(bytes: hx("10 03 00 37")) }
        #expect(throws: WireError.self) { try CharacteristicDeclaration(bytes: hx("10 03 00 37 2a 00 00")) }
        #expect(throws: WireError.self) { try CharacteristicDeclaration(bytes: hx("10 03")) }
    }

    // §3.3.1.1 Characteristic Properties bits.
    @Test func propertyBitsAndNames() {
        #expect(CharacteristicProperties.broadcast.rawValue == 0x01)
        #expect(CharacteristicProperties.read.rawValue == 0x02)
        #expect(CharacteristicProperties.writeWithoutResponse.rawValue == 0x04)
        #expect(CharacteristicProperties.write.rawValue == 0x08)
        #expect(CharacteristicProperties.notify.rawValue == 0x10)
        #expect(CharacteristicProperties.indicate.rawValue == 0x20)
        #expect(CharacteristicProperties.authenticatedSignedWrites.rawValue == 0x40)
        #expect(CharacteristicProperties.extendedProperties.rawValue == 0x80)
        #expect(CharacteristicProperties(rawValue: 0xFF).names == [
            "Broadcast", "Read", "Write Without Response", "Write", "Notify", "Indicate",
            "Authenticated Signed Writes", "Extended Properties",
        ])
        #expect(CharacteristicProperties([.read, .notify]).description == "0x12 (Read, Notify)")
    }

    @Test func characteristicDeclarationFields() throws {
        let decl = try CharacteristicDeclaration(bytes: hx("12 03 00 37 2a"))
        var fields = FieldList()
        decl.describeFields(into: &fields)
        #expect(fields.value(of: "Value handle") == "0x0003")
        #expect(fields.value(of: "UUID") == "2A37")
        #expect(fields.value(of: "Properties") == "0x12 (Read, Notify)")
    }

    // §3.2 Include declaration: with a 16-bit service UUID (6 bytes) and without (4 bytes).
    @Test func includeDeclaration() throws {
        let with16 = try IncludeDeclaration(bytes: hx("05 00 08 00 0f 18"))
        #expect(with16 == IncludeDeclaration(includedServiceAttributeHandle: 5, endGroupHandle: 8, serviceUUID: BluetoothUUID(0x180F)))
        #expect(with16.encoded == hx("05 00 08 00 0f 18"))
        let without = try IncludeDeclaration(bytes: hx("05 00 08 00"))
        #expect(without.serviceUUID == nil)
        #expect(without.encoded == hx("05 00 08 00"))
        #expect(throws: WireError.self) { try IncludeDeclaration(bytes: hx("05 00 08 00 0f")) }
        #expect(throws: WireError.self) { try IncludeDeclaration(bytes: hx("05 00 08")) }
    }

    // §3.3.3.3 Client Characteristic Configuration: bit 0 notification, bit 1 indication.
    @Test func clientCharacteristicConfiguration() throws {
        #expect(ClientCharacteristicConfiguration.notification.encoded == hx("01 00"))
        #expect(ClientCharacteristicConfiguration.indication.encoded == hx("02 00"))
        #expect(try ClientCharacteristicConfiguration(bytes: hx("03 00")) == [.notification, .indication])
        #expect(try ClientCharacteristicConfiguration(bytes: hx("00 00")).isEmpty)
        #expect(throws: WireError.self) { try ClientCharacteristicConfiguration(bytes: hx("01")) }
        #expect(ClientCharacteristicConfiguration.notification.description == "0x0001 (Notification)")
    }

    // Assigned Numbers: GATT declarations and descriptors.
    @Test func gattAttributeTypes() {
        #expect(BluetoothUUID.primaryService.uuid16 == 0x2800)
        #expect(BluetoothUUID.secondaryService.uuid16 == 0x2801)
        #expect(BluetoothUUID.include.uuid16 == 0x2802)
        #expect(BluetoothUUID.characteristic.uuid16 == 0x2803)
        #expect(BluetoothUUID.characteristicExtendedProperties.uuid16 == 0x2900)
        #expect(BluetoothUUID.characteristicUserDescription.uuid16 == 0x2901)
        #expect(BluetoothUUID.clientCharacteristicConfiguration.uuid16 == 0x2902)
        #expect(BluetoothUUID.serviceChanged.uuid16 == 0x2A05)
        #expect(BluetoothUUID.databaseHash.uuid16 == 0x2B2A)
        #expect(BluetoothUUID.characteristic.gattAttributeTypeName == "Characteristic")
        #expect(BluetoothUUID(0x180D).gattAttributeTypeName == nil)
    }
}
