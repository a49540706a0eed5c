import Wire

/// Sensor Location, 0x2A5D (RSCS v1.0 §3.3; GATT Specification Supplement): where a running or
/// cycling sensor is mounted. Values 17–255 are reserved; they decode and are shown as reserved.
public struct SensorLocation: RawRepresentable, SensorCharacteristic, Sendable, Hashable {
    public static let uuid = SensorCharacteristicUUID.sensorLocation

    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let other = SensorLocation(rawValue: 0)
    public static let topOfShoe = SensorLocation(rawValue: 1)
    public static let inShoe = SensorLocation(rawValue: 2)
    public static let hip = SensorLocation(rawValue: 3)
    public static let frontWheel = SensorLocation(rawValue: 4)
    public static let leftCrank = SensorLocation(rawValue: 5)
    public static let rightCrank = SensorLocation(rawValue: 6)
    public static let leftPedal = SensorLocation(rawValue: 7)
    public static let rightPedal = SensorLocation(rawValue: 8)
    public static let frontHub = SensorLocation(rawValue: 9)
    public static let rearDropout = SensorLocation(rawValue: 10)
    public static let chainstay = SensorLocation(rawValue: 11)
    public static let rearWheel = SensorLocation(rawValue: 12)
    public static let rearHub = SensorLocation(rawValue: 13)
    public static let chest = SensorLocation(rawValue: 14)
    public static let spider = SensorLocation(rawValue: 15)
    public static let chainRing = SensorLocation(rawValue: 16)

    static let names = [
        "Other", "Top of shoe", "In shoe", "Hip", "Front Wheel", "Left Crank", "Right Crank",
        "Left Pedal", "Right Pedal", "Front Hub", "Rear Dropout", "Chainstay", "Rear Wheel",
        "Rear Hub", "Chest", "Spider", "Chain Ring",
    ]

    /// The assigned name, or nil for a reserved value.
    public var assignedName: String? {
        Int(rawValue) < Self.names.count ? Self.names[Int(rawValue)] : nil
    }

    public var name: String { assignedName ?? "Reserved (\(Hex.number(rawValue, width: 2)))" }

    public init(decoding reader: inout ByteReader) throws(WireError) {
        rawValue = try reader.u8("Sensor Location")
    }

    public func encode(into writer: inout ByteWriter) {
        writer.u8(rawValue)
    }
}

extension SensorLocation: FieldDescribing {
    public var summary: String { name }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Sensor Location", "\(name) (\(rawValue))")
    }
}
