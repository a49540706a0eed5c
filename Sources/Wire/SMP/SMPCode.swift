/// Code of a Security Manager Protocol command (Core Spec v5.4 Vol 3, Part H, §3.3, Table
/// 3.2): the first byte of every PDU on the Security Manager channel (CID 0x0006). A raw
/// value, so a code newer than this table still decodes (as `SMPPDU.unknown`) and can be
/// shown and refused with Command Not Supported.
public struct SMPCode: RawRepresentable, Hashable, Sendable, Comparable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    public static let pairingRequest = SMPCode(0x01)
    public static let pairingResponse = SMPCode(0x02)
    public static let pairingConfirm = SMPCode(0x03)
    public static let pairingRandom = SMPCode(0x04)
    public static let pairingFailed = SMPCode(0x05)
    public static let encryptionInformation = SMPCode(0x06)
    public static let centralIdentification = SMPCode(0x07)
    public static let identityInformation = SMPCode(0x08)
    public static let identityAddressInformation = SMPCode(0x09)
    public static let signingInformation = SMPCode(0x0A)
    public static let securityRequest = SMPCode(0x0B)
    public static let pairingPublicKey = SMPCode(0x0C)
    public static let pairingDHKeyCheck = SMPCode(0x0D)
    public static let pairingKeypressNotification = SMPCode(0x0E)

    /// Name as in Table 3.2, e.g. "Pairing Public Key".
    public var name: String {
        switch rawValue {
        case 0x01: return "Pairing Request"
        case 0x02: return "Pairing Response"
        case 0x03: return "Pairing Confirm"
        case 0x04: return "Pairing Random"
        case 0x05: return "Pairing Failed"
        case 0x06: return "Encryption Information"
        case 0x07: return "Central Identification"
        case 0x08: return "Identity Information"
        case 0x09: return "Identity Address Information"
        case 0x0A: return "Signing Information"
        case 0x0B: return "Security Request"
        case 0x0C: return "Pairing Public Key"
        case 0x0D: return "Pairing DHKey Check"
        case 0x0E: return "Pairing Keypress Notification"
        default: return "Unknown"
        }
    }

    /// The PDU identifier of §3.5–3.6, e.g. `SMP_Pairing_Public_Key`.
    public var specIdentifier: String? {
        switch rawValue {
        case 0x01: return "SMP_Pairing_Request"
        case 0x02: return "SMP_Pairing_Response"
        case 0x03: return "SMP_Pairing_Confirm"
        case 0x04: return "SMP_Pairing_Random"
        case 0x05: return "SMP_Pairing_Failed"
        case 0x06: return "SMP_Encryption_Information"
        case 0x07: return "SMP_Central_Identification"
        case 0x08: return "SMP_Identity_Information"
        case 0x09: return "SMP_Identity_Address_Information"
        case 0x0A: return "SMP_Signing_Information"
        case 0x0B: return "SMP_Security_Request"
        case 0x0C: return "SMP_Pairing_Public_Key"
        case 0x0D: return "SMP_Pairing_DHKey_Check"
        case 0x0E: return "SMP_Keypress_Notification"
        default: return nil
        }
    }

    /// Parameter bytes after the code (fixed for every command of Table 3.2); nil for a code
    /// the table does not have.
    public var parameterLength: Int? {
        switch rawValue {
        case 0x01, 0x02: return 6
        case 0x03, 0x04, 0x06, 0x08, 0x0A, 0x0D: return 16
        case 0x05, 0x0B, 0x0E: return 1
        case 0x07: return 10
        case 0x09: return 7
        case 0x0C: return 64
        default: return nil
        }
    }

    public static func < (l: SMPCode, r: SMPCode) -> Bool { l.rawValue < r.rawValue }
}

extension SMPCode: CustomStringConvertible {
    public var description: String { L2CAPText.named(name, rawValue) }
}
