/// Value of an include declaration, attribute type 0x2802 (Core Spec v5.4 Vol 3, Part G,
/// §3.2): Included Service Attribute Handle, End Group Handle, and the service UUID only when
/// it is a 16-bit one (a 128-bit UUID must be read from the included service itself).
public struct IncludeDeclaration: WireCodable, Hashable {
    public var includedServiceAttributeHandle: UInt16
    public var endGroupHandle: UInt16
    public var serviceUUID: BluetoothUUID?

    public init(includedServiceAttributeHandle: UInt16, endGroupHandle: UInt16, serviceUUID: BluetoothUUID?) {
        self.includedServiceAttributeHandle = includedServiceAttributeHandle
        self.endGroupHandle = endGroupHandle
        self.serviceUUID = serviceUUID
    }

    /// Consumes the rest of `reader`: nothing (128-bit service) or a 2-byte UUID.
    public init(decoding reader: inout ByteReader) throws(WireError) {
        includedServiceAttributeHandle = try reader.u16("Included Service Attribute Handle")
        endGroupHandle = try reader.u16("End Group Handle")
        let rest = reader.rest()
        switch rest.count {
        case 0: serviceUUID = nil
        case 2: serviceUUID = BluetoothUUID(littleEndian: rest)
        default: throw WireError.malformed("Include declaration: service UUID of \(rest.count) bytes (must be 0 or 2)")
        }
    }

    /// A service UUID without a 16-bit alias is left out, as the declaration requires.
    public func encode(into writer: inout ByteWriter) {
        writer.u16(includedServiceAttributeHandle)
        writer.u16(endGroupHandle)
        if let short = serviceUUID?.uuid16 { writer.u16(short) }
    }
}
