import Testing
import TestSupport
@testable import Wire

/// Random bytes behind every event code: decoding must return or throw WireError, never
/// trap; whatever decodes must round-trip and display.
@Suite struct HCIEventSweepTests {
    /// Decodes; what decodes must round-trip, display and iterate its arrays. Mismatches are
    /// collected rather than asserted one by one, which keeps the sweep fast.
    private func check(_ bytes: [UInt8], _ decoded: inout Int, _ thrown: inout Int, _ failures: inout [String]) {
        do {
            let e = try HCIEvent.decode(bytes)
            if (try? HCIEvent.decode(e.encoded)) != e { failures.append("round trip: " + Hex.spaced(bytes)) }
            if e.exerciseDisplay() == 0 { failures.append("no display: " + Hex.spaced(bytes)) }
            var counted = true
            switch e {
            case .numberOfCompletedPackets(let n): counted = Array(n.entries).count == n.numHandles
            case .le(.advertisingReport(let a)): counted = Array(a.reports).count == a.numReports
            case .le(.extendedAdvertisingReport(let a)): counted = Array(a.reports).count == a.numReports
            case .le(.directedAdvertisingReport(let a)): counted = Array(a.reports).count == a.numReports
            default: break
            }
            if !counted { failures.append("element count: " + Hex.spaced(bytes)) }
            decoded += 1
        } catch {
            thrown += 1
        }
    }

    @Test func everyEventCodeWithRandomParametersOfEveryLength() {
        var rng = SplitMix64(seed: 0x5EED)
        var decoded = 0, thrown = 0, total = 0
        var failures: [String] = []
        for code in 0...255 {
            for length in 0...40 {
                for _ in 0..<3 {
                    let params = rng.bytes(length)
                    // Declared length right, then too long by one, then shorter than present.
                    check([UInt8(code), UInt8(length)] + params, &decoded, &thrown, &failures)
                    check([UInt8(code), UInt8(length + 1)] + params, &decoded, &thrown, &failures)
                    check([UInt8(code), UInt8(length / 2)] + params, &decoded, &thrown, &failures)
                    total += 3
                }
            }
        }
        #expect(decoded + thrown == total)
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        #expect(decoded > 0 && thrown > 0)
    }

    @Test func everyLESubeventWithRandomParametersOfEveryLength() {
        var rng = SplitMix64(seed: 0x1E5EED)
        var decoded = 0, thrown = 0, total = 0
        var failures: [String] = []
        for subevent in 0...255 {
            for length in 0...40 {
                for trial in 0..<3 {
                    var params = rng.bytes(length)
                    // Small counts make multi-report layouts reachable by chance.
                    if length > 0, trial > 0 { params[0] = UInt8(trial) }
                    check([0x3E, UInt8(length + 1), UInt8(subevent)] + params, &decoded, &thrown, &failures)
                    total += 1
                }
            }
        }
        #expect(decoded + thrown == total)
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        #expect(decoded > 0 && thrown > 0)
    }

    @Test func fullLengthEventsAtTheLimits() {
        // 255 parameter bytes (the most an event can carry) of 0x00 and of 0xFF behind every code.
        var decoded = 0, thrown = 0
        var failures: [String] = []
        for code in 0...255 {
            for fill in [UInt8(0x00), 0xFF, 0x01] {
                check([UInt8(code), 0xFF] + [UInt8](repeating: fill, count: 255), &decoded, &thrown, &failures)
            }
        }
        #expect(decoded + thrown == 256 * 3)
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }
}
