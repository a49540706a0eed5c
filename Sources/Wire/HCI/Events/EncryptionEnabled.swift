/// Encryption_Enabled of the Encryption Change events (Vol 4, Part E, §7.7.8). On LE, 0x01
/// means AES-CCM; 0x02 exists only on BR/EDR.
public struct EncryptionEnabled: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let off = EncryptionEnabled(rawValue: 0x00)
    /// E0 on BR/EDR, AES-CCM on LE.
    public static let on = EncryptionEnabled(rawValue: 0x01)
    /// AES-CCM on BR/EDR.
    public static let onAESCCMBREDR = EncryptionEnabled(rawValue: 0x02)

    public var isOn: Bool { rawValue != 0 }

    public var name: String {
        switch rawValue {
        case 0x00: return "Off"
        case 0x01: return "On (AES-CCM on LE, E0 on BR/EDR)"
        case 0x02: return "On (AES-CCM on BR/EDR)"
        default: return "Reserved"
        }
    }

    public var description: String { EventFormat.named(name, rawValue) }
}
