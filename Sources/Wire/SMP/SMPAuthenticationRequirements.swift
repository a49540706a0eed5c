/// AuthReq of a Pairing Request, Pairing Response or Security Request (Core Spec v5.4 Vol 3,
/// Part H, §3.5.1, Figure 3.3): Bonding_Flags in bits 0–1, then MITM, SC, Keypress and CT2.
/// Every bit pattern decodes; bits the specification reserves are kept (`reservedBits`) so a
/// PDU re-encodes as it came.
public struct SMPAuthenticationRequirements: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bonding_Flags 0b01: the keys distributed are to be stored (Table 3.6).
    public static let bonding = SMPAuthenticationRequirements(rawValue: 0x01)
    /// Man-in-the-middle protection requested.
    public static let mitm = SMPAuthenticationRequirements(rawValue: 0x04)
    /// LE Secure Connections pairing supported.
    public static let secureConnections = SMPAuthenticationRequirements(rawValue: 0x08)
    /// Keypress notifications in Passkey Entry.
    public static let keypress = SMPAuthenticationRequirements(rawValue: 0x10)
    /// h7 is supported for cross-transport key derivation.
    public static let ct2 = SMPAuthenticationRequirements(rawValue: 0x20)

    /// Bonding_Flags (bits 0–1): 0b00 No Bonding, 0b01 Bonding, 0b1x reserved.
    public var bondingFlags: UInt8 { rawValue & 0x03 }
    /// Bits 6–7 and the reserved Bonding_Flags value 0b1x.
    public var reservedBits: UInt8 { rawValue & 0xC2 }

    /// The flags by their specification names, e.g. "Bonding, MITM, SC".
    public var names: String {
        var parts: [String] = []
        switch bondingFlags {
        case 0b00: parts.append("No Bonding")
        case 0b01: parts.append("Bonding")
        default: parts.append("Bonding_Flags " + String(bondingFlags, radix: 2) + " (reserved)")
        }
        if contains(.mitm) { parts.append("MITM") }
        if contains(.secureConnections) { parts.append("SC") }
        if contains(.keypress) { parts.append("Keypress") }
        if contains(.ct2) { parts.append("CT2") }
        if rawValue & 0xC0 != 0 { parts.append("RFU " + L2CAPText.hex8(rawValue & 0xC0)) }
        return parts.joined(separator: ", ")
    }
}

extension SMPAuthenticationRequirements: CustomStringConvertible {
    public var description: String { L2CAPText.hex8(rawValue) + " (" + names + ")" }
}
