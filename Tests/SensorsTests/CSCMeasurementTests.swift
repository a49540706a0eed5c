import Testing
import TestSupport
import Wire
@testable import Sensors

@Suite struct CSCMeasurementTests {
    // CSCS v1.0 §3.1: Flags, then wheel (uint32 revolutions, uint16 1/1024 s) if bit 0, then
    // crank (uint16 revolutions, uint16 1/1024 s) if bit 1.
    @Test func decodesBothKinds() throws {
        let m = try CSCMeasurement(decoding: bytes("03 0A 00 00 00 00 04 05 00 00 02"))
        #expect(m.wheel == .init(cumulativeRevolutions: 10, lastEventTime: 1024))
        #expect(m.crank == .init(cumulativeRevolutions: 5, lastEventTime: 512))
        #expect(m.summary == "wheel 10 rev @ 1.000 s, crank 5 rev @ 0.500 s")
        #expect(m.encoded == bytes("03 0A 00 00 00 00 04 05 00 00 02"))
        #expect(m.quantities.map(\.key) == ["wheel_revolutions", "crank_revolutions"])
        #expect(m.quantities.allSatisfy { $0.kind == .totalIncreasing })
    }

    @Test func wheelOnlyCrankOnlyAndReservedBits() throws {
        let wheel = try CSCMeasurement(decoding: bytes("01 FF FF FF FF 00 80"))
        #expect(wheel.wheel?.cumulativeRevolutions == 0xFFFF_FFFF && wheel.crank == nil)
        let crank = try CSCMeasurement(decoding: bytes("02 34 12 FF FF"))
        #expect(crank.crank == .init(cumulativeRevolutions: 0x1234, lastEventTime: 0xFFFF) && crank.wheel == nil)
        let none = try CSCMeasurement(decoding: bytes("FC"))
        #expect(none.summary == "no revolution data")
        #expect(none.flags.rawValue == 0xFC)   // reserved bits kept as received
    }

    @Test func truncated() {
        #expect(throws: WireError.truncated(field: "Cumulative Wheel Revolutions", needed: 4, available: 3)) {
            try CSCMeasurement(decoding: bytes("01 01 02 03"))
        }
        #expect(throws: WireError.truncated(field: "Last Crank Event Time", needed: 2, available: 1)) {
            try CSCMeasurement(decoding: bytes("02 01 00 05"))
        }
        #expect(throws: WireError.truncated(field: "Flags", needed: 1, available: 0)) { try CSCMeasurement(decoding: []) }
    }

    @Test func feature() throws {
        let f = try CSCFeature(decoding: bytes("03 00"))
        #expect(f == [.wheelRevolutionData, .crankRevolutionData])
        #expect(f.summary == "Wheel Revolution Data, Crank Revolution Data")
        #expect(try CSCFeature(decoding: bytes("00 80")).reservedBits == 0x8000)
    }

    static func m(wheel: UInt32? = nil, wheelTime: UInt16 = 0, crank: UInt16? = nil, crankTime: UInt16 = 0) -> CSCMeasurement {
        CSCMeasurement(wheel: wheel.map { .init(cumulativeRevolutions: $0, lastEventTime: wheelTime) },
                       crank: crank.map { .init(cumulativeRevolutions: $0, lastEventTime: crankTime) })
    }

    @Test func ratesFromTwoMeasurements() throws {
        var rates = CSCRates(wheelCircumferenceMillimeters: 2096)
        rates.update(Self.m(wheel: 100, wheelTime: 1024, crank: 50, crankTime: 1024), at: 0)
        #expect(rates.speedMetersPerSecond == nil && rates.crankRevolutionsPerMinute == nil)
        // 4 wheel revolutions in 1 s: 240 rpm, 4 × 2.096 m/s; 1 crank revolution in 683/1024 s.
        rates.update(Self.m(wheel: 104, wheelTime: 2048, crank: 51, crankTime: 1707), at: 1)
        #expect(rates.wheelRevolutionsPerMinute == 240)
        #expect(abs(try #require(rates.speedMetersPerSecond) - 8.384) < 1e-9)
        #expect(abs(try #require(rates.crankRevolutionsPerMinute) - 60 * 1024 / 683.0) < 1e-9)
        #expect(rates.quantities.map(\.text) == ["30.18 km/h", "90.0 rpm"])
    }

    @Test func eventTimeAndCounterRollOver() {
        var rates = CSCRates()
        rates.update(Self.m(wheel: 0xFFFF_FFFE, wheelTime: 0xFF00, crank: 0xFFFF, crankTime: 0xFE00), at: 0)
        // Times wrap at 65536 ticks (64 s), counters at their width.
        rates.update(Self.m(wheel: 2, wheelTime: 0x0300, crank: 1, crankTime: 0x0200), at: 1)
        #expect(rates.wheelRevolutionsPerMinute == 240)          // 4 revolutions in 1024 ticks
        #expect(rates.crankRevolutionsPerMinute == 120)          // 2 revolutions in 1024 ticks
    }

    @Test func aResetCounterRestartsInsteadOfSpiking() {
        var rates = CSCRates()
        rates.update(Self.m(wheel: 1000, wheelTime: 1000), at: 0)
        rates.update(Self.m(wheel: 1004, wheelTime: 2024), at: 1)
        #expect(rates.wheelRevolutionsPerMinute == 240)
        // SC Control Point "Set Cumulative Value" to 5: the difference wraps to ~4 × 10⁹.
        rates.update(Self.m(wheel: 5, wheelTime: 3048), at: 2)
        #expect(rates.wheelRevolutionsPerMinute == 240)          // held, no spike
        rates.update(Self.m(wheel: 7, wheelTime: 4072), at: 3)
        #expect(rates.wheelRevolutionsPerMinute == 120)          // computed from the reset value
    }

    @Test func aStoppedWheelDropsToZeroAfterStopAfter() {
        var rates = CSCRates(stopAfter: 3)
        rates.update(Self.m(wheel: 10, wheelTime: 0), at: 0)
        rates.update(Self.m(wheel: 12, wheelTime: 1024), at: 1)
        #expect(rates.wheelRevolutionsPerMinute == 120)
        rates.update(Self.m(wheel: 12, wheelTime: 1024), at: 2)   // the same event repeated
        #expect(rates.wheelRevolutionsPerMinute == 120)
        rates.update(Self.m(wheel: 12, wheelTime: 1024), at: 4)
        #expect(rates.wheelRevolutionsPerMinute == 0)
        // A sensor that stops notifying altogether: the timer expires the rate.
        var silent = CSCRates(stopAfter: 3)
        silent.update(Self.m(crank: 1, crankTime: 0), at: 0)
        silent.update(Self.m(crank: 2, crankTime: 1024), at: 1)
        silent.expire(at: 3.5)
        #expect(silent.crankRevolutionsPerMinute == 60)
        silent.expire(at: 4)
        #expect(silent.crankRevolutionsPerMinute == 0)
    }

    /// Random measurements never trap the rate computation and never give a negative or
    /// non-finite rate.
    @Test func randomSequencesGiveFiniteRates() {
        var rng = SplitMix64(seed: 0x2A5B)
        var rates = CSCRates()
        for i in 0..<20_000 {
            let v = CSCMeasurement(wheel: rng.below(4) == 0 ? nil : .init(cumulativeRevolutions: UInt32(truncatingIfNeeded: rng.next()),
                                                                          lastEventTime: UInt16(truncatingIfNeeded: rng.next())),
                                   crank: rng.below(4) == 0 ? nil : .init(cumulativeRevolutions: UInt16(truncatingIfNeeded: rng.next()),
                                                                          lastEventTime: UInt16(truncatingIfNeeded: rng.next())))
            rates.update(v, at: Double(i) / 4)
            for r in [rates.wheelRevolutionsPerMinute, rates.crankRevolutionsPerMinute].compactMap({ $0 }) {
                #expect(r.isFinite && r >= 0)
            }
        }
    }
}
