import Wire

/// A characteristic value the product decodes and shows: it knows its UUID, decodes from the
/// notification bytes without copying them, encodes (for tests and the simulated peripherals),
/// and lists its fields with units.
public protocol SensorCharacteristic: WireCodable, FieldDescribing, Equatable {
    /// The characteristic's UUID (GATT Specification Supplement, or the vendor's).
    static var uuid: BluetoothUUID { get }
    /// Decodes a whole characteristic value, as carried by a notification or read response.
    init(decoding bytes: ArraySlice<UInt8>) throws(WireError)
}

extension SensorCharacteristic {
    public init(decoding bytes: ArraySlice<UInt8>) throws(WireError) {
        var reader = ByteReader(bytes)
        try self.init(decoding: &reader)
    }

    public init(decoding bytes: [UInt8]) throws(WireError) {
        try self.init(decoding: bytes[...])
    }
}
