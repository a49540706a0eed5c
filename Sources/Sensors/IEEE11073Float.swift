import Wire

/// FLOAT of IEEE 11073-20601 (§F.8), the 32-bit number of the health device profiles (Health
/// Thermometer, Pulse Oximeter…): an 8-bit signed exponent (base 10) in the high byte and a
/// 24-bit signed mantissa below it, little-endian on the wire. Value = mantissa × 10^exponent,
/// so the mantissa's digits say the resolution (`0xFF000014` is 2.0, not 2).
///
/// Mantissas outside ±(2²³−3) are special values: 0x7FFFFF NaN, 0x800000 NRes (not at this
/// resolution), 0x7FFFFE +INFINITY, 0x800002 −INFINITY, 0x800001 reserved. The standard writes
/// them with exponent 0; since no finite number has those mantissas, they are recognised
/// whatever the exponent (as Android and most stacks do), so a sloppy sensor's NaN never
/// becomes 8388607 × 10^e.
public struct IEEE11073Float: IEEE11073Number, Sendable, Hashable, WireCodable {
    public var raw: UInt32

    public init(raw: UInt32) { self.raw = raw }

    /// From a mantissa (−8388605…8388605) and exponent (−128…127); nil outside those ranges.
    public init?(mantissa: Int32, exponent: Int8) {
        guard (-Self.largestMantissa...Self.largestMantissa).contains(mantissa) else { return nil }
        raw = UInt32(UInt8(bitPattern: exponent)) << 24 | UInt32(bitPattern: mantissa) & 0x00FF_FFFF
    }

    public static let largestMantissa: Int32 = 0x7F_FFFD

    public static let nan = IEEE11073Float(raw: 0x007F_FFFF)
    public static let notAtThisResolution = IEEE11073Float(raw: 0x0080_0000)
    public static let positiveInfinity = IEEE11073Float(raw: 0x007F_FFFE)
    public static let negativeInfinity = IEEE11073Float(raw: 0x0080_0002)

    /// The 24-bit mantissa, sign-extended.
    public var mantissa: Int32 { Int32(bitPattern: raw << 8) >> 8 }
    public var exponent: Int8 { Int8(bitPattern: UInt8(truncatingIfNeeded: raw >> 24)) }

    public var special: IEEE11073Special? {
        switch raw & 0x00FF_FFFF {
        case 0x7F_FFFF: return .nan
        case 0x80_0000: return .notAtThisResolution
        case 0x7F_FFFE: return .positiveInfinity
        case 0x80_0002: return .negativeInfinity
        case 0x80_0001: return .reserved
        default: return nil
        }
    }

    public var parts: (mantissa: Int64, exponent: Int) { (Int64(mantissa), Int(exponent)) }

    public init(decoding reader: inout ByteReader) throws(WireError) {
        raw = try reader.u32("FLOAT")
    }

    public func encode(into writer: inout ByteWriter) {
        writer.u32(raw)
    }
}

/// A special value of IEEE 11073-20601 FLOAT and SFLOAT.
public enum IEEE11073Special: String, Sendable, Hashable {
    case nan = "NaN"
    case notAtThisResolution = "NRes"
    case positiveInfinity = "+INFINITY"
    case negativeInfinity = "-INFINITY"
    case reserved = "reserved"
}

/// What FLOAT and SFLOAT share: a decimal mantissa and exponent, or a special value.
public protocol IEEE11073Number: CustomStringConvertible {
    var special: IEEE11073Special? { get }
    var parts: (mantissa: Int64, exponent: Int) { get }
}

extension IEEE11073Number {
    /// The exact value; nil for a special value.
    public var number: DecimalNumber? {
        special == nil ? DecimalNumber(parts.mantissa, exponent: parts.exponent) : nil
    }

    /// As a `Double`: NaN for NaN, NRes and reserved, ±infinity for the infinities.
    public var double: Double {
        switch special {
        case .none: return number?.double ?? .nan
        case .positiveInfinity: return .infinity
        case .negativeInfinity: return -.infinity
        case .nan, .notAtThisResolution, .reserved: return .nan
        }
    }

    /// For the quantity model: the number, or unavailable with the special value's name.
    public var quantityValue: QuantityValue {
        if let n = number { return .number(n) }
        return .unavailable(special?.rawValue ?? "NaN")
    }

    /// "36.6", "NaN", "+INFINITY".
    public var description: String { number?.description ?? special?.rawValue ?? "NaN" }
}
