/// Value of a characteristic declaration, attribute type 0x2803 (Core Spec v5.4 Vol 3, Part G,
/// §3.3.1): Properties (1), Value Handle (2), UUID (2 or 16). Read By Type Response entries
/// for 0x2803 carry it as their value.
public struct CharacteristicDeclaration: WireCodable, Hashable {
    public var properties: CharacteristicProperties
    public var valueHandle: UInt16
    public var uuid: BluetoothUUID

    public init(properties: CharacteristicProperties, valueHandle: UInt16, uuid: BluetoothUUID) {
        self.properties = properties
        self.valueHandle = valueHandle
        self.uuid = uuid
    }

    /// Consumes the rest of `reader`: the UUID's width is what remains, 2 or 16 bytes.
    public init(decoding reader: inout ByteReader) throws(WireError) {
        properties = CharacteristicProperties(rawValue: try reader.u8("Characteristic Properties"))
        valueHandle = try reader.u16("Characteristic Value Handle")
        let uuidBytes = reader.rest()
        guard uuidBytes.count == 2 || uuidBytes.count == 16, let uuid = BluetoothUUID(littleEndian: uuidBytes) else {
            throw WireError.malformed("Characteristic UUID of \(uuidBytes.count) bytes (must be 2 or 16)")
        }
        self.uuid = uuid
    }

    public func encode(into writer: inout ByteWriter) {
        writer.u8(properties.rawValue)
        writer.u16(valueHandle)
        writer.append(uuid.attBytes)
    }
}

extension CharacteristicDeclaration: FieldDescribing {
    public var summary: String {
        "value handle \(L2CAPText.hex16(valueHandle)) uuid \(uuid.string) properties \(properties)"
    }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Properties", properties.description)
        fields.add("Value handle", L2CAPText.hex16(valueHandle))
        fields.add("UUID", uuid.attText)
    }
}
