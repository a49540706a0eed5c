import Wire

/// Battery Level, 0x2A19 (Battery Service; GATT Specification Supplement): uint8 percent of
/// full charge, 0–100. Anything above 100 is prohibited and rejected, since showing "255 %" would
/// hide a broken peer.
public struct BatteryLevel: SensorCharacteristic, Sendable, Hashable {
    public static let uuid = SensorCharacteristicUUID.batteryLevel

    public var percent: UInt8

    /// nil above 100 %.
    public init?(percent: UInt8) {
        guard percent <= 100 else { return nil }
        self.percent = percent
    }

    public init(decoding reader: inout ByteReader) throws(WireError) {
        percent = try reader.u8("Battery Level")
        if percent > 100 { throw WireError.invalidValue(field: "Battery Level", value: UInt64(percent)) }
    }

    public func encode(into writer: inout ByteWriter) {
        writer.u8(percent)
    }
}

extension BatteryLevel: FieldDescribing {
    /// E.g. "87 %".
    public var summary: String { "\(percent) %" }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Battery Level", summary)
    }
}
