import Testing
@testable import Wire

@Suite struct AdvertisingTypeTests {
    // Bluetooth Assigned Numbers §2.3 "Common Data Types": every assigned value and its name.
    static let assigned: [(UInt8, String)] = [
        (0x01, "Flags"),
        (0x02, "Incomplete List of 16-bit Service or Service Class UUIDs"),
        (0x03, "Complete List of 16-bit Service or Service Class UUIDs"),
        (0x04, "Incomplete List of 32-bit Service or Service Class UUIDs"),
        (0x05, "Complete List of 32-bit Service or Service Class UUIDs"),
        (0x06, "Incomplete List of 128-bit Service or Service Class UUIDs"),
        (0x07, "Complete List of 128-bit Service or Service Class UUIDs"),
        (0x08, "Shortened Local Name"),
        (0x09, "Complete Local Name"),
        (0x0A, "Tx Power Level"),
        (0x0D, "Class of Device"),
        (0x0E, "Simple Pairing Hash C-192"),
        (0x0F, "Simple Pairing Randomizer R-192"),
        (0x10, "Device ID / Security Manager TK Value"),
        (0x11, "Security Manager Out of Band Flags"),
        (0x12, "Peripheral Connection Interval Range"),
        (0x14, "List of 16-bit Service Solicitation UUIDs"),
        (0x15, "List of 128-bit Service Solicitation UUIDs"),
        (0x16, "Service Data - 16-bit UUID"),
        (0x17, "Public Target Address"),
        (0x18, "Random Target Address"),
        (0x19, "Appearance"),
        (0x1A, "Advertising Interval"),
        (0x1B, "LE Bluetooth Device Address"),
        (0x1C, "LE Role"),
        (0x1D, "Simple Pairing Hash C-256"),
        (0x1E, "Simple Pairing Randomizer R-256"),
        (0x1F, "List of 32-bit Service Solicitation UUIDs"),
        (0x20, "Service Data - 32-bit UUID"),
        (0x21, "Service Data - 128-bit UUID"),
        (0x22, "LE Secure Connections Confirmation Value"),
        (0x23, "LE Secure Connections Random Value"),
        (0x24, "URI"),
        (0x25, "Indoor Positioning"),
        (0x26, "Transport Discovery Data"),
        (0x27, "LE Supported Features"),
        (0x28, "Channel Map Update Indication"),
        (0x29, "PB-ADV"),
        (0x2A, "Mesh Message"),
        (0x2B, "Mesh Beacon"),
        (0x2C, "BIGInfo"),
        (0x2D, "Broadcast_Code"),
        (0x2E, "Resolvable Set Identifier"),
        (0x2F, "Advertising Interval - long"),
        (0x30, "Broadcast_Name"),
        (0x31, "Encrypted Advertising Data"),
        (0x32, "Periodic Advertising Response Timing Information"),
        (0x34, "Electronic Shelf Label"),
        (0x3D, "3D Information Data"),
        (0xFF, "Manufacturer Specific Data"),
    ]

    @Test func everyAssignedTypeHasItsName() {
        for (value, name) in Self.assigned {
            #expect(ADType(value).name == name, "0x\(String(value, radix: 16))")
        }
        #expect(ADType.allKnown.map(\.rawValue) == Self.assigned.map(\.0))
    }

    @Test func unknownTypesShowTheirValue() {
        #expect(ADType(0x00).name == "Unknown (0x00)")
        #expect(ADType(0x13).name == "Unknown (0x13)")
        #expect(ADType(0x33).description == "Unknown (0x33)")
        #expect(ADType(0xFE).knownName == nil)
    }

    @Test func staticConstantsMatchTheirValues() {
        #expect(ADType.flags.rawValue == 0x01)
        #expect(ADType.completeLocalName.rawValue == 0x09)
        #expect(ADType.txPowerLevel.rawValue == 0x0A)
        #expect(ADType.peripheralConnectionIntervalRange.rawValue == 0x12)
        #expect(ADType.list32BitServiceSolicitationUUIDs.rawValue == 0x1F)
        #expect(ADType.serviceData128BitUUID.rawValue == 0x21)
        #expect(ADType.uri.rawValue == 0x24)
        #expect(ADType.leSupportedFeatures.rawValue == 0x27)
        #expect(ADType.broadcastName.rawValue == 0x30)
        #expect(ADType.threeDInformationData.rawValue == 0x3D)
        #expect(ADType.manufacturerSpecificData.rawValue == 0xFF)
    }

    @Test func widthsAndFamilies() {
        for w in BluetoothUUID.Width.allCases {
            #expect(ADType.serviceUUIDList(w, complete: true).uuidWidth == w)
            #expect(ADType.serviceUUIDList(w, complete: false).isServiceUUIDList)
            #expect(ADType.solicitationList(w).isSolicitationList)
            #expect(ADType.solicitationList(w).uuidWidth == w)
            #expect(ADType.serviceData(w).isServiceData)
            #expect(ADType.serviceData(w).uuidWidth == w)
        }
        #expect(ADType.flags.uuidWidth == nil)
        #expect(!ADType.list16BitServiceSolicitationUUIDs.isServiceUUIDList)
    }

    @Test func flagNames() {
        // Core Specification Supplement Part A §1.3.2
        #expect(ADFlags(rawValue: 0x1F).names == [
            "LE Limited Discoverable Mode",
            "LE General Discoverable Mode",
            "BR/EDR Not Supported",
            "Simultaneous LE and BR/EDR to Same Device Capable (Controller)",
            "Simultaneous LE and BR/EDR to Same Device Capable (Host)",
        ])
        #expect(ADFlags(rawValue: 0x80).names == ["Reserved (bit 7)"])
        #expect(ADFlags.generalDiscoverableLEOnly.description
            == "0x06 (LE General Discoverable Mode, BR/EDR Not Supported)")
    }

    @Test func appearanceNames() {
        // Assigned Numbers §2.6: category in bits 15–6, subcategory in bits 5–0.
        let table: [(UInt16, String)] = [
            (0x0000, "Generic Unknown"),
            (0x0040, "Generic Phone"),
            (0x0080, "Generic Computer"),
            (0x0083, "Computer: Laptop"),
            (0x00C0, "Generic Watch"),
            (0x00C1, "Watch: Sports Watch"),
            (0x00C2, "Watch: Smartwatch"),
            (0x0340, "Generic Heart Rate Sensor"),
            (0x0341, "Heart Rate Sensor: Heart Rate Belt"),
            (0x0440, "Generic Running Walking Sensor"),
            (0x0441, "Running Walking Sensor: In-Shoe Running Walking Sensor"),
            (0x0442, "Running Walking Sensor: On-Shoe Running Walking Sensor"),
            (0x0443, "Running Walking Sensor: On-Hip Running Walking Sensor"),
            (0x0480, "Generic Cycling"),
            (0x0485, "Cycling: Speed and Cadence Sensor"),
            (0x0540, "Generic Sensor"),
            (0x0543, "Sensor: Temperature Sensor"),
            (0x0C41, "Pulse Oximeter: Fingertip Pulse Oximeter"),
            (0x1441, "Outdoor Sports Activity: Location Display"),
            (0x037F, "Heart Rate Sensor: subcategory 0x3F"),
            (0xFFC0, "Unknown (0xFFC0)"),
        ]
        for (raw, name) in table {
            #expect(Appearance(rawValue: raw).name == name, "\(Hex.number(raw, width: 4))")
        }
        let belt = Appearance(category: 0x00D, subcategory: 0x01)
        #expect(belt == .heartRateBelt)
        #expect(belt.category == 0x00D)
        #expect(belt.subcategory == 1)
        #expect(belt.description == "Heart Rate Sensor: Heart Rate Belt (0x0341)")
    }

    @Test func companyNames() {
        let table: [(UInt16, String)] = [
            (0x0006, "Microsoft"),
            (0x004C, "Apple, Inc."),
            (0x0059, "Nordic Semiconductor ASA"),
            (0x0075, "Samsung Electronics Co. Ltd."),
            (0x0087, "Garmin International, Inc."),
            (0x00E0, "Google"),
            (0x0131, "Cypress Semiconductor"),
            (0x0157, "Anhui Huami Information Technology Co., Ltd."),
            (0x038F, "Xiaomi Inc."),
            (0x006B, "Polar Electro OY"),
        ]
        for (raw, name) in table { #expect(CompanyIdentifier(raw).name == name) }
        #expect(CompanyIdentifier(0xEC88).name == nil)
        #expect(CompanyIdentifier(0xEC88).description == "Unknown (0xEC88)")
        #expect(CompanyIdentifier.apple.description == "Apple, Inc. (0x004C)")
    }

    @Test func leRoleNames() {
        // Core Specification Supplement Part A §1.17
        #expect(ADLERole.peripheralOnly.name == "Only Peripheral Role supported")
        #expect(ADLERole.centralOnly.name == "Only Central Role supported")
        #expect(ADLERole.bothCentralPreferred.name.hasSuffix("Central Role preferred for connection establishment"))
        #expect(ADLERole(rawValue: 0x04).name == "Reserved (0x04)")
    }
}
