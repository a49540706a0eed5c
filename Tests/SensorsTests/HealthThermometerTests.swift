import Testing
import TestSupport
import Wire
@testable import Sensors

@Suite struct IEEE11073FloatTests {
    // IEEE 11073-20601 FLOAT: exponent in the high octet, 24-bit mantissa; the mantissa's
    // digits are the resolution (HL7 PHD implementation guide, "Mder FLOATs and SFLOATs").
    static let floats: [(UInt32, String)] = [
        (0x0000_0002, "2"), (0xFF00_0014, "2.0"), (0xFE00_00C8, "2.00"), (0x0100_0002, "20"),
        (0x0200_0002, "200"), (0x0000_04D2, "1234"), (0x00FF_FB2E, "-1234"), (0xFF00_016E, "36.6"),
        (0xFD00_0005, "0.005"), (0xFFFF_FFFB, "-0.5"), (0x8000_0001, "1e-128"),
    ]

    @Test(arguments: 0..<11)
    func float(index: Int) {
        let (raw, text) = Self.floats[index]
        let f = IEEE11073Float(raw: raw)
        #expect(f.description == text)
        #expect(f.special == nil)
        #expect(IEEE11073Float(mantissa: f.mantissa, exponent: f.exponent) == f)
    }

    @Test func specialValues() throws {
        #expect(IEEE11073Float.nan.special == .nan && IEEE11073Float.nan.double.isNaN)
        #expect(IEEE11073Float(raw: 0x0080_0000).special == .notAtThisResolution)
        #expect(IEEE11073Float(raw: 0x007F_FFFE).double == .infinity)
        #expect(IEEE11073Float(raw: 0x0080_0002).double == -.infinity)
        #expect(IEEE11073Float(raw: 0x0080_0001).special == .reserved)
        #expect(IEEE11073Float.positiveInfinity.quantityValue == .unavailable("+INFINITY"))
        #expect(IEEE11073Float.nan.number == nil)
        // A special mantissa with a non-zero exponent is still the special value, never 8388607 × 10⁻¹.
        #expect(IEEE11073Float(raw: 0xFF7F_FFFF).special == .nan)
        #expect(IEEE11073Float(mantissa: 0x7F_FFFE, exponent: 0) == nil)
        #expect(IEEE11073Float(mantissa: 8_388_605, exponent: -1)?.description == "838860.5")
        #expect(try IEEE11073Float(bytes: bytes("6E 01 00 FF")).description == "36.6")
    }

    @Test func shortFloats() {
        // The same values as SFLOAT: 4-bit exponent, 12-bit mantissa.
        let vectors: [(UInt16, String)] = [(0x0002, "2"), (0xF014, "2.0"), (0xE0C8, "2.00"), (0x1002, "20"),
                                           (0x2002, "200"), (0x04D2, "1234"), (0x0B2E, "-1234"), (0x8001, "0.00000001")]
        for (raw, text) in vectors {
            let s = IEEE11073SFloat(raw: raw)
            #expect(s.description == text)
            #expect(IEEE11073SFloat(mantissa: s.mantissa, exponent: s.exponent) == s)
        }
        #expect(IEEE11073SFloat(raw: 0x07FF).special == .nan)
        #expect(IEEE11073SFloat(raw: 0x0800).special == .notAtThisResolution)
        #expect(IEEE11073SFloat(raw: 0x07FE).special == .positiveInfinity)
        #expect(IEEE11073SFloat(raw: 0x0802).special == .negativeInfinity)
        #expect(IEEE11073SFloat(raw: 0x0801).special == .reserved)
        #expect(IEEE11073SFloat(raw: 0x0801).quantityValue == .unavailable("reserved"))
    }

    /// Every raw value: the exact text and the Double agree, specials are exactly the five
    /// mantissas, and building from the parts gives the raw value back.
    @Test func randomSweep() {
        var rng = SplitMix64(seed: 11073)
        for _ in 0..<50_000 {
            let f = IEEE11073Float(raw: UInt32(truncatingIfNeeded: rng.next()))
            let m = f.raw & 0xFF_FFFF
            #expect((f.special != nil) == (0x7F_FFFE...0x80_0002).contains(m))
            if let n = f.number {
                #expect(IEEE11073Float(mantissa: f.mantissa, exponent: f.exponent) == f)
                if (-18...9).contains(n.exponent), let parsed = Double(n.description), n.double.isNormal {
                    #expect(abs(parsed - n.double) <= abs(n.double) * 1e-12)
                }
            }
        }
    }
}

@Suite struct TemperatureMeasurementTests {
    // HTS v1.0 §3.1: Flags, FLOAT, Time Stamp (Date Time) if bit 1, Temperature Type if bit 2.
    @Test func celsiusWithTimeStampAndType() throws {
        let hex = "06 6E 01 00 FF E8 07 03 09 07 05 00 06"
        let m = try TemperatureMeasurement(decoding: bytes(hex))
        #expect(m.temperature.description == "36.6" && !m.isFahrenheit)
        #expect(m.timeStamp == DateTime(year: 2024, month: 3, day: 9, hours: 7, minutes: 5, seconds: 0))
        #expect(m.timeStamp?.iso8601 == "2024-03-09T07:05:00")
        #expect(m.temperatureType == .mouth)
        #expect(m.summary == "36.6 °C (Mouth)")
        #expect(m.encoded == bytes(hex))
        let q = DecodedSensorValue.healthTemperature(m, intermediate: false).quantities
        #expect(q == [.number("temperature", "Temperature", 366, exponent: -1, unit: .celsius, deviceClass: .temperature)])
    }

    @Test func fahrenheitAndSpecials() throws {
        let f = try TemperatureMeasurement(decoding: bytes("01 DA 03 00 FF"))
        #expect(f.summary == "98.6 °F" && f.unit == .fahrenheit)
        let nan = try TemperatureMeasurement(decoding: bytes("00 FF FF 7F 00"))
        #expect(nan.summary == "NaN °C")
        #expect(DecodedSensorValue.healthTemperature(nan, intermediate: true).quantities.first?.value == .unavailable("NaN"))
        #expect(DecodedSensorValue.healthTemperature(nan, intermediate: true).quantities.first?.key == "intermediate_temperature")
        let ninf = try TemperatureMeasurement(decoding: bytes("00 02 00 80 00"))
        #expect(ninf.temperature.special == .negativeInfinity)
    }

    @Test func malformed() {
        #expect(throws: WireError.truncated(field: "FLOAT", needed: 4, available: 2)) {
            try TemperatureMeasurement(decoding: bytes("00 6E 01"))
        }
        #expect(throws: WireError.truncated(field: "Seconds", needed: 1, available: 0)) {
            try TemperatureMeasurement(decoding: bytes("02 6E 01 00 FF E8 07 03 09 07 05"))
        }
        #expect(throws: WireError.invalidValue(field: "Month", value: 13)) {
            try TemperatureMeasurement(decoding: bytes("02 6E 01 00 FF E8 07 0D 09 07 05 00"))
        }
        #expect(throws: WireError.invalidValue(field: "Year", value: 1000)) {
            try TemperatureMeasurement(decoding: bytes("02 6E 01 00 FF E8 03 01 01 00 00 00"))
        }
        #expect(throws: WireError.truncated(field: "Temperature Type", needed: 1, available: 0)) {
            try TemperatureMeasurement(decoding: bytes("04 6E 01 00 FF"))
        }
    }

    @Test func unknownDatePartsAndTypes() throws {
        let ts = try DateTime(bytes: bytes("00 00 00 00 17 3B 3B"))
        #expect(ts.iso8601 == "????-??-??T23:59:59")
        #expect(TemperatureType(rawValue: 0).name == "Reserved (0x00)")
        #expect(TemperatureType(rawValue: 9).name == "Tympanum (ear drum)")
        #expect(TemperatureType(rawValue: 10).assignedName == nil)
    }
}
