/// Calendar text for seconds since 1970-01-01 UTC without Foundation (civil-from-days over the
/// proleptic Gregorian calendar), for timestamps that sensors send as Unix time and for the
/// times the gateway stamps on what it publishes.
public enum UnixTime {
    /// "2023-01-04T12:07:34.250Z": to the millisecond (rounded down), from seconds since 1970.
    public static func iso8601(_ time: Double) -> String {
        guard time.isFinite, abs(time) < 1e15 else { return iso8601(seconds: 0) }
        let whole = time.rounded(.down)
        return text(seconds: Int64(whole), milliseconds: min(999, Int((time - whole) * 1000)))
    }

    /// "2023-01-04T12:07:34Z"; any Int64 is accepted (years outside 0…9999 print as they come).
    public static func iso8601(seconds: Int64) -> String {
        text(seconds: seconds, milliseconds: nil)
    }

    /// The digits are written into the string's own storage: the gateway stamps every
    /// notification it publishes, and building the text from interpolated pieces cost more
    /// than decoding the notification (Docs/performance.md).
    private static func text(seconds: Int64, milliseconds: Int?) -> String {
        let (days, secondOfDay) = floorDivide(seconds, 86_400)
        let (year, month, day) = civil(days: days)
        guard (0...9999).contains(year) else {
            return wideYearText(year, month, day, secondOfDay, milliseconds: milliseconds)
        }
        let count = milliseconds == nil ? 20 : 24
        return String(unsafeUninitializedCapacity: count) { b in
            func two(_ v: Int64, at i: Int) {
                b[i] = UInt8(truncatingIfNeeded: 0x30 + v / 10)
                b[i + 1] = UInt8(truncatingIfNeeded: 0x30 + v % 10)
            }
            two(year / 100, at: 0)
            two(year % 100, at: 2)
            b[4] = 0x2D  // -
            two(month, at: 5)
            b[7] = 0x2D
            two(day, at: 8)
            b[10] = 0x54  // T
            two(secondOfDay / 3600, at: 11)
            b[13] = 0x3A  // :
            two(secondOfDay % 3600 / 60, at: 14)
            b[16] = 0x3A
            two(secondOfDay % 60, at: 17)
            if let ms = milliseconds.map(Int64.init) {
                b[19] = 0x2E  // .
                b[20] = UInt8(truncatingIfNeeded: 0x30 + ms / 100)
                two(ms % 100, at: 21)
                b[23] = 0x5A  // Z
            } else {
                b[19] = 0x5A
            }
            return count
        }
    }

    /// Years before 0 or after 9999, which no clock of a running gateway gives.
    private static func wideYearText(_ year: Int64, _ month: Int64, _ day: Int64, _ secondOfDay: Int64,
                                     milliseconds: Int?) -> String {
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        var text = String(year) + "-" + two(month) + "-" + two(day) + "T" + two(secondOfDay / 3600) + ":"
            + two(secondOfDay % 3600 / 60) + ":" + two(secondOfDay % 60)
        if let ms = milliseconds { text += "." + (ms < 10 ? "00\(ms)" : ms < 100 ? "0\(ms)" : "\(ms)") }
        return text + "Z"
    }

    /// (year, month, day) of a day count since 1970-01-01 (civil-from-days: days since
    /// 0000-03-01, in 400-year eras of 146097 days).
    private static func civil(days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let (era, doe) = floorDivide(z, 146_097)
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let q = a / b
        let r = a % b
        return r < 0 ? (q - 1, r + b) : (q, r)
    }
}
