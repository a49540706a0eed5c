import Testing
import Wire
@testable import Sensors

@Suite struct RSCMeasurementTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        var hex: String
        var speedRaw: UInt16
        var cadence: UInt8
        var stride: UInt16?
        var distance: UInt32?
        var running: Bool
        var summary: String
        var testDescription: String { hex }
    }

    static let vectors: [Vector] = [
        // RSCS v1.0 §3.1.1: flags 0 (walking, no optional fields), 768/256 = 3.00 m/s, 170 steps/min.
        Vector(hex: "00 00 03 AA", speedRaw: 768, cadence: 170, stride: nil, distance: nil, running: false,
               summary: "3.00 m/s (5:33 min/km), 170 spm"),
        // RSCS v1.0 §3.1.1: bit 0 → Instantaneous Stride Length uint16 in 1/100 m (112 → 1.12 m).
        Vector(hex: "01 36 03 AC 70 00", speedRaw: 822, cadence: 172, stride: 112, distance: nil, running: false,
               summary: "3.21 m/s (5:11 min/km), 172 spm, stride 1.12 m"),
        // RSCS v1.0 §3.1.1: bit 1 → Total Distance uint32 in 1/10 m (12345 → 1234.5 m).
        Vector(hex: "02 36 03 AC 39 30 00 00", speedRaw: 822, cadence: 172, stride: nil, distance: 12345, running: false,
               summary: "3.21 m/s (5:11 min/km), 172 spm, 1234.5 m"),
        // RSCS v1.0 §3.1.1: all flags: stride, distance, running.
        Vector(hex: "07 36 03 AC 70 00 39 30 00 00", speedRaw: 822, cadence: 172, stride: 112, distance: 12345, running: true,
               summary: "3.21 m/s (5:11 min/km), 172 spm, stride 1.12 m, 1234.5 m"),
        // Standing still: no pace.
        Vector(hex: "00 00 00 00", speedRaw: 0, cadence: 0, stride: nil, distance: nil, running: false,
               summary: "0.00 m/s, 0 spm"),
        // Largest values every field can hold.
        Vector(hex: "07 FF FF FF FF FF FF FF FF FF", speedRaw: 0xFFFF, cadence: 255, stride: 0xFFFF, distance: 0xFFFF_FFFF,
               running: true, summary: "256.00 m/s (0:04 min/km), 255 spm, stride 655.35 m, 429496729.5 m"),
    ]

    @Test(arguments: vectors)
    func decodesSpecVectors(_ v: Vector) throws {
        let m = try RSCMeasurement(decoding: bytes(v.hex))
        #expect(m.speedRaw == v.speedRaw)
        #expect(m.cadence == v.cadence)
        #expect(m.strideLengthRaw == v.stride)
        #expect(m.totalDistanceRaw == v.distance)
        #expect(m.isRunning == v.running)
        #expect(m.summary == v.summary)
        #expect(m.encoded == bytes(v.hex))
    }

    @Test func convertsUnits() throws {
        let m = try RSCMeasurement(decoding: bytes("07 36 03 AC 70 00 39 30 00 00"))
        #expect(m.speedMetersPerSecond == 822.0 / 256)
        #expect(m.strideLengthMeters == 1.12)
        #expect(m.totalDistanceMeters == 1234.5)
        let pace = try #require(m.paceMinutesPerKilometer)
        #expect(abs(pace - 1000 / (822.0 / 256) / 60) < 1e-12)
        #expect(m.paceText == "5:11")
        let still = try RSCMeasurement(decoding: bytes("00 00 00 00"))
        #expect(still.paceMinutesPerKilometer == nil)
        #expect(still.paceText == nil)
        #expect(still.strideLengthMeters == nil && still.totalDistanceMeters == nil)
    }

    /// RSCS v1.0 §3.1.1.1: every combination of the three defined flag bits, with and without
    /// reserved bits, round-trips.
    @Test(arguments: 0..<16)
    func everyFlagCombinationRoundTrips(combination: Int) throws {
        let flags = UInt8(combination & 0x07) | (combination >= 8 ? 0xF8 : 0)
        var raw: [UInt8] = [flags, 0x00, 0x02, 0x5A]          // 2.00 m/s, 90 steps/min
        if flags & 0x01 != 0 { raw += [0x8C, 0x00] }          // 1.40 m
        if flags & 0x02 != 0 { raw += [0x10, 0x27, 0x00, 0x00] }   // 1000.0 m
        let m = try RSCMeasurement(decoding: raw)
        #expect(m.flags.rawValue == flags)
        #expect(m.strideLengthRaw == (flags & 0x01 != 0 ? 140 : nil))
        #expect(m.totalDistanceRaw == (flags & 0x02 != 0 ? 10000 : nil))
        #expect(m.isRunning == (flags & 0x04 != 0))
        #expect(m.encoded == raw)

        let built = RSCMeasurement(speedRaw: 512, cadence: 90, strideLengthRaw: m.strideLengthRaw,
                                   totalDistanceRaw: m.totalDistanceRaw, isRunning: m.isRunning)
        #expect(try RSCMeasurement(decoding: built.encoded) == built)
        #expect(built.encoded == raw.with(first: flags & 0x07))
    }

    static let malformed: [(String, WireError)] = [
        ("", .truncated(field: "Flags", needed: 1, available: 0)),
        ("00 36", .truncated(field: "Instantaneous Speed", needed: 2, available: 1)),
        ("00 36 03", .truncated(field: "Instantaneous Cadence", needed: 1, available: 0)),
        ("01 36 03 AC 70", .truncated(field: "Instantaneous Stride Length", needed: 2, available: 1)),
        ("02 36 03 AC 39 30 00", .truncated(field: "Total Distance", needed: 4, available: 3)),
        ("03 36 03 AC 70 00 39", .truncated(field: "Total Distance", needed: 4, available: 1)),
    ]

    @Test(arguments: 0..<6)
    func malformedValuesThrowNamingTheField(index: Int) {
        let (hex, error) = Self.malformed[index]
        #expect(throws: error) { try RSCMeasurement(decoding: bytes(hex)) }
    }

    @Test func fieldsCarryUnits() throws {
        let fields = try RSCMeasurement(decoding: bytes("07 36 03 AC 70 00 39 30 00 00")).fieldList
        #expect(fields.value(of: "Motion") == "running")
        #expect(fields.value(of: "Instantaneous speed") == "822/256 m/s (3.21 m/s)")
        #expect(fields.value(of: "Pace") == "5:11 min/km")
        #expect(fields.value(of: "Instantaneous cadence") == "172 steps/min")
        #expect(fields.value(of: "Instantaneous stride length") == "1.12 m")
        #expect(fields.value(of: "Total distance") == "1234.5 m")
    }
}
