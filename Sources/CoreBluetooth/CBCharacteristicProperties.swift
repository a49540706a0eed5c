/// A characteristic's properties: the Characteristic Properties octet of its declaration (Core
/// Spec v5.4 Vol 3, Part G, §3.3.1.1) in the low byte, as Apple's values are.
public struct CBCharacteristicProperties: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let broadcast = CBCharacteristicProperties(rawValue: 0x01)
    public static let read = CBCharacteristicProperties(rawValue: 0x02)
    public static let writeWithoutResponse = CBCharacteristicProperties(rawValue: 0x04)
    public static let write = CBCharacteristicProperties(rawValue: 0x08)
    public static let notify = CBCharacteristicProperties(rawValue: 0x10)
    public static let indicate = CBCharacteristicProperties(rawValue: 0x20)
    public static let authenticatedSignedWrites = CBCharacteristicProperties(rawValue: 0x40)
    public static let extendedProperties = CBCharacteristicProperties(rawValue: 0x80)
    /// Apple's own bits for a peripheral it serves itself; never set on a discovered one.
    public static let notifyEncryptionRequired = CBCharacteristicProperties(rawValue: 0x100)
    public static let indicateEncryptionRequired = CBCharacteristicProperties(rawValue: 0x200)
}
