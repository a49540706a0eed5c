import Wire

/// SFLOAT of IEEE 11073-20601 (§F.8), the 16-bit number of the health device profiles (Blood
/// Pressure, Weight Scale, Glucose…): a 4-bit signed exponent in the high nibble and a 12-bit
/// signed mantissa, little-endian on the wire. Special mantissas as for `IEEE11073Float`:
/// 0x7FF NaN, 0x800 NRes, 0x7FE +INFINITY, 0x802 −INFINITY, 0x801 reserved.
public struct IEEE11073SFloat: IEEE11073Number, Sendable, Hashable, WireCodable {
    public var raw: UInt16

    public init(raw: UInt16) { self.raw = raw }

    /// From a mantissa (−2045…2045) and exponent (−8…7); nil outside those ranges.
    public init?(mantissa: Int16, exponent: Int8) {
        guard (-2045...2045).contains(mantissa), (-8...7).contains(exponent) else { return nil }
        raw = UInt16(UInt8(bitPattern: exponent) & 0x0F) << 12 | UInt16(bitPattern: mantissa) & 0x0FFF
    }

    public var mantissa: Int16 { Int16(bitPattern: raw << 4) >> 4 }
    public var exponent: Int8 { Int8(bitPattern: UInt8(truncatingIfNeeded: raw >> 8)) >> 4 }

    public var special: IEEE11073Special? {
        switch raw & 0x0FFF {
        case 0x7FF: return .nan
        case 0x800: return .notAtThisResolution
        case 0x7FE: return .positiveInfinity
        case 0x802: return .negativeInfinity
        case 0x801: return .reserved
        default: return nil
        }
    }

    public var parts: (mantissa: Int64, exponent: Int) { (Int64(mantissa), Int(exponent)) }

    public init(decoding reader: inout ByteReader) throws(WireError) {
        raw = try reader.u16("SFLOAT")
    }

    public func encode(into writer: inout ByteWriter) {
        writer.u16(raw)
    }
}
