import Wire

/// RSC Feature, 0x2A54 (RSCS v1.0 §3.2; GATT Specification Supplement): which optional
/// measurements and procedures the sensor supports. A uint16 bit field; bits 5–15 are reserved
/// and kept as received.
public struct RSCFeature: OptionSet, SensorCharacteristic, Sendable, Hashable {
    public static let uuid = SensorCharacteristicUUID.rscFeature

    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let instantaneousStrideLengthMeasurement = RSCFeature(rawValue: 1 << 0)
    public static let totalDistanceMeasurement = RSCFeature(rawValue: 1 << 1)
    public static let walkingOrRunningStatus = RSCFeature(rawValue: 1 << 2)
    public static let calibrationProcedure = RSCFeature(rawValue: 1 << 3)
    public static let multipleSensorLocations = RSCFeature(rawValue: 1 << 4)

    static let names: [(RSCFeature, String)] = [
        (.instantaneousStrideLengthMeasurement, "Instantaneous Stride Length Measurement"),
        (.totalDistanceMeasurement, "Total Distance Measurement"),
        (.walkingOrRunningStatus, "Walking or Running Status"),
        (.calibrationProcedure, "Calibration Procedure"),
        (.multipleSensorLocations, "Multiple Sensor Locations"),
    ]

    public init(decoding reader: inout ByteReader) throws(WireError) {
        rawValue = try reader.u16("RSC Feature")
    }

    public func encode(into writer: inout ByteWriter) {
        writer.u16(rawValue)
    }

    /// Names of the supported features, in bit order.
    public var featureNames: [String] {
        Self.names.filter { contains($0.0) }.map(\.1)
    }

    /// Reserved bits that are set (shown so that nothing sent is hidden).
    public var reservedBits: UInt16 { rawValue & ~0x001F }
}

extension RSCFeature: FieldDescribing {
    public var summary: String {
        let names = featureNames
        return names.isEmpty ? "no optional features" : names.joined(separator: ", ")
    }

    public func describeFields(into fields: inout FieldList) {
        fields.add("RSC Feature", Hex.number(rawValue, width: 4))
        for (feature, name) in Self.names {
            fields.add(name, contains(feature) ? "supported" : "not supported")
        }
        if reservedBits != 0 { fields.add("Reserved bits", Hex.number(reservedBits, width: 4)) }
    }
}
