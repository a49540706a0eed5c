import RunTracker
import Sensors
import Wire

/// The session's screen: one block per sensor with its state, name, address, RSSI, latest
/// values with units and a sparkline of the last minute (heart rate, speed, temperature). On a
/// terminal it redraws in place; otherwise each change is a line.
final class LiveView {
    struct Row {
        var state: SensorState = .scanning
        var name: String?
        var address: DeviceAddress?
        var rssi: Int8?
        var latest: DecodedSensorValue?
        var trend = Sparkline()
    }

    private var rows: [SensorRole: Row] = [:]
    private let roles: [SensorRole]
    private let out: OutputStream
    private let inPlace: Bool
    private var drawnLines = 0
    private var notices: [String] = []

    init(roles: [SensorRole], out: OutputStream) {
        self.roles = roles
        self.out = out
        self.inPlace = out.isTerminal
        for r in roles { rows[r] = Row() }
    }

    func apply(_ event: SessionEvent, secondsSinceStart t: Double) {
        switch event {
        case let .state(role, s, address, name):
            rows[role]?.state = s
            if let a = address { rows[role]?.address = a }
            if let n = name { rows[role]?.name = n }
            if s == .scanning { rows[role] = Row() }
            if !inPlace { out.line(stamp(t) + role.rawValue + " " + s.rawValue + (address.map { " " + $0.description } ?? "")) }
        case let .measurement(role, m, _, _):
            rows[role]?.latest = m
            if let v = LiveView.trendValue(m) { rows[role]?.trend.add(v, at: t) }
            if !inPlace { out.line(stamp(t) + role.rawValue + " " + LiveView.values(m)) }
        case let .rssi(role, r):
            rows[role]?.rssi = r
            return
        case let .notice(text):
            if inPlace { notices = Array((notices + [text]).suffix(3)) } else { out.line(stamp(t) + "! " + text) }
        case .summary:
            return
        }
        if inPlace { redraw(t) } else { out.flush() }
    }

    /// Redraws every line: cursor up over the previous drawing, then each line cleared.
    func redraw(_ t: Double) {
        var s = ""
        if drawnLines > 0 { s += "\u{1B}[\(drawnLines)F" }
        var lines = ["rtstack run session  " + LiveView.clock(t) + "   (Ctrl-C ends it)"]
        for role in roles {
            guard let r = rows[role] else { continue }
            var head = pad(role.title, 12) + pad(r.state.rawValue, 13)
            head += pad(r.name ?? "", 12) + pad(r.address?.address.string ?? "", 19)
            head += r.rssi.map { "\($0) dBm" } ?? ""
            lines.append(head)
            let values = "    " + (r.latest.map(LiveView.values) ?? "—")
            let trend = r.trend.render(at: t)
            lines.append(trend.isEmpty ? values : pad(values, 60) + trend)
        }
        for n in notices { lines.append("! " + n) }
        for l in lines { s += "\u{1B}[2K" + l + "\n" }
        drawnLines = lines.count
        out.write(s)
        out.flush()
    }

    private func stamp(_ t: Double) -> String { "[" + LiveView.clock(t) + "] " }

    private func pad(_ s: String, _ n: Int) -> String {
        s.count >= n ? s + " " : s + String(repeating: " ", count: n - s.count)
    }

    static func clock(_ t: Double) -> String {
        let s = Int(t.rounded(.down))
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return two(s / 3600) + ":" + two(s / 60 % 60) + ":" + two(s % 60)
    }

    static func fixed(_ v: Double, _ decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let n = Int((abs(v) * scale).rounded())
        let whole = n / Int(scale)
        var frac = String(n % Int(scale))
        frac = String(repeating: "0", count: decimals - frac.count) + frac
        return (v < 0 && n != 0 ? "-" : "") + String(whole) + (decimals > 0 ? "." + frac : "")
    }

    /// The one number of a measurement its sparkline follows: bpm, m/s, °C.
    static func trendValue(_ m: DecodedSensorValue) -> Double? {
        switch m {
        case .heartRate(let h): return Double(h.heartRate)
        case .rsc(let r): return r.speedMetersPerSecond
        case .thingyTemperature(let t): return t.celsius
        case .temperature(let t): return t.celsius
        default: return nil
        }
    }

    /// Values with units, e.g. `72 bpm  RR 812 ms` or `3.21 m/s  5:11 min/km  172 spm`.
    static func values(_ m: DecodedSensorValue) -> String {
        switch m {
        case .heartRate(let h):
            var s = "\(h.heartRate) bpm"
            let rr = h.rrIntervals.milliseconds
            if !rr.isEmpty { s += "  RR " + rr.map { String(Int($0.rounded())) }.joined(separator: " ") + " ms" }
            if let e = h.energyExpended { s += "  \(e) kJ" }
            return s
        case .rsc(let r):
            let mps = r.speedMetersPerSecond, cadence = r.cadence, stride = r.strideLengthMeters
            let distance = r.totalDistanceMeters, running = r.isRunning
            var s = fixed(mps, 2) + " m/s"
            if mps > 0 {
                let pace = 1000 / mps
                let minutes = Int(pace / 60)
                let seconds = Int(pace.rounded()) - minutes * 60
                s += "  \(minutes):" + (seconds < 10 ? "0" : "") + "\(min(seconds, 59)) min/km"
            }
            s += "  \(cadence) spm"
            if let st = stride { s += "  stride " + fixed(st, 2) + " m" }
            if let d = distance { s += "  " + fixed(d, 1) + " m" }
            s += running ? "  running" : "  walking"
            return s
        case .thingyTemperature(let t):
            return fixed(t.celsius, 2) + " °C"
        case .temperature(let t):
            return t.celsius.map { fixed($0, 2) + " °C" } ?? "—"
        default:
            return m.summary
        }
    }

    /// Final lines after Ctrl-C or --duration.
    static func summaryText(_ s: SessionSummary) -> String {
        var lines = ["session: " + clock(s.durationSeconds)]
        if let mn = s.heartRate.min, let av = s.heartRate.mean, let mx = s.heartRate.max {
            lines.append("heart rate: min \(Int(mn)) / avg " + fixed(av, 1) + " / max \(Int(mx)) bpm")
        }
        if s.speed.count > 0 {
            lines.append("distance: " + fixed(s.distanceMeters, 1) + " m, average speed " + fixed(s.averageSpeed ?? 0, 2) + " m/s")
        }
        if let c = s.temperature.mean { lines.append("average temperature: " + fixed(c, 2) + " °C") }
        let counts = SensorRole.allCases.map { "\($0.rawValue) \(s.measurements[$0] ?? 0)" }.joined(separator: ", ")
        lines.append("measurements: " + counts)
        return lines.joined(separator: "\n")
    }
}
