import Testing
import Wire
@testable import Sensors

@Suite struct ThingyTemperatureTests {
    // Thingy:52 firmware documentation, Environment Service, Temperature characteristic 0x0201:
    // int8 integer °C, uint8 decimal (hundredths). Negative values: see `ThingyTemperature`.
    static let vectors: [(String, Int8, UInt8, Int, String)] = [
        ("17 32", 23, 50, 2350, "23.50 °C"),
        ("00 00", 0, 0, 0, "0.00 °C"),
        ("00 05", 0, 5, 5, "0.05 °C"),
        ("FB 19", -5, 25, -525, "-5.25 °C"),
        ("FF 00", -1, 0, -100, "-1.00 °C"),
        ("80 63", -128, 99, -12899, "-128.99 °C"),
        ("7F 63", 127, 99, 12799, "127.99 °C"),
    ]

    @Test(arguments: 0..<7)
    func decodes(index: Int) throws {
        let (hex, integer, decimal, hundredths, summary) = Self.vectors[index]
        let t = try ThingyTemperature(decoding: bytes(hex))
        #expect(t.integer == integer && t.decimal == decimal)
        #expect(t.hundredths == hundredths)
        #expect(t.celsius == Double(hundredths) / 100)
        #expect(t.summary == summary)
        #expect(t.encoded == bytes(hex))
        #expect(ThingyTemperature(hundredths: hundredths) == t)
    }

    @Test func buildingFromHundredthsFollowsTheFirmwareTruncation() {
        #expect(ThingyTemperature(hundredths: -525) == ThingyTemperature(integer: -5, decimal: 25))
        // Between -1 and 0 °C the sign is lost, as on a real Thingy.
        #expect(ThingyTemperature(hundredths: -25)?.hundredths == 25)
        #expect(ThingyTemperature(hundredths: 12800) == nil)
        #expect(ThingyTemperature(hundredths: -12900) == nil)
    }

    @Test func malformed() {
        #expect(throws: WireError.truncated(field: "Temperature integer", needed: 1, available: 0)) {
            try ThingyTemperature(decoding: [])
        }
        #expect(throws: WireError.truncated(field: "Temperature decimal", needed: 1, available: 0)) {
            try ThingyTemperature(decoding: [0x17])
        }
        #expect(throws: WireError.invalidValue(field: "Temperature decimal", value: 100)) {
            try ThingyTemperature(decoding: [0x17, 0x64])
        }
    }
}

@Suite struct BatteryLevelTests {
    @Test func decodes() throws {
        // 0x64 is the Battery Level read in two-links-envsensing-android.btsnoop (frame 555): 100 %.
        #expect(try BatteryLevel(decoding: [0x64]).percent == 100)
        #expect(try BatteryLevel(decoding: [0x00]).summary == "0 %")
        #expect(try BatteryLevel(decoding: [0x57]).summary == "87 %")
        #expect(BatteryLevel(percent: 42)?.encoded == [0x2A])
        #expect(BatteryLevel(percent: 101) == nil)
    }

    @Test func aboveOneHundredIsMalformed() {
        // GATT Specification Supplement, Battery Level: 0–100 %, other values prohibited.
        #expect(throws: WireError.invalidValue(field: "Battery Level", value: 101)) { try BatteryLevel(decoding: [101]) }
        #expect(throws: WireError.invalidValue(field: "Battery Level", value: 255)) { try BatteryLevel(decoding: [255]) }
        #expect(throws: WireError.truncated(field: "Battery Level", needed: 1, available: 0)) { try BatteryLevel(decoding: []) }
    }
}

@Suite struct EnvironmentalSensingTests {
    // GATT Specification Supplement, Temperature (0x2A6E): sint16, 0.01 °C, −273.15…327.67,
    // 0x8000 "value is not known".
    static let temperatures: [(String, Int?, String)] = [
        ("5A 08", 2138, "21.38 °C"),
        ("0C FE", -500, "-5.00 °C"),
        ("4D 95", -27315, "-273.15 °C"),
        ("FF 7F", 32767, "327.67 °C"),
        ("00 80", nil, "not known (°C)"),
    ]

    @Test(arguments: 0..<5)
    func temperature(index: Int) throws {
        let (hex, hundredths, summary) = Self.temperatures[index]
        let t = try EnvironmentalTemperature(decoding: bytes(hex))
        #expect(t.hundredths == hundredths)
        #expect(t.celsius == hundredths.map { Double($0) / 100 })
        #expect(t.summary == summary)
        #expect(t.encoded == bytes(hex))
    }

    @Test func temperatureBelowAbsoluteZeroIsMalformed() {
        #expect(throws: WireError.invalidValue(field: "Temperature", value: 0x954C)) {
            try EnvironmentalTemperature(decoding: bytes("4C 95"))
        }
        #expect(throws: WireError.truncated(field: "Temperature", needed: 2, available: 1)) {
            try EnvironmentalTemperature(decoding: [0x5A])
        }
    }

    // GATT Specification Supplement, Humidity (0x2A6F): uint16, 0.01 %, 0…100.00, 0xFFFF not known.
    static let humidities: [(String, Int?, String)] = [
        ("A8 11", 4520, "45.20 %RH"),
        ("00 00", 0, "0.00 %RH"),
        ("10 27", 10000, "100.00 %RH"),
        ("FF FF", nil, "not known (%RH)"),
    ]

    @Test(arguments: 0..<4)
    func humidity(index: Int) throws {
        let (hex, hundredths, summary) = Self.humidities[index]
        let h = try EnvironmentalHumidity(decoding: bytes(hex))
        #expect(h.hundredths == hundredths)
        #expect(h.percent == hundredths.map { Double($0) / 100 })
        #expect(h.summary == summary)
        #expect(h.encoded == bytes(hex))
    }

    @Test func humidityAboveOneHundredPercentIsMalformed() {
        #expect(throws: WireError.invalidValue(field: "Humidity", value: 10001)) {
            try EnvironmentalHumidity(decoding: bytes("11 27"))
        }
        #expect(throws: WireError.truncated(field: "Humidity", needed: 2, available: 0)) {
            try EnvironmentalHumidity(decoding: [])
        }
    }
}

@Suite struct LocationAndFeatureTests {
    @Test func bodySensorLocationNames() throws {
        // HRS v1.0 §3.2.1: 0 Other … 6 Foot, 7–255 reserved.
        let names = try (0...7).map { try BodySensorLocation(decoding: [UInt8($0)]).summary }
        #expect(names == ["Other", "Chest", "Wrist", "Finger", "Hand", "Ear Lobe", "Foot", "Reserved (0x07)"])
        #expect(BodySensorLocation.chest.encoded == [0x01])
        #expect(BodySensorLocation(rawValue: 200).assignedName == nil)
        #expect(throws: WireError.truncated(field: "Body Sensor Location", needed: 1, available: 0)) {
            try BodySensorLocation(decoding: [])
        }
    }

    @Test func sensorLocationNames() throws {
        // RSCS v1.0 §3.3 / GATT Specification Supplement, Sensor Location: 0…16, 17–255 reserved.
        let names = try (0...17).map { try SensorLocation(decoding: [UInt8($0)]).summary }
        #expect(names == ["Other", "Top of shoe", "In shoe", "Hip", "Front Wheel", "Left Crank", "Right Crank",
                          "Left Pedal", "Right Pedal", "Front Hub", "Rear Dropout", "Chainstay", "Rear Wheel",
                          "Rear Hub", "Chest", "Spider", "Chain Ring", "Reserved (0x11)"])
        #expect(SensorLocation.inShoe.encoded == [0x02])
        #expect(throws: WireError.truncated(field: "Sensor Location", needed: 1, available: 0)) {
            try SensorLocation(decoding: [])
        }
    }

    @Test func rscFeatureBits() throws {
        // RSCS v1.0 §3.2.1: uint16 bit field, bits 0–4 defined.
        let all = try RSCFeature(decoding: bytes("1F 00"))
        #expect(all == [.instantaneousStrideLengthMeasurement, .totalDistanceMeasurement, .walkingOrRunningStatus,
                        .calibrationProcedure, .multipleSensorLocations])
        #expect(all.featureNames.count == 5)
        let some = try RSCFeature(decoding: bytes("03 00"))
        #expect(some.summary == "Instantaneous Stride Length Measurement, Total Distance Measurement")
        let none = try RSCFeature(decoding: bytes("00 80"))
        #expect(none.summary == "no optional features")
        #expect(none.reservedBits == 0x8000)
        #expect(none.fieldList.value(of: "Reserved bits") == "0x8000")
        #expect(some.encoded == bytes("03 00"))
        #expect(throws: WireError.truncated(field: "RSC Feature", needed: 2, available: 1)) {
            try RSCFeature(decoding: [0x1F])
        }
    }
}
