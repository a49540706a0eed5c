import Wire

/// Body Sensor Location, 0x2A38 (HRS v1.0 §3.2; GATT Specification Supplement): where a heart
/// rate sensor is worn. Values 7–255 are reserved; they decode (a newer sensor may send them)
/// and are shown as reserved rather than rejected.
public struct BodySensorLocation: RawRepresentable, SensorCharacteristic, Sendable, Hashable {
    public static let uuid = SensorCharacteristicUUID.bodySensorLocation

    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let other = BodySensorLocation(rawValue: 0)
    public static let chest = BodySensorLocation(rawValue: 1)
    public static let wrist = BodySensorLocation(rawValue: 2)
    public static let finger = BodySensorLocation(rawValue: 3)
    public static let hand = BodySensorLocation(rawValue: 4)
    public static let earLobe = BodySensorLocation(rawValue: 5)
    public static let foot = BodySensorLocation(rawValue: 6)

    static let names = ["Other", "Chest", "Wrist", "Finger", "Hand", "Ear Lobe", "Foot"]

    /// The assigned name, or nil for a reserved value.
    public var assignedName: String? {
        Int(rawValue) < Self.names.count ? Self.names[Int(rawValue)] : nil
    }

    public var name: String { assignedName ?? "Reserved (\(Hex.number(rawValue, width: 2)))" }

    public init(decoding reader: inout ByteReader) throws(WireError) {
        rawValue = try reader.u8("Body Sensor Location")
    }

    public func encode(into writer: inout ByteWriter) {
        writer.u8(rawValue)
    }
}

extension BodySensorLocation: FieldDescribing {
    public var summary: String { name }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Body Sensor Location", "\(name) (\(rawValue))")
    }
}
