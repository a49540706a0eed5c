/// A number as `significand × 10^exponent`, the way sensors send them (hundredths of a degree,
/// an IEEE 11073 FLOAT, a BTHome object with factor 0.01). Kept exact so that what is published
/// is what was measured: 2138 × 10⁻² prints as `21.38`, never as `21.379999`, and the number of
/// decimals the sensor chose (its resolution) is kept (`2.0` is not `2`).
public struct DecimalNumber: Sendable, Hashable, CustomStringConvertible {
    public var significand: Int64
    public var exponent: Int

    public init(_ significand: Int64, exponent: Int = 0) {
        self.significand = significand
        self.exponent = exponent
    }

    public init<T: BinaryInteger>(_ significand: T, exponent: Int = 0) {
        self.significand = Int64(truncatingIfNeeded: significand)
        self.exponent = exponent
    }

    /// The nearest `Double` (for arithmetic and comparisons; the text is exact, this is not).
    public var double: Double {
        // One multiplication or division by an exactly representable power of ten (up to
        // 10²²) rounds once, so 2138 × 10⁻² is the Double nearest 21.38.
        let v = Double(significand)
        if exponent >= 0 {
            return exponent < Self.powersOfTen.count ? v * Self.powersOfTen[exponent] : v * Self.power(exponent)
        }
        return -exponent < Self.powersOfTen.count ? v / Self.powersOfTen[-exponent] : v / Self.power(-exponent)
    }

    private static let powersOfTen: [Double] = {
        var out: [Double] = [1]
        for _ in 1...22 { out.append(out[out.count - 1] * 10) }
        return out
    }()

    private static func power(_ n: Int) -> Double {
        var v = 1.0
        for _ in 0..<min(n, 400) { v *= 10 }
        return v
    }

    /// Exact decimal text: `21.38`, `-0.05`, `1200`, `2.0`. Exponents outside −18…9 are written
    /// in E notation (`12e20`), which JSON also accepts, so that a hostile exponent cannot make a
    /// 130-character number.
    public var description: String {
        if exponent >= 0 {
            if significand == 0 { return "0" }
            if exponent > 9 { return "\(significand)e\(exponent)" }
            return String(significand) + String(repeating: "0", count: exponent)
        }
        if exponent < -18 { return "\(significand)e\(exponent)" }
        let decimals = -exponent
        let digits = String(significand.magnitude)
        let padded = String(repeating: "0", count: max(0, decimals + 1 - digits.count)) + digits
        let cut = padded.index(padded.endIndex, offsetBy: -decimals)
        return (significand < 0 ? "-" : "") + padded[..<cut] + "." + padded[cut...]
    }

    /// Digits after the decimal point (0 for whole numbers), for Home Assistant's
    /// `suggested_display_precision`.
    public var decimals: Int { max(0, -exponent) }
}
