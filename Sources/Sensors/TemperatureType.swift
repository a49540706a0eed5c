import Wire

/// Temperature Type, 0x2A1D (HTS v1.0 §3.2; GATT Specification Supplement): where on the body a
/// thermometer measures, also carried inside the Temperature Measurement. 0 and 10–255 are
/// reserved; they decode and are shown as reserved.
public struct TemperatureType: RawRepresentable, SensorCharacteristic, Sendable, Hashable {
    public static let uuid = SensorCharacteristicUUID.temperatureType

    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let armpit = TemperatureType(rawValue: 1)
    public static let body = TemperatureType(rawValue: 2)
    public static let ear = TemperatureType(rawValue: 3)
    public static let finger = TemperatureType(rawValue: 4)
    public static let gastrointestinalTract = TemperatureType(rawValue: 5)
    public static let mouth = TemperatureType(rawValue: 6)
    public static let rectum = TemperatureType(rawValue: 7)
    public static let toe = TemperatureType(rawValue: 8)
    public static let tympanum = TemperatureType(rawValue: 9)

    static let names = ["Armpit", "Body (general)", "Ear (usually earlobe)", "Finger",
                        "Gastrointestinal Tract", "Mouth", "Rectum", "Toe", "Tympanum (ear drum)"]

    /// The assigned name, or nil for a reserved value.
    public var assignedName: String? {
        (1...9).contains(rawValue) ? Self.names[Int(rawValue) - 1] : nil
    }

    public var name: String { assignedName ?? "Reserved (\(Hex.number(rawValue, width: 2)))" }

    public init(decoding reader: inout ByteReader) throws(WireError) {
        rawValue = try reader.u8("Temperature Type")
    }

    public func encode(into writer: inout ByteWriter) {
        writer.u8(rawValue)
    }
}

extension TemperatureType: FieldDescribing {
    public var summary: String { name }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Temperature Type", "\(name) (\(rawValue))")
    }
}
