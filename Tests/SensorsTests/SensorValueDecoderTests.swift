import Testing
import TestSupport
import Wire
@testable import Sensors

@Suite struct SensorValueDecoderTests {
    @Test func picksTheDecoderByShortUUID() {
        #expect(SensorValueDecoder.decode(uuid: BluetoothUUID(0x2A37), value: bytes("10 48 3F 03"))
                == .heartRate(HeartRateMeasurement(heartRate: 72, rrIntervals: [831])))
        #expect(SensorValueDecoder.decode(uuid: BluetoothUUID(0x2A53), value: bytes("00 00 03 AA"))
                == .rsc(RSCMeasurement(speedRaw: 768, cadence: 170)))
        #expect(SensorValueDecoder.decode(uuid: BluetoothUUID(0x2A19), value: [0x64]) == .batteryLevel(BatteryLevel(percent: 100)!))
        #expect(SensorValueDecoder.decode(uuid: BluetoothUUID(0x2A6E), value: bytes("5A 08")) == .temperature(EnvironmentalTemperature(raw: 2138)))
        #expect(SensorValueDecoder.decode(uuid: BluetoothUUID(0x2A6F), value: bytes("A8 11")) == .humidity(EnvironmentalHumidity(raw: 4520)))
        #expect(SensorValueDecoder.decode(uuid: BluetoothUUID(0x2A38), value: [0x01]) == .bodySensorLocation(.chest))
        #expect(SensorValueDecoder.decode(uuid: BluetoothUUID(0x2A54), value: bytes("07 00"))
                == .rscFeature([.instantaneousStrideLengthMeasurement, .totalDistanceMeasurement, .walkingOrRunningStatus]))
        #expect(SensorValueDecoder.decode(uuid: BluetoothUUID(0x2A5D), value: [0x03]) == .sensorLocation(.hip))
    }

    /// A session reads each role's measurement with this decoder alone: a profile whose
    /// characteristic it did not know would deliver no reading at all.
    @Test func everySensorProfilesMeasurementCharacteristicHasADecoder() {
        let profiles = SensorRole.allCases.flatMap(\.profiles)
        #expect(profiles.count == 4)
        for p in profiles {
            #expect(SensorValueDecoder.canDecode(p.measurementCharacteristic), "\(p.role) \(p.measurementCharacteristic)")
        }
    }

    @Test func picksTheDecoderByFull128BitUUID() throws {
        let hrm128 = try #require(BluetoothUUID(string: "00002A37-0000-1000-8000-00805F9B34FB"))
        #expect(SensorValueDecoder.decode(uuid: hrm128, value: bytes("06 48"))?.summary == "72 bpm")
        let thingy = try #require(BluetoothUUID(string: "EF680201-9B35-4933-9B10-52FFA9740042"))
        #expect(thingy == SensorCharacteristicUUID.thingyTemperature)
        let value = SensorValueDecoder.decode(uuid: thingy, value: bytes("17 32"))
        #expect(value == .thingyTemperature(ThingyTemperature(integer: 23, decimal: 50)))
        #expect(value?.summary == "23.50 °C")
        // As ATT carries it: 16 bytes, little-endian.
        let fromWire = try #require(BluetoothUUID(littleEndian: thingy.littleEndianBytes128[...]))
        #expect(SensorValueDecoder.decode(uuid: fromWire, value: bytes("17 32")) == value)
    }

    @Test func unknownUUIDsGiveNil() throws {
        #expect(SensorValueDecoder.decode(uuid: BluetoothUUID(0x2A00), value: bytes("41 42")) == nil)
        #expect(SensorValueDecoder.decode(uuid: BluetoothUUID(uuid32: 0x0001_2A37), value: bytes("00 48")) == nil)
        let otherThingy = try #require(BluetoothUUID(string: "EF680202-9B35-4933-9B10-52FFA9740042"))
        #expect(SensorValueDecoder.decode(uuid: otherThingy, value: bytes("17 32")) == nil)
        #expect(!SensorValueDecoder.canDecode(otherThingy))
        #expect(SensorValueDecoder.canDecode(SensorCharacteristicUUID.rscMeasurement))
    }

    @Test func malformedValuesAreReportedNotDropped() {
        let uuid = SensorCharacteristicUUID.heartRateMeasurement
        let value = SensorValueDecoder.decode(uuid: uuid, value: bytes("10 48"))
        #expect(value == .malformed(uuid, .truncated(field: "RR-Interval", needed: 2, available: 0)))
        #expect(value?.isMalformed == true)
        #expect(value?.uuid == uuid)
        #expect(value?.summary == "malformed Heart Rate Measurement: truncated RR-Interval: needs 2 byte(s), 0 left")
        #expect(SensorValueDecoder.decode(uuid: SensorCharacteristicUUID.batteryLevel, value: [0xC8])
                == .malformed(SensorCharacteristicUUID.batteryLevel, .invalidValue(field: "Battery Level", value: 200)))
    }

    @Test func summariesAndFields() throws {
        let hr = try #require(SensorValueDecoder.decode(uuid: SensorCharacteristicUUID.heartRateMeasurement, value: bytes("10 48 3F 03")))
        #expect(hr.summary == "72 bpm, RR 812 ms")
        #expect(hr.characteristicName == "Heart Rate Measurement")
        let fields = hr.fieldList
        #expect(fields.entries.first?.label == "Heart Rate Measurement")
        #expect(fields.entries.first?.value == "2A37")
        #expect(fields.value(of: "Heart rate") == "72 bpm")
        #expect(fields.entries.first { $0.label == "Heart rate" }?.level == 1)

        let rsc = try #require(SensorValueDecoder.decode(uuid: SensorCharacteristicUUID.rscMeasurement,
                                                         value: bytes("07 36 03 AC 70 00 39 30 00 00")))
        #expect(rsc.summary == "3.21 m/s (5:11 min/km), 172 spm, stride 1.12 m, 1234.5 m")

        let bad = try #require(SensorValueDecoder.decode(uuid: SensorCharacteristicUUID.thingyTemperature, value: [0x17]))
        #expect(bad.fieldList.value(of: "Error") == "truncated Temperature decimal: needs 1 byte(s), 0 left")
        #expect(bad.characteristicName == "Thingy Temperature")
    }

    static let knownUUIDs: [BluetoothUUID] = [
        SensorCharacteristicUUID.heartRateMeasurement, SensorCharacteristicUUID.bodySensorLocation,
        SensorCharacteristicUUID.rscMeasurement, SensorCharacteristicUUID.rscFeature,
        SensorCharacteristicUUID.sensorLocation, SensorCharacteristicUUID.thingyTemperature,
        SensorCharacteristicUUID.batteryLevel, SensorCharacteristicUUID.temperature,
        SensorCharacteristicUUID.humidity, SensorCharacteristicUUID.pressure,
        SensorCharacteristicUUID.cscMeasurement, SensorCharacteristicUUID.cscFeature,
        SensorCharacteristicUUID.temperatureMeasurement, SensorCharacteristicUUID.intermediateTemperature,
        SensorCharacteristicUUID.temperatureType,
    ]

    /// Random values of random lengths: decoding never traps, always answers for a known UUID,
    /// and whatever decodes re-encodes to a value that decodes the same.
    @Test(arguments: knownUUIDs)
    func randomSweepNeverTraps(uuid: BluetoothUUID) throws {
        var rng = SplitMix64(seed: uuid.high ^ uuid.low)
        var decodedCount = 0, malformedCount = 0
        for _ in 0..<5000 {
            let n = Int.random(in: 0...24, using: &rng)
            let value = (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) }
            // Decode from a slice that does not start at index 0, as a payload inside a PDU does.
            let pdu = [0xAA, 0xBB] + value
            let decoded = try #require(SensorValueDecoder.decode(uuid: uuid, value: pdu[2...]))
            #expect(decoded.uuid == uuid)
            _ = decoded.summary
            _ = decoded.fieldList
            _ = decoded.quantities.map(\.text)
            guard let v = decoded.value else { malformedCount += 1; continue }
            decodedCount += 1
            let again = SensorValueDecoder.decode(uuid: uuid, value: v.encoded)
            #expect(again == decoded)
        }
        #expect(decodedCount > 0)
        #expect(decodedCount + malformedCount == 5000)
    }
}
