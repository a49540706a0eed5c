/// Notification Type of a Pairing Keypress Notification (Core Spec v5.4 Vol 3, Part H,
/// §3.5.8, Table 3.8): what the user of a keyboard-only device did while entering a passkey.
public struct SMPKeypressNotificationType: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    public static let passkeyEntryStarted = SMPKeypressNotificationType(0x00)
    public static let passkeyDigitEntered = SMPKeypressNotificationType(0x01)
    public static let passkeyDigitErased = SMPKeypressNotificationType(0x02)
    public static let passkeyCleared = SMPKeypressNotificationType(0x03)
    public static let passkeyEntryCompleted = SMPKeypressNotificationType(0x04)

    public var name: String {
        switch rawValue {
        case 0x00: return "Passkey Entry Started"
        case 0x01: return "Passkey Digit Entered"
        case 0x02: return "Passkey Digit Erased"
        case 0x03: return "Passkey Cleared"
        case 0x04: return "Passkey Entry Completed"
        default: return "Reserved"
        }
    }
}

extension SMPKeypressNotificationType: CustomStringConvertible {
    public var description: String { L2CAPText.named(name, rawValue) }
}
