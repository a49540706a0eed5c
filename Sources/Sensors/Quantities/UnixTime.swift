/// Calendar text for seconds since 1970-01-01 UTC without Foundation (civil-from-days over the
/// proleptic Gregorian calendar), for timestamps that sensors send as Unix time and for the
/// times the gateway stamps on what it publishes.
public enum UnixTime {
    /// "2023-01-04T12:07:34.250Z": to the millisecond (rounded down), from seconds since 1970.
    public static func iso8601(_ time: Double) -> String {
        guard time.isFinite, abs(time) < 1e15 else { return iso8601(seconds: 0) }
        let whole = time.rounded(.down)
        let ms = min(999, Int((time - whole) * 1000))
        let text = iso8601(seconds: Int64(whole))
        let padded = ms < 10 ? "00\(ms)" : ms < 100 ? "0\(ms)" : "\(ms)"
        return String(text.dropLast()) + "." + padded + "Z"
    }

    /// "2023-01-04T12:07:34Z"; any Int64 is accepted (years outside 0…9999 print as they come).
    public static func iso8601(seconds: Int64) -> String {
        let (days, secondOfDay) = floorDivide(seconds, 86_400)
        // Days since 0000-03-01, in 400-year eras of 146097 days.
        let z = days + 719_468
        let (era, doe) = floorDivide(z, 146_097)
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let y = year >= 0 && year < 1000 ? String(repeating: "0", count: 4 - String(year).count) + String(year) : String(year)
        return y + "-" + two(month) + "-" + two(day) + "T" + two(secondOfDay / 3600) + ":"
            + two(secondOfDay % 3600 / 60) + ":" + two(secondOfDay % 60) + "Z"
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let q = a / b
        let r = a % b
        return r < 0 ? (q - 1, r + b) : (q, r)
    }
}
