import Wire

/// Pressure, 0x2A6D (Environmental Sensing Service; GATT Specification Supplement, "Pressure"):
/// uint32 in 0.1 Pa. The characteristic has no "not known" value and no prohibited range.
public struct EnvironmentalPressure: SensorCharacteristic, Sendable, Hashable {
    public static let uuid = SensorCharacteristicUUID.pressure

    /// The field as sent, in tenths of a pascal.
    public var raw: UInt32

    public init(raw: UInt32) { self.raw = raw }

    public init(decoding reader: inout ByteReader) throws(WireError) {
        raw = try reader.u32("Pressure")
    }

    public func encode(into writer: inout ByteWriter) {
        writer.u32(raw)
    }

    public var pascals: Double { Double(raw) / 10 }

    /// In hectopascals, exact: raw is 0.1 Pa = 0.001 hPa.
    public var hectopascals: DecimalNumber { DecimalNumber(Int64(raw), exponent: -3) }
}

extension EnvironmentalPressure: FieldDescribing {
    /// E.g. "1013.250 hPa".
    public var summary: String { hectopascals.description + " hPa" }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Pressure", FixedPoint.format(Int(raw), decimals: 1) + " Pa (" + summary + ")")
    }
}
