/// L2CAP channel identifier (Core Spec v5.4 Vol 3, Part A, §2.1). A raw
/// value so that dynamically allocated and future fixed channels pass through unchanged.
public struct L2CAPChannelID: RawRepresentable, Hashable, Sendable, Comparable {
    public let rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    /// Never used as a destination.
    public static let null = L2CAPChannelID(0x0000)
    /// BR/EDR signaling channel (ACL-U only).
    public static let signaling = L2CAPChannelID(0x0001)
    /// BR/EDR connectionless channel (ACL-U only).
    public static let connectionless = L2CAPChannelID(0x0002)
    /// Attribute protocol, fixed on LE-U.
    public static let att = L2CAPChannelID(0x0004)
    /// LE L2CAP signaling channel.
    public static let leSignaling = L2CAPChannelID(0x0005)
    /// Security Manager Protocol on LE-U.
    public static let securityManager = L2CAPChannelID(0x0006)
    /// Security Manager Protocol on ACL-U (cross-transport key derivation).
    public static let brEdrSecurityManager = L2CAPChannelID(0x0007)

    /// The range an LE host allocates credit-based channels from (0x0040–0x007F).
    public static let leDynamicRange: ClosedRange<UInt16> = 0x0040...0x007F

    public var isLEDynamic: Bool { Self.leDynamicRange.contains(rawValue) }

    /// An ACL-U link allocates its connection-oriented channels from 0x0040–0xFFFF.
    public var isBREDRDynamic: Bool { rawValue >= 0x0040 }

    public var name: String {
        switch rawValue {
        case 0x0000: return "Null identifier"
        case 0x0001: return "L2CAP Signaling"
        case 0x0002: return "Connectionless"
        case 0x0004: return "Attribute Protocol"
        case 0x0005: return "LE L2CAP Signaling"
        case 0x0006: return "Security Manager Protocol"
        case 0x0007: return "BR/EDR Security Manager"
        case 0x0020...0x003E: return "Assigned Numbers"
        // Above 0x007F: reserved on LE-U, dynamically allocated on ACL-U.
        default: return "Dynamically allocated"
        }
    }

    public static func < (l: L2CAPChannelID, r: L2CAPChannelID) -> Bool { l.rawValue < r.rawValue }
}

extension L2CAPChannelID: CustomStringConvertible {
    public var description: String { L2CAPText.named(name, rawValue) }
}
