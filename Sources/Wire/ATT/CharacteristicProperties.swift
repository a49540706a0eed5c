/// Characteristic Properties bit field of a characteristic declaration (Core Spec v5.4 Vol 3,
/// Part G, §3.3.1.1): which procedures the characteristic value allows.
public struct CharacteristicProperties: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let broadcast = CharacteristicProperties(rawValue: 0x01)
    public static let read = CharacteristicProperties(rawValue: 0x02)
    public static let writeWithoutResponse = CharacteristicProperties(rawValue: 0x04)
    public static let write = CharacteristicProperties(rawValue: 0x08)
    public static let notify = CharacteristicProperties(rawValue: 0x10)
    public static let indicate = CharacteristicProperties(rawValue: 0x20)
    public static let authenticatedSignedWrites = CharacteristicProperties(rawValue: 0x40)
    public static let extendedProperties = CharacteristicProperties(rawValue: 0x80)

    private static let table: [(CharacteristicProperties, String)] = [
        (.broadcast, "Broadcast"),
        (.read, "Read"),
        (.writeWithoutResponse, "Write Without Response"),
        (.write, "Write"),
        (.notify, "Notify"),
        (.indicate, "Indicate"),
        (.authenticatedSignedWrites, "Authenticated Signed Writes"),
        (.extendedProperties, "Extended Properties"),
    ]

    /// Names of the set bits, lowest bit first.
    public var names: [String] {
        Self.table.compactMap { contains($0.0) ? $0.1 : nil }
    }
}

extension CharacteristicProperties: CustomStringConvertible {
    public var description: String {
        L2CAPText.hex8(rawValue) + (isEmpty ? "" : " (" + names.joined(separator: ", ") + ")")
    }
}
