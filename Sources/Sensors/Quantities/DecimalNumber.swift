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
    ///
    /// The digits are written from the last into the string's own storage (every value the
    /// gateway publishes goes through here).
    public var description: String {
        if exponent >= 0 && significand == 0 { return "0" }
        if exponent > 9 || exponent < -18 { return "\(significand)e\(exponent)" }
        let magnitude = significand.magnitude
        let decimals = max(0, -exponent), zeros = max(0, exponent)
        var digitCount = 1
        var rest = magnitude
        while rest >= 10 {
            rest /= 10
            digitCount += 1
        }
        // At least one digit before the point: 5 × 10⁻² is 0.05.
        let places = max(digitCount, decimals + 1)
        let count = (significand < 0 ? 1 : 0) + places + (decimals > 0 ? 1 : 0) + zeros
        return String(unsafeUninitializedCapacity: count) { b in
            var i = count
            for _ in 0..<zeros {
                i -= 1
                b[i] = 0x30
            }
            rest = magnitude
            for k in 0..<places {
                if decimals > 0 && k == decimals {
                    i -= 1
                    b[i] = 0x2E  // .
                }
                i -= 1
                b[i] = UInt8(truncatingIfNeeded: 0x30 + rest % 10)
                rest /= 10
            }
            if significand < 0 {
                i -= 1
                b[i] = 0x2D  // -
            }
            return count
        }
    }

    /// Digits after the decimal point (0 for whole numbers), for Home Assistant's
    /// `suggested_display_precision`.
    public var decimals: Int { max(0, -exponent) }
}
