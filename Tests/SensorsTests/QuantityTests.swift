import Testing
import TestSupport
import Wire
@testable import Sensors

@Suite struct DecimalNumberTests {
    @Test func exactText() {
        let cases: [(Int64, Int, String)] = [
            (2138, -2, "21.38"), (-5, -2, "-0.05"), (12, 2, "1200"), (20, -1, "2.0"), (0, -2, "0.00"),
            (0, 3, "0"), (7, 0, "7"), (-1, -3, "-0.001"), (123, 12, "123e12"), (5, -20, "5e-20"),
            (Int64.min, -1, "-922337203685477580.8"),
        ]
        for (s, e, text) in cases {
            #expect(DecimalNumber(s, exponent: e).description == text)
        }
        #expect(DecimalNumber(2138, exponent: -2).double == 21.38)
        #expect(DecimalNumber(2138, exponent: -2).decimals == 2)
    }
}

@Suite struct PressureTests {
    // GATT Specification Supplement, Pressure (0x2A6D): uint32, 0.1 Pa.
    @Test func decodes() throws {
        let p = try EnvironmentalPressure(decoding: bytes("02 76 0F 00"))
        #expect(p.raw == 1_013_250)
        #expect(p.pascals == 101_325)
        #expect(p.summary == "1013.250 hPa")
        #expect(p.fieldList.value(of: "Pressure") == "101325.0 Pa (1013.250 hPa)")
        #expect(p.encoded == bytes("02 76 0F 00"))
        #expect(DecodedSensorValue.pressure(p).quantities
                == [.number("pressure", "Pressure", 1_013_250, exponent: -3, unit: .hectopascal, deviceClass: .atmosphericPressure)])
        #expect(throws: WireError.truncated(field: "Pressure", needed: 4, available: 3)) {
            try EnvironmentalPressure(decoding: bytes("02 76 0F"))
        }
    }
}

@Suite struct SensorQuantityTests {
    @Test func everyConnectedValueHasQuantities() throws {
        let hr = try #require(SensorValueDecoder.decode(uuid: SensorCharacteristicUUID.heartRateMeasurement, value: bytes("18 48 0A 00 3F 03")))
        #expect(hr.quantities.map(\.text) == ["72 bpm", "10 kJ", "811.5 ms"])
        #expect(hr.quantities[1].kind == .totalIncreasing && hr.quantities[1].deviceClass == .energy)
        let rsc = try #require(SensorValueDecoder.decode(uuid: SensorCharacteristicUUID.rscMeasurement, value: bytes("07 36 03 AC 70 00 39 30 00 00")))
        #expect(rsc.quantities.map(\.text) == ["3.211 m/s", "172 steps/min", "1.12 m", "1234.5 m", "on"])
        #expect(rsc.quantities.first?.deviceClass == .speed)
        let thingy = try #require(SensorValueDecoder.decode(uuid: SensorCharacteristicUUID.thingyTemperature, value: bytes("FB 19")))
        #expect(thingy.quantities.map(\.text) == ["-5.25 °C"])
        let battery = try #require(SensorValueDecoder.decode(uuid: SensorCharacteristicUUID.batteryLevel, value: [87]))
        #expect(battery.quantities.first?.deviceClass == .battery && battery.quantities.first?.text == "87 %")
        let unknownHumidity = try #require(SensorValueDecoder.decode(uuid: SensorCharacteristicUUID.humidity, value: bytes("FF FF")))
        #expect(unknownHumidity.quantities.first?.value == .unavailable("not known"))
        let temperature = try #require(SensorValueDecoder.decode(uuid: SensorCharacteristicUUID.temperature, value: bytes("5A 08")))
        #expect(temperature.quantities.first?.text == "21.38 °C")
        let malformed = try #require(SensorValueDecoder.decode(uuid: SensorCharacteristicUUID.batteryLevel, value: [200]))
        #expect(malformed.quantities.isEmpty)
    }

    @Test func newCharacteristicsDecodeByUUID() {
        #expect(SensorValueDecoder.decode(uuid: BluetoothUUID(0x2A5B), value: bytes("02 05 00 00 02"))
                == .csc(CSCMeasurement(crank: .init(cumulativeRevolutions: 5, lastEventTime: 512))))
        #expect(SensorValueDecoder.decode(uuid: BluetoothUUID(0x2A6D), value: bytes("02 76 0F 00")) == .pressure(EnvironmentalPressure(raw: 1_013_250)))
        #expect(SensorValueDecoder.decode(uuid: BluetoothUUID(0x2A1D), value: [2]) == .temperatureType(.body))
        #expect(SensorValueDecoder.decode(uuid: BluetoothUUID(0x2A1E), value: bytes("00 6E 01 00 FF"))?.uuid == BluetoothUUID(0x2A1E))
        #expect(SensorValueDecoder.decode(uuid: BluetoothUUID(0x2A1C), value: bytes("00 6E 01 00 FF"))?.characteristicName == "Temperature Measurement")
        #expect(SensorValueDecoder.canDecode(BluetoothUUID(0x2A5C)))
    }
}
