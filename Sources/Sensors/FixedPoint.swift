/// Text for fixed-point values without Foundation and without going through `Double`, so that
/// what is shown is exactly what was sent (a temperature of 2350 hundredths is "23.50", never
/// "23.499999").
enum FixedPoint {
    /// `value` in units of 10^-decimals, e.g. `format(2350, decimals: 2)` → "23.50",
    /// `format(-525, decimals: 2)` → "-5.25".
    static func format(_ value: Int, decimals: Int) -> String {
        guard decimals > 0 else { return String(value) }
        var scale = 1
        for _ in 0..<decimals { scale *= 10 }
        let magnitude = value.magnitude
        let whole = magnitude / UInt(scale)
        let fraction = String(magnitude % UInt(scale))
        let padding = String(repeating: "0", count: max(0, decimals - fraction.count))
        return (value < 0 ? "-" : "") + String(whole) + "." + padding + fraction
    }

    /// `numerator / denominator` rounded half away from zero, for unit conversions of raw
    /// values (denominator > 0; both small enough not to overflow, as raw fields are ≤ 32 bits).
    static func rounded(_ numerator: Int, _ denominator: Int) -> Int {
        let half = denominator / 2
        return numerator >= 0 ? (numerator + half) / denominator : -((-numerator + half) / denominator)
    }
}
