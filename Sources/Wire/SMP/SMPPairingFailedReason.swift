/// Reason of a Pairing Failed PDU (Core Spec v5.4 Vol 3, Part H, §3.5.5, Table 3.7). A raw
/// value: a reason newer than this table still decodes and is shown with its number.
public struct SMPPairingFailedReason: RawRepresentable, Hashable, Sendable, Error {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    public static let passkeyEntryFailed = SMPPairingFailedReason(0x01)
    public static let oobNotAvailable = SMPPairingFailedReason(0x02)
    public static let authenticationRequirements = SMPPairingFailedReason(0x03)
    public static let confirmValueFailed = SMPPairingFailedReason(0x04)
    public static let pairingNotSupported = SMPPairingFailedReason(0x05)
    public static let encryptionKeySize = SMPPairingFailedReason(0x06)
    public static let commandNotSupported = SMPPairingFailedReason(0x07)
    public static let unspecifiedReason = SMPPairingFailedReason(0x08)
    public static let repeatedAttempts = SMPPairingFailedReason(0x09)
    public static let invalidParameters = SMPPairingFailedReason(0x0A)
    public static let dhKeyCheckFailed = SMPPairingFailedReason(0x0B)
    public static let numericComparisonFailed = SMPPairingFailedReason(0x0C)
    public static let bredrPairingInProgress = SMPPairingFailedReason(0x0D)
    public static let crossTransportKeyDerivationNotAllowed = SMPPairingFailedReason(0x0E)
    public static let keyRejected = SMPPairingFailedReason(0x0F)

    /// Name as in Table 3.7, e.g. "DHKey Check Failed".
    public var name: String {
        switch rawValue {
        case 0x01: return "Passkey Entry Failed"
        case 0x02: return "OOB Not Available"
        case 0x03: return "Authentication Requirements"
        case 0x04: return "Confirm Value Failed"
        case 0x05: return "Pairing Not Supported"
        case 0x06: return "Encryption Key Size"
        case 0x07: return "Command Not Supported"
        case 0x08: return "Unspecified Reason"
        case 0x09: return "Repeated Attempts"
        case 0x0A: return "Invalid Parameters"
        case 0x0B: return "DHKey Check Failed"
        case 0x0C: return "Numeric Comparison Failed"
        case 0x0D: return "BR/EDR Pairing In Progress"
        case 0x0E: return "Cross-transport Key Derivation/Generation Not Allowed"
        case 0x0F: return "Key Rejected"
        default: return "Reserved"
        }
    }

    /// What the reason means for whoever has to act on it (Table 3.7, shortened).
    public var meaning: String {
        switch rawValue {
        case 0x01: return "the passkey was not entered or the user cancelled"
        case 0x02: return "out-of-band data is not available"
        case 0x03: return "the IO capabilities of the devices cannot meet the authentication requirements"
        case 0x04: return "the confirm value does not match the value calculated (wrong passkey, or an attacker)"
        case 0x05: return "the device does not support pairing"
        case 0x06: return "the resulting encryption key size is too short"
        case 0x07: return "the device does not support the SMP command received"
        case 0x08: return "pairing failed for an unspecified reason"
        case 0x09: return "too little time has passed since the last pairing attempt; wait and retry"
        case 0x0A: return "a command had an invalid length or a parameter out of range"
        case 0x0B: return "the DHKey Check value does not match the value calculated"
        case 0x0C: return "the numeric comparison values did not match (the user rejected them)"
        case 0x0D: return "pairing over BR/EDR is in progress"
        case 0x0E: return "keys from the other transport may not be derived"
        case 0x0F: return "the device rejected the distributed keys (a key or its size is not allowed)"
        default: return "a reason the specification reserves"
        }
    }
}

extension SMPPairingFailedReason: CustomStringConvertible {
    public var description: String { L2CAPText.named(name, rawValue) }
}
