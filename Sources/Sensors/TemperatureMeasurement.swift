import Wire

/// Temperature Measurement, 0x2A1C (Health Thermometer Service v1.0 §3.1; GATT Specification
/// Supplement), indicated by a thermometer.
///
/// Layout: Flags (uint8), Temperature Measurement Value (IEEE 11073 FLOAT, in °C or °F by flag
/// bit 0), Time Stamp (Date Time, 7 octets, if bit 1), Temperature Type (uint8, if bit 2). Bits
/// 3–7 are reserved and kept as received. Intermediate Temperature (0x2A1E) has the same layout.
public struct TemperatureMeasurement: SensorCharacteristic, Sendable, Hashable {
    public static let uuid = SensorCharacteristicUUID.temperatureMeasurement

    public struct Flags: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// Bit 0: the value is in degrees Fahrenheit (else Celsius).
        public static let fahrenheit = Flags(rawValue: 1 << 0)
        /// Bit 1: the Time Stamp field is present.
        public static let timeStampPresent = Flags(rawValue: 1 << 1)
        /// Bit 2: the Temperature Type field is present.
        public static let temperatureTypePresent = Flags(rawValue: 1 << 2)
    }

    public var flags: Flags
    public var temperature: IEEE11073Float
    public var timeStamp: DateTime?
    public var temperatureType: TemperatureType?

    public init(temperature: IEEE11073Float, fahrenheit: Bool = false, timeStamp: DateTime? = nil,
                temperatureType: TemperatureType? = nil) {
        var f: Flags = fahrenheit ? [.fahrenheit] : []
        if timeStamp != nil { f.insert(.timeStampPresent) }
        if temperatureType != nil { f.insert(.temperatureTypePresent) }
        flags = f
        self.temperature = temperature
        self.timeStamp = timeStamp
        self.temperatureType = temperatureType
    }

    public init(decoding reader: inout ByteReader) throws(WireError) {
        flags = Flags(rawValue: try reader.u8("Flags"))
        temperature = try IEEE11073Float(decoding: &reader)
        timeStamp = flags.contains(.timeStampPresent) ? try DateTime(decoding: &reader) : nil
        temperatureType = flags.contains(.temperatureTypePresent) ? try TemperatureType(decoding: &reader) : nil
    }

    public func encode(into writer: inout ByteWriter) {
        var f = flags
        if timeStamp != nil { f.insert(.timeStampPresent) } else { f.remove(.timeStampPresent) }
        if temperatureType != nil { f.insert(.temperatureTypePresent) } else { f.remove(.temperatureTypePresent) }
        writer.u8(f.rawValue)
        temperature.encode(into: &writer)
        timeStamp?.encode(into: &writer)
        temperatureType?.encode(into: &writer)
    }

    public var isFahrenheit: Bool { flags.contains(.fahrenheit) }

    /// The unit the value is in, as sent (no conversion: a °F thermometer is published in °F,
    /// and Home Assistant converts for display if the user wants).
    public var unit: QuantityUnit { isFahrenheit ? .fahrenheit : .celsius }
}

extension TemperatureMeasurement: FieldDescribing {
    /// E.g. "36.6 °C (Mouth)", "NaN °F".
    public var summary: String {
        var s = temperature.description + " " + unit.rawValue
        if let t = temperatureType { s += " (" + t.name + ")" }
        return s
    }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Flags", Hex.number(flags.rawValue, width: 2))
        fields.add("Temperature", temperature.description + " " + unit.rawValue
                   + " (FLOAT " + Hex.number(temperature.raw, width: 8) + ")")
        if let ts = timeStamp { fields.add("Time Stamp", ts.iso8601) }
        if let t = temperatureType { fields.add("Temperature Type", "\(t.name) (\(t.rawValue))") }
    }
}
