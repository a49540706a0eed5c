import Wire

/// Humidity, 0x2A6F (Environmental Sensing Service; GATT Specification Supplement, "Humidity"):
/// uint16 relative humidity in 0.01 %, allowed 0.00…100.00; 0xFFFF means "value is not known".
/// All other values are prohibited and rejected.
public struct EnvironmentalHumidity: SensorCharacteristic, Sendable, Hashable {
    public static let uuid = SensorCharacteristicUUID.humidity

    /// The field as sent, in hundredths of a percent (or 0xFFFF: not known).
    public var raw: UInt16

    public static let notKnownRaw: UInt16 = 0xFFFF

    public init(raw: UInt16) { self.raw = raw }

    public static var notKnown: EnvironmentalHumidity { EnvironmentalHumidity(raw: notKnownRaw) }

    public init(decoding reader: inout ByteReader) throws(WireError) {
        raw = try reader.u16("Humidity")
        if raw != Self.notKnownRaw && raw > 10000 {
            throw WireError.invalidValue(field: "Humidity", value: UInt64(raw))
        }
    }

    public func encode(into writer: inout ByteWriter) {
        writer.u16(raw)
    }

    /// Hundredths of a percent; nil when the sensor says the value is not known.
    public var hundredths: Int? { raw == Self.notKnownRaw ? nil : Int(raw) }

    public var percent: Double? { hundredths.map { Double($0) / 100 } }
}

extension EnvironmentalHumidity: FieldDescribing {
    /// E.g. "45.20 %RH", or "not known (%RH)".
    public var summary: String {
        hundredths.map { FixedPoint.format($0, decimals: 2) + " %RH" } ?? "not known (%RH)"
    }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Humidity", summary)
    }
}
