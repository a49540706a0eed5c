/// Address type in advertising reports that may also say "anonymous" (0xFF) or "random,
/// not resolved" (0xFE) — values `LEAddressType` cannot hold
/// (Vol 4, Part E, §7.7.65.11 and §7.7.65.13).
public struct LEReportAddressType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public init(_ type: LEAddressType) { rawValue = type.rawValue }

    public static let publicDevice = LEReportAddressType(rawValue: 0x00)
    public static let randomDevice = LEReportAddressType(rawValue: 0x01)
    public static let publicIdentity = LEReportAddressType(rawValue: 0x02)
    public static let randomIdentity = LEReportAddressType(rawValue: 0x03)
    /// A resolvable private address the controller could not resolve (direct address only).
    public static let randomUnresolved = LEReportAddressType(rawValue: 0xFE)
    /// No address was sent (anonymous extended advertising).
    public static let anonymous = LEReportAddressType(rawValue: 0xFF)

    /// The ordinary address type, when it is one of the four.
    public var addressType: LEAddressType? { LEAddressType(rawValue: rawValue) }

    public var name: String {
        switch rawValue {
        case 0x00: return "Public"
        case 0x01: return "Random"
        case 0x02: return "Public Identity"
        case 0x03: return "Random Identity"
        case 0xFE: return "Random (unresolved)"
        case 0xFF: return "Anonymous"
        default: return "Reserved"
        }
    }

    public var description: String { EventFormat.named(name, rawValue) }
}
