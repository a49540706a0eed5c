import Testing
import Wire
@testable import Sensors

@Suite struct HeartRateMeasurementTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        var hex: String
        var heartRate: UInt16
        var contact: SensorContactStatus
        var energy: UInt16?
        var rr: [UInt16]
        var summary: String
        var testDescription: String { hex }
    }

    static let vectors: [Vector] = [
        // HRS v1.0 §3.1.1.1–§3.1.1.2: flags 0 → uint8 value, no contact support, nothing else.
        Vector(hex: "00 48", heartRate: 72, contact: .notSupported, energy: nil, rr: [], summary: "72 bpm"),
        // HRS v1.0 §3.1.1.1: bit 0 set → Heart Rate Measurement Value is a uint16.
        Vector(hex: "01 48 00", heartRate: 72, contact: .notSupported, energy: nil, rr: [], summary: "72 bpm"),
        Vector(hex: "01 2C 01", heartRate: 300, contact: .notSupported, energy: nil, rr: [], summary: "300 bpm"),
        // HRS v1.0 §3.1.1.3: Sensor Contact Status 1 (bit 1 only) still means "not supported".
        Vector(hex: "02 48", heartRate: 72, contact: .notSupported, energy: nil, rr: [], summary: "72 bpm"),
        // HRS v1.0 §3.1.1.3: 2 → supported, contact not detected.
        Vector(hex: "04 00", heartRate: 0, contact: .notDetected, energy: nil, rr: [], summary: "0 bpm (no contact)"),
        // HRS v1.0 §3.1.1.3: 3 → supported and detected.
        Vector(hex: "06 48", heartRate: 72, contact: .detected, energy: nil, rr: [], summary: "72 bpm"),
        // HRS v1.0 §3.1.1.4: bit 3 → Energy Expended uint16 kJ follows the value.
        Vector(hex: "08 48 E8 03", heartRate: 72, contact: .notSupported, energy: 1000, rr: [], summary: "72 bpm, 1000 kJ"),
        // HRS v1.0 §3.1.1.5: bit 4 → RR-Interval uint16 in 1/1024 s; 831/1024 s = 811.5 ms.
        Vector(hex: "10 48 3F 03", heartRate: 72, contact: .notSupported, energy: nil, rr: [831], summary: "72 bpm, RR 812 ms"),
        // All of it: uint8 value 140, contact detected, 1000 kJ, RR 1024 (1000 ms) and 1008 (984.4 ms).
        Vector(hex: "1E 8C E8 03 00 04 F0 03", heartRate: 140, contact: .detected, energy: 1000, rr: [1024, 1008],
               summary: "140 bpm, 1000 kJ, RR 1000, 984 ms"),
        // uint16 value with energy and RR-Intervals.
        Vector(hex: "19 2C 01 FF FF 80 01", heartRate: 300, contact: .notSupported, energy: 0xFFFF, rr: [384],
               summary: "300 bpm, 65535 kJ, RR 375 ms"),
    ]

    @Test(arguments: vectors)
    func decodesSpecVectors(_ v: Vector) throws {
        let m = try HeartRateMeasurement(decoding: bytes(v.hex))
        #expect(m.heartRate == v.heartRate)
        #expect(m.sensorContact == v.contact)
        #expect(m.energyExpended == v.energy)
        #expect(m.rrIntervals.values == v.rr)
        #expect(m.summary == v.summary)
        #expect(m.encoded == bytes(v.hex))
    }

    @Test func rrIntervalsAreAViewOnTheInputAndConvertToMilliseconds() throws {
        let input = bytes("10 48 00 04 00 02 00 01")
        let m = try HeartRateMeasurement(decoding: input[...])
        #expect(m.rrIntervals.count == 3)
        #expect(m.rrIntervals.bytes.startIndex == 2)   // indices of the input: no copy was made
        let sameStorage = input.withUnsafeBufferPointer { whole in
            m.rrIntervals.bytes.withUnsafeBufferPointer { view in view.baseAddress == whole.baseAddress.map { $0 + 2 } }
        }
        #expect(sameStorage)
        #expect(m.rrIntervals.milliseconds == [1000, 500, 250])
        #expect(Array(m.rrIntervals) == [1024, 512, 256])
    }

    /// HRS v1.0 §3.1.1.1: every combination of the five defined flag bits, with and without
    /// reserved bits 5–7, decodes to what the flags say and encodes back to the same bytes.
    @Test(arguments: 0..<64)
    func everyFlagCombinationRoundTrips(combination: Int) throws {
        let flags = UInt8(combination & 0x1F) | (combination >= 32 ? 0xA0 : 0)
        var raw: [UInt8] = [flags]
        let wide = flags & 0x01 != 0
        raw += wide ? [0x2C, 0x01] : [0x9B]                 // 300 or 155 bpm
        if flags & 0x08 != 0 { raw += [0x34, 0x12] }         // 0x1234 kJ
        if flags & 0x10 != 0 { raw += [0x9A, 0x02, 0xA0, 0x02] }   // 666, 672
        let m = try HeartRateMeasurement(decoding: raw)
        #expect(m.flags.rawValue == flags)
        #expect(m.usesUInt16Format == wide)
        #expect(m.heartRate == (wide ? 300 : 155))
        #expect(m.energyExpended == (flags & 0x08 != 0 ? 0x1234 : nil))
        #expect(m.rrIntervals.values == (flags & 0x10 != 0 ? [666, 672] : []))
        let contact: SensorContactStatus = flags & 0x04 == 0 ? .notSupported : (flags & 0x02 != 0 ? .detected : .notDetected)
        #expect(m.sensorContact == contact)
        #expect(m.encoded == raw)

        // Built from values rather than bytes: encode → decode gives the same value.
        let built = HeartRateMeasurement(heartRate: m.heartRate, sensorContact: contact,
                                         energyExpended: m.energyExpended, rrIntervals: m.rrIntervals.values,
                                         uint16Format: wide)
        #expect(try HeartRateMeasurement(decoding: built.encoded) == built)
        #expect(built.encoded == raw.with(first: flags & 0x1F & ~(contact == .notSupported ? 0x02 : 0)))
    }

    @Test func encoderKeepsFlagsConsistentWithTheValues() throws {
        var m = HeartRateMeasurement(heartRate: 60)
        m.heartRate = 400          // does not fit the uint8 format the flags announced
        m.energyExpended = 5
        let back = try HeartRateMeasurement(decoding: m.encoded)
        #expect(back.heartRate == 400 && back.usesUInt16Format && back.energyExpended == 5)
    }

    static let malformed: [(String, WireError)] = [
        ("", .truncated(field: "Flags", needed: 1, available: 0)),
        ("00", .truncated(field: "Heart Rate Measurement Value", needed: 1, available: 0)),
        ("01 48", .truncated(field: "Heart Rate Measurement Value", needed: 2, available: 1)),
        ("08 48 E8", .truncated(field: "Energy Expended", needed: 2, available: 1)),
        ("10 48", .truncated(field: "RR-Interval", needed: 2, available: 0)),
        ("10 48 3F 03 01", .truncated(field: "RR-Interval", needed: 2, available: 1)),
        ("18 48 E8 03 3F", .truncated(field: "RR-Interval", needed: 2, available: 1)),
    ]

    @Test(arguments: 0..<7)
    func malformedValuesThrowNamingTheField(index: Int) {
        let (hex, error) = Self.malformed[index]
        #expect(throws: error) { try HeartRateMeasurement(decoding: bytes(hex)) }
    }

    @Test func fieldsCarryUnits() throws {
        let m = try HeartRateMeasurement(decoding: bytes("1E 8C E8 03 00 04"))
        let fields = m.fieldList
        #expect(fields.value(of: "Heart rate") == "140 bpm")
        #expect(fields.value(of: "Energy expended") == "1000 kJ")
        #expect(fields.value(of: "Sensor contact") == "detected")
        #expect(fields.value(of: "Value format") == "uint8")
        #expect(fields.value(of: "RR-Interval") == "1024/1024 s (1000.000 ms)")
    }
}

extension Array where Element == UInt8 {
    func with(first: UInt8) -> [UInt8] {
        var copy = self
        if !copy.isEmpty { copy[0] = first }
        return copy
    }
}
