import Wire

/// Date Time, 0x2A08 (GATT Specification Supplement), as the Health Thermometer's Time Stamp
/// field carries it: Year (uint16, 1582–9999, 0 = not known), Month (1–12, 0 = not known), Day
/// (1–31, 0 = not known), Hours (0–23), Minutes (0–59), Seconds (0–59). A local time without a
/// zone, as the device's clock shows it. Values outside the allowed ranges are rejected.
public struct DateTime: Sendable, Hashable, WireCodable {
    public var year: UInt16
    public var month: UInt8
    public var day: UInt8
    public var hours: UInt8
    public var minutes: UInt8
    public var seconds: UInt8

    public init(year: UInt16, month: UInt8, day: UInt8, hours: UInt8, minutes: UInt8, seconds: UInt8) {
        self.year = year
        self.month = month
        self.day = day
        self.hours = hours
        self.minutes = minutes
        self.seconds = seconds
    }

    public init(decoding reader: inout ByteReader) throws(WireError) {
        year = try reader.u16("Year")
        month = try reader.u8("Month")
        day = try reader.u8("Day")
        hours = try reader.u8("Hours")
        minutes = try reader.u8("Minutes")
        seconds = try reader.u8("Seconds")
        if year != 0 && !(1582...9999).contains(year) { throw WireError.invalidValue(field: "Year", value: UInt64(year)) }
        if month > 12 { throw WireError.invalidValue(field: "Month", value: UInt64(month)) }
        if day > 31 { throw WireError.invalidValue(field: "Day", value: UInt64(day)) }
        if hours > 23 { throw WireError.invalidValue(field: "Hours", value: UInt64(hours)) }
        if minutes > 59 { throw WireError.invalidValue(field: "Minutes", value: UInt64(minutes)) }
        if seconds > 59 { throw WireError.invalidValue(field: "Seconds", value: UInt64(seconds)) }
    }

    public func encode(into writer: inout ByteWriter) {
        writer.u16(year)
        writer.u8(month)
        writer.u8(day)
        writer.u8(hours)
        writer.u8(minutes)
        writer.u8(seconds)
    }

    /// ISO 8601 local time, "2024-03-09T07:05:00"; unknown date parts as "????", "??".
    public var iso8601: String {
        func two(_ v: UInt8) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let y = year == 0 ? "????" : String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        let m = month == 0 ? "??" : two(month)
        let d = day == 0 ? "??" : two(day)
        return y + "-" + m + "-" + d + "T" + two(hours) + ":" + two(minutes) + ":" + two(seconds)
    }
}
