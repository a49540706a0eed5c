import Wire

/// Temperature, 0x2A6E (Environmental Sensing Service; GATT Specification Supplement,
/// "Temperature"): sint16 in 0.01 °C, allowed −273.15…327.67; 0x8000 means "value is not known".
/// Other values below absolute zero are prohibited and rejected.
public struct EnvironmentalTemperature: SensorCharacteristic, Sendable, Hashable {
    public static let uuid = SensorCharacteristicUUID.temperature

    /// The field as sent, in hundredths of a degree Celsius (or `Int16.min`: not known).
    public var raw: Int16

    public static let notKnownRaw = Int16.min   // 0x8000

    /// From hundredths of a degree (`notKnownRaw` for "value is not known").
    public init(raw: Int16) { self.raw = raw }

    public static var notKnown: EnvironmentalTemperature { EnvironmentalTemperature(raw: notKnownRaw) }

    public init(decoding reader: inout ByteReader) throws(WireError) {
        raw = try reader.i16("Temperature")
        if raw != Self.notKnownRaw && raw < -27315 {
            throw WireError.invalidValue(field: "Temperature", value: UInt64(UInt16(bitPattern: raw)))
        }
    }

    public func encode(into writer: inout ByteWriter) {
        writer.i16(raw)
    }

    /// Hundredths of a degree Celsius; nil when the sensor says the value is not known.
    public var hundredths: Int? { raw == Self.notKnownRaw ? nil : Int(raw) }

    public var celsius: Double? { hundredths.map { Double($0) / 100 } }
}

extension EnvironmentalTemperature: FieldDescribing {
    /// E.g. "21.37 °C", or "not known (°C)".
    public var summary: String {
        hundredths.map { FixedPoint.format($0, decimals: 2) + " °C" } ?? "not known (°C)"
    }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Temperature", summary)
    }
}
