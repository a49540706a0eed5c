import Testing
@testable import Wire

@Suite struct UUIDNamesTests {
    // Bluetooth Assigned Numbers §3.4 (services), §3.5 (declarations), §3.7 (descriptors),
    // §3.8 (characteristics), §3.11 (member services).
    static let table: [(String, String)] = [
        ("1800", "Generic Access"),
        ("1801", "Generic Attribute"),
        ("1805", "Current Time"),
        ("180A", "Device Information"),
        ("180D", "Heart Rate"),
        ("180F", "Battery"),
        ("1814", "Running Speed and Cadence"),
        ("1816", "Cycling Speed and Cadence"),
        ("181A", "Environmental Sensing"),
        ("181B", "Body Composition"),
        ("1826", "Fitness Machine"),
        ("2800", "Primary Service"),
        ("2801", "Secondary Service"),
        ("2802", "Include"),
        ("2803", "Characteristic"),
        ("2900", "Characteristic Extended Properties"),
        ("2901", "Characteristic User Description"),
        ("2902", "Client Characteristic Configuration"),
        ("2908", "Report Reference"),
        ("290E", "Time Trigger Setting"),
        ("2A00", "Device Name"),
        ("2A01", "Appearance"),
        ("2A04", "Peripheral Preferred Connection Parameters"),
        ("2A05", "Service Changed"),
        ("2A19", "Battery Level"),
        ("2A23", "System ID"),
        ("2A24", "Model Number String"),
        ("2A25", "Serial Number String"),
        ("2A26", "Firmware Revision String"),
        ("2A27", "Hardware Revision String"),
        ("2A28", "Software Revision String"),
        ("2A29", "Manufacturer Name String"),
        ("2A37", "Heart Rate Measurement"),
        ("2A38", "Body Sensor Location"),
        ("2A39", "Heart Rate Control Point"),
        ("2A50", "PnP ID"),
        ("2A53", "RSC Measurement"),
        ("2A54", "RSC Feature"),
        ("2A55", "SC Control Point"),
        ("2A5B", "CSC Measurement"),
        ("2A5C", "CSC Feature"),
        ("2A5D", "Sensor Location"),
        ("2A6D", "Pressure"),
        ("2A6E", "Temperature"),
        ("2A6F", "Humidity"),
        ("2A92", "Resting Heart Rate"),
        ("2ACC", "Fitness Machine Feature"),
        ("2ACD", "Treadmill Data"),
        ("2AD2", "Indoor Bike Data"),
        ("2AD9", "Fitness Machine Control Point"),
        ("2B29", "Client Supported Features"),
        ("2B2A", "Database Hash"),
        ("2B3A", "Server Supported Features"),
        ("FE59", "Nordic Semiconductor ASA (Secure DFU)"),
        ("EF680100-9B35-4933-9B10-52FFA9740042", "Thingy Configuration Service"),
        ("EF680200-9B35-4933-9B10-52FFA9740042", "Thingy Weather Station Service"),
        ("EF680201-9B35-4933-9B10-52FFA9740042", "Thingy Temperature"),
        ("EF680202-9B35-4933-9B10-52FFA9740042", "Thingy Pressure"),
        ("EF680203-9B35-4933-9B10-52FFA9740042", "Thingy Humidity"),
        ("EF680204-9B35-4933-9B10-52FFA9740042", "Thingy Air Quality"),
        ("EF680206-9B35-4933-9B10-52FFA9740042", "Thingy Weather Station Configuration"),
        ("EF680300-9B35-4933-9B10-52FFA9740042", "Thingy User Interface Service"),
        ("EF680301-9B35-4933-9B10-52FFA9740042", "Thingy LED"),
        ("EF680302-9B35-4933-9B10-52FFA9740042", "Thingy Button"),
        ("EF680400-9B35-4933-9B10-52FFA9740042", "Thingy Motion Service"),
        ("EF680500-9B35-4933-9B10-52FFA9740042", "Thingy Sound Service"),
        ("6E400001-B5A3-F393-E0A9-E50E24DCCA9E", "Nordic UART Service"),
        ("6E400002-B5A3-F393-E0A9-E50E24DCCA9E", "Nordic UART RX"),
        ("6E400003-B5A3-F393-E0A9-E50E24DCCA9E", "Nordic UART TX"),
        ("8EC90001-F315-4F60-9FB8-838830DAEA50", "Secure DFU Control Point"),
    ]

    @Test func namesTable() throws {
        for (text, name) in Self.table {
            let uuid = try #require(BluetoothUUID(string: text), "\(text)")
            #expect(uuid.name == name, "\(text)")
        }
    }

    @Test func unknownUUIDsHaveNoName() throws {
        #expect(BluetoothUUID(0xEC88).name == nil)
        #expect(BluetoothUUID(uuid32: 0x1234_5678).name == nil)
        // Same Thingy base, unassigned short part; and an assigned short part on a different base.
        #expect(BluetoothUUID.thingy(0x0999).name == nil)
        let almostThingy = try #require(BluetoothUUID(string: "EF680201-9B35-4933-9B10-52FFA9740043"))
        #expect(almostThingy.name == nil)
        #expect(BluetoothUUID.nordicUART(0x0004).name == nil)
        // A 32-bit alias is not the 16-bit one of the same low bits.
        #expect(BluetoothUUID(uuid32: 0x0001_180D).name == nil)
    }

    @Test func nameAndValueForTheDissector() {
        #expect(BluetoothUUID.heartRate.nameAndValue == "Heart Rate (0x180D)")
        #expect(BluetoothUUID(0xEC88).nameAndValue == "Unknown (0xEC88)")
        #expect(BluetoothUUID(uuid32: 0x1234_5678).nameAndValue == "Unknown (0x12345678)")
        #expect(BluetoothUUID.thingyTemperature.nameAndValue
            == "Thingy Temperature (EF680201-9B35-4933-9B10-52FFA9740042)")
    }

    @Test func staticConstants() {
        #expect(BluetoothUUID.heartRate.uuid16 == 0x180D)
        #expect(BluetoothUUID.heartRateMeasurement.uuid16 == 0x2A37)
        #expect(BluetoothUUID.bodySensorLocation.uuid16 == 0x2A38)
        #expect(BluetoothUUID.runningSpeedAndCadence.uuid16 == 0x1814)
        #expect(BluetoothUUID.rscMeasurement.uuid16 == 0x2A53)
        #expect(BluetoothUUID.rscFeature.uuid16 == 0x2A54)
        #expect(BluetoothUUID.batteryService.uuid16 == 0x180F)
        #expect(BluetoothUUID.batteryLevel.uuid16 == 0x2A19)
        #expect(BluetoothUUID.environmentalSensing.uuid16 == 0x181A)
        #expect(BluetoothUUID.temperature.uuid16 == 0x2A6E)
        #expect(BluetoothUUID.serviceChanged.uuid16 == 0x2A05)
        #expect(BluetoothUUID.databaseHash.uuid16 == 0x2B2A)
        #expect(BluetoothUUID.clientCharacteristicConfiguration.uuid16 == 0x2902)
        #expect(BluetoothUUID.thingyConfiguration.fullString == "EF680100-9B35-4933-9B10-52FFA9740042")
        #expect(BluetoothUUID.thingyWeather.fullString == "EF680200-9B35-4933-9B10-52FFA9740042")
        #expect(BluetoothUUID.thingyTemperature.fullString == "EF680201-9B35-4933-9B10-52FFA9740042")
        #expect(BluetoothUUID.nordicUARTService.fullString == "6E400001-B5A3-F393-E0A9-E50E24DCCA9E")
        #expect(BluetoothUUID.nordicUARTTX.fullString == "6E400003-B5A3-F393-E0A9-E50E24DCCA9E")
    }

    @Test func widths() throws {
        #expect(BluetoothUUID.heartRate.shortestWidth == .bits16)
        #expect(BluetoothUUID(uuid32: 0x0001_0000).shortestWidth == .bits32)
        #expect(BluetoothUUID.thingyWeather.shortestWidth == .bits128)
        #expect(BluetoothUUID.heartRate.fits(.bits32))
        #expect(!BluetoothUUID.thingyWeather.fits(.bits32))
        for uuid in [BluetoothUUID.heartRate, BluetoothUUID(uuid32: 0xFEED_BEEF), .thingyTemperature] {
            for width in BluetoothUUID.Width.allCases where uuid.fits(width) {
                var w = ByteWriter()
                uuid.write(to: &w, width: width)
                #expect(w.bytes.count == width.byteCount)
                var r = ByteReader(w.bytes)
                #expect(try BluetoothUUID(reading: &r, width: width) == uuid)
            }
        }
        // Core Spec v5.4 Vol 3, Part B, §2.5.1: 128-bit value of a 16-bit UUID on the base.
        var w = ByteWriter()
        BluetoothUUID.heartRate.write(to: &w, width: .bits128)
        #expect(w.bytes == BluetoothUUID.heartRate.littleEndianBytes128)
    }
}
