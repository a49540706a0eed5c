import Foundation
import Sensors
import Wire

/// The three session roles, with the world's name for their notifying characteristic.
enum SessionRole: String, CaseIterable, Sendable {
    case heart, speed, environment

    /// The characteristic the session subscribes to, as the world writes it in `notify` lines.
    var worldUUID: String {
        switch self {
        case .heart: return "2A37"
        case .speed: return "2A53"
        case .environment: return "EF680201-9B35-4933-9B10-52FFA9740042"
        }
    }

    var characteristic: BluetoothUUID {
        switch self {
        case .heart: return SensorCharacteristicUUID.heartRateMeasurement
        case .speed: return SensorCharacteristicUUID.rscMeasurement
        case .environment: return SensorCharacteristicUUID.thingyTemperature
        }
    }

    /// The world's device kind for this role.
    var worldKind: String { rawValue }
}

/// Compares the session's JSON measurements with the bytes the world sent, decoded by the
/// project's own Sensors decoders, field by field.
enum MeasurementCheck {
    /// The differences between one `measurement` line and one notification value; empty when
    /// they agree.
    static func differences(_ m: JSONValue, _ value: [UInt8], role: SessionRole) -> [String] {
        var d: [String] = []
        func number(_ key: String, _ expected: Double?, decimals: Int) {
            let got: Double? = m[key]?.double
            let want: Double? = expected.map { rounded($0, decimals) }
            if let g = got, let w = want {
                if abs(g - w) > 1e-6 { d.append("\(key) \(g) ≠ \(w)") }
            } else if got != nil || want != nil {
                d.append("\(key) \(String(describing: got)) ≠ \(String(describing: want))")
            }
        }
        do {
            switch role {
            case .heart:
                let h = try HeartRateMeasurement(decoding: value)
                number("bpm", Double(h.heartRate), decimals: 0)
                number("energy_kj", h.energyExpended.map(Double.init), decimals: 0)
                let expected = h.rrIntervals.milliseconds.map { rounded($0, 1) }
                let got = m["rr_ms"]?.array?.compactMap(\.double) ?? []
                if got.count != expected.count || zip(got, expected).contains(where: { abs($0 - $1) > 1e-6 }) {
                    d.append("rr_ms \(got) ≠ \(expected)")
                }
            case .speed:
                let s = try RSCMeasurement(decoding: value)
                number("speed_mps", s.speedMetersPerSecond, decimals: 4)
                number("cadence_spm", Double(s.cadence), decimals: 0)
                number("stride_m", s.strideLengthMeters, decimals: 2)
                number("distance_m", s.totalDistanceMeters, decimals: 1)
                if m["running"]?.bool != s.isRunning { d.append("running \(String(describing: m["running"])) ≠ \(s.isRunning)") }
            case .environment:
                let t = try ThingyTemperature(decoding: value)
                number("celsius", t.celsius, decimals: 2)
            }
        } catch {
            d.append("the world's value \(HexText.string(value)) does not decode: \(error)")
        }
        return d
    }

    /// Half away from zero, as the product's JSON writer rounds.
    static func rounded(_ v: Double, _ decimals: Int) -> Double {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        return (v * scale).rounded() / scale
    }
}

/// How a sensor's received measurements line up with what the world sent for it.
struct StreamAlignment: CustomStringConvertible {
    /// World indexes of the received measurements, in order (nil: no match found after the
    /// previous one — a duplicate, a reordering or a wrong value).
    var matchedIndexes: [Int?] = []
    var unmatched: [(received: Int, line: String)] = []
    /// Notifications sent before the first received one.
    var leadingMissed = 0
    /// Notifications skipped between received ones (world index ranges).
    var gaps: [Range<Int>] = []
    /// Notifications sent after the last received one.
    var trailingMissed = 0
    var sentCount = 0
    var receivedCount = 0

    var missedInside: Int { gaps.reduce(0) { $0 + $1.count } }

    var description: String {
        "sent \(sentCount), received \(receivedCount), unmatched \(unmatched.count)"
            + (unmatched.isEmpty ? "" : " (first: #\(unmatched[0].received) \(unmatched[0].line))")
            + ", leading missed \(leadingMissed), gaps \(gaps.map { "\($0.lowerBound)..<\($0.upperBound)" }), trailing missed \(trailingMissed)"
    }

    /// Walks both lists in order: each received measurement must equal the next or a later sent
    /// value (so duplicates and wrong values show up as unmatched, losses as gaps).
    static func align(received: [JSONValue], sent: [WorldNotification], role: SessionRole) -> StreamAlignment {
        var a = StreamAlignment()
        a.sentCount = sent.count
        a.receivedCount = received.count
        var next = 0
        for (i, m) in received.enumerated() {
            var j = next
            while j < sent.count, !MeasurementCheck.differences(m, sent[j].value, role: role).isEmpty { j += 1 }
            if j == sent.count {
                a.matchedIndexes.append(nil)
                let why = next < sent.count ? MeasurementCheck.differences(m, sent[next].value, role: role).joined(separator: ", ") : "nothing left to match"
                a.unmatched.append((i, "\(m) vs world seq \(next < sent.count ? sent[next].seq : -1): \(why)"))
                continue
            }
            if i == 0 { a.leadingMissed = j } else if j > next { a.gaps.append(next..<j) }
            a.matchedIndexes.append(j)
            next = j + 1
        }
        a.trailingMissed = received.isEmpty ? 0 : sent.count - next
        if received.isEmpty { a.leadingMissed = sent.count }
        return a
    }
}

extension RtstackResult {
    /// The measurement lines of one sensor, in order.
    func measurements(_ role: SessionRole) -> [JSONValue] {
        events("measurement").filter { $0["sensor"]?.string == role.rawValue }
    }

    /// Whether, at some point of the stream, every one of `roles` was `ready` at once.
    func allReadyAtOnce(_ roles: [SessionRole]) -> Bool {
        var state: [String: String] = [:]
        for e in events("state") {
            guard let s = e["sensor"]?.string, let st = e["state"]?.string else { continue }
            state[s] = st
            if roles.allSatisfy({ state[$0.rawValue] == "ready" }) { return true }
        }
        return false
    }

    /// The state lines of one sensor: (time, state).
    func states(_ role: SessionRole) -> [(time: Double, state: String)] {
        events("state").compactMap { e in
            guard e["sensor"]?.string == role.rawValue, let s = e["state"]?.string else { return nil }
            return (e["time"]?.double ?? -1, s)
        }
    }

    var summary: JSONValue? { events("summary").last }
    var notices: [String] { events("notice").compactMap { $0["message"]?.string } }
}
