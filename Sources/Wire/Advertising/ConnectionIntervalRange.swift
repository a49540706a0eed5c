/// Peripheral Connection Interval Range: the connection intervals the peripheral prefers
/// (Core Specification Supplement Part A §1.9). Units of 1.25 ms; 0xFFFF means no preference
/// for that end of the range.
public struct ConnectionIntervalRange: Hashable, Sendable, CustomStringConvertible {
    public var minimum: UInt16
    public var maximum: UInt16

    /// The value that says "no specific minimum/maximum".
    public static let noSpecificValue: UInt16 = 0xFFFF

    public init(minimum: UInt16, maximum: UInt16) {
        self.minimum = minimum
        self.maximum = maximum
    }

    /// Interval in milliseconds, nil for "no specific value".
    public static func milliseconds(_ units: UInt16) -> Double? {
        units == noSpecificValue ? nil : Double(units) * 1.25
    }

    public var minimumMilliseconds: Double? { ConnectionIntervalRange.milliseconds(minimum) }
    public var maximumMilliseconds: Double? { ConnectionIntervalRange.milliseconds(maximum) }

    /// Whether each end is 0xFFFF or within 0x0006…0x0C80 (7.5 ms … 4 s) and min ≤ max.
    public var isValid: Bool {
        func ok(_ v: UInt16) -> Bool { v == ConnectionIntervalRange.noSpecificValue || (0x0006...0x0C80).contains(v) }
        guard ok(minimum), ok(maximum) else { return false }
        if minimum != 0xFFFF, maximum != 0xFFFF { return minimum <= maximum }
        return true
    }

    static func text(_ units: UInt16, _ end: String) -> String {
        guard let ms = milliseconds(units) else { return "no specific " + end }
        return formatMilliseconds(ms) + " (" + Hex.number(units, width: 4) + ")"
    }

    public var description: String {
        ConnectionIntervalRange.text(minimum, "minimum") + " – " + ConnectionIntervalRange.text(maximum, "maximum")
    }

    static func decode(_ bytes: ArraySlice<UInt8>) throws(WireError) -> ConnectionIntervalRange {
        var r = ByteReader(bytes)
        let lo = try r.u16("Connection Interval Min")
        let hi = try r.u16("Connection Interval Max")
        return ConnectionIntervalRange(minimum: lo, maximum: hi)
    }

    func encodeData(into w: inout ByteWriter) {
        w.u16(minimum)
        w.u16(maximum)
    }
}

/// Milliseconds with at most three decimals and no trailing zeros (`7.5 ms`, `1000 ms`),
/// without Foundation's formatters.
func formatMilliseconds(_ ms: Double) -> String {
    let thousandths = Int64((ms * 1000).rounded())
    let whole = thousandths / 1000
    var frac = thousandths % 1000
    if frac == 0 { return "\(whole) ms" }
    var digits = 3
    while frac % 10 == 0 { frac /= 10; digits -= 1 }
    let f = String(frac)
    return "\(whole)." + String(repeating: "0", count: digits - f.count) + f + " ms"
}
