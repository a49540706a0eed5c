import Dissector
import HostCore
import JSON
import RunTracker
import Sensors

/// JSON Lines form of session events (`rtstack --json`): one object per event, the keys
/// documented in README so scripts can rely on them. Optional fields are left out when the
/// sensor does not send them.
enum SessionJSON {
    static func render(_ event: SessionEvent, secondsSinceStart t: Double) -> String? {
        var o = JSONObject()
        switch event {
        case let .state(role, state, address, name):
            o.add("event", "state")
            o.add("time", rounded(t, 3))
            o.add("sensor", role.rawValue)
            if let a = address { o.add("address", a.description) }
            if let n = name { o.add("name", n) }
            o.add("state", state.rawValue)
        case let .measurement(role, m, address, _):
            o.add("event", "measurement")
            o.add("time", rounded(t, 3))
            o.add("sensor", role.rawValue)
            o.add("address", address.description)
            switch m {
            case .heartRate(let h):
                o.add("bpm", Int(h.heartRate))
                if let e = h.energyExpended { o.add("energy_kj", Int(e)) }
                let rr = h.rrIntervals.milliseconds
                if !rr.isEmpty { o.add("rr_ms", raw: "[" + rr.map { JSONObject.number($0, decimals: 1) }.joined(separator: ",") + "]") }
            case .rsc(let r):
                o.add("speed_mps", r.speedMetersPerSecond, decimals: 4)
                o.add("cadence_spm", Int(r.cadence))
                if let s = r.strideLengthMeters { o.add("stride_m", s, decimals: 2) }
                if let d = r.totalDistanceMeters { o.add("distance_m", d, decimals: 1) }
                o.add("running", r.isRunning)
            case .thingyTemperature(let t):
                o.add("celsius", t.celsius, decimals: 2)
            case .temperature(let t):
                if let c = t.celsius { o.add("celsius", c, decimals: 2) }
            default:
                // The session reads only its roles' measurements (above); anything else the
                // decoder knows is shown by its summary rather than dropped.
                o.add("value", m.summary)
            }
        case .rssi:
            return nil
        case let .notice(message):
            o.add("event", "notice")
            o.add("time", rounded(t, 3))
            o.add("message", message)
        case let .summary(s):
            o.add("event", "summary")
            o.add("duration_s", rounded(s.durationSeconds, 3))
            if let mn = s.heartRate.min, let av = s.heartRate.mean, let mx = s.heartRate.max {
                o.add("heart_bpm_min", Int(mn))
                o.add("heart_bpm_avg", av, decimals: 1)
                o.add("heart_bpm_max", Int(mx))
            }
            if s.speed.count > 0 {
                o.add("distance_m", s.distanceMeters, decimals: 1)
                if let v = s.averageSpeed { o.add("avg_speed_mps", v, decimals: 3) }
            }
            if let c = s.temperature.mean { o.add("avg_celsius", c, decimals: 2) }
            var counts = JSONObject()
            for r in SensorRole.allCases { counts.add(r.rawValue, s.measurements[r] ?? 0) }
            o.add("measurements", counts)
            var re = JSONObject()
            for r in SensorRole.allCases { re.add(r.rawValue, s.reconnections[r] ?? 0) }
            o.add("reconnections", re)
            o.add("malformed", s.malformed)
        }
        return o.finished
    }

    private static func rounded(_ v: Double, _ decimals: Int) -> Double {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        return (v * scale).rounded() / scale
    }
}
