import Wire

/// CSC Feature, 0x2A5C (CSCS v1.0 §3.2; GATT Specification Supplement): which revolution data
/// the sensor sends. A uint16 bit field; bits 3–15 are reserved and kept as received.
public struct CSCFeature: OptionSet, SensorCharacteristic, Sendable, Hashable {
    public static let uuid = SensorCharacteristicUUID.cscFeature

    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let wheelRevolutionData = CSCFeature(rawValue: 1 << 0)
    public static let crankRevolutionData = CSCFeature(rawValue: 1 << 1)
    public static let multipleSensorLocations = CSCFeature(rawValue: 1 << 2)

    static let names: [(CSCFeature, String)] = [
        (.wheelRevolutionData, "Wheel Revolution Data"),
        (.crankRevolutionData, "Crank Revolution Data"),
        (.multipleSensorLocations, "Multiple Sensor Locations"),
    ]

    public init(decoding reader: inout ByteReader) throws(WireError) {
        rawValue = try reader.u16("CSC Feature")
    }

    public func encode(into writer: inout ByteWriter) {
        writer.u16(rawValue)
    }

    public var reservedBits: UInt16 { rawValue & ~0x0007 }
}

extension CSCFeature: FieldDescribing {
    public var summary: String {
        let names = Self.names.filter { contains($0.0) }.map(\.1)
        return names.isEmpty ? "no revolution data" : names.joined(separator: ", ")
    }

    public func describeFields(into fields: inout FieldList) {
        fields.add("CSC Feature", Hex.number(rawValue, width: 4))
        for (feature, name) in Self.names {
            fields.add(name, contains(feature) ? "supported" : "not supported")
        }
        if reservedBits != 0 { fields.add("Reserved bits", Hex.number(reservedBits, width: 4)) }
    }
}
