/// Value of the Client Characteristic Configuration descriptor, 0x2902 (Core Spec v5.4 Vol 3,
/// Part G, §3.3.3.3): what the client writes to subscribe.
public struct ClientCharacteristicConfiguration: OptionSet, WireCodable, Hashable {
    public let rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let notification = ClientCharacteristicConfiguration(rawValue: 0x0001)
    public static let indication = ClientCharacteristicConfiguration(rawValue: 0x0002)

    public init(decoding reader: inout ByteReader) throws(WireError) {
        rawValue = try reader.u16("Client Characteristic Configuration")
    }

    public func encode(into writer: inout ByteWriter) {
        writer.u16(rawValue)
    }

    public var names: [String] {
        var out: [String] = []
        if contains(.notification) { out.append("Notification") }
        if contains(.indication) { out.append("Indication") }
        return out
    }
}

extension ClientCharacteristicConfiguration: CustomStringConvertible {
    public var description: String {
        L2CAPText.hex16(rawValue) + (names.isEmpty ? "" : " (" + names.joined(separator: ", ") + ")")
    }
}
