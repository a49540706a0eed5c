/// Which address the controller uses for itself when scanning, initiating or advertising
/// (Core Spec v5.4 Vol 4, Part E, §7.8.12 Own_Address_Type). Kept raw so that reserved values
/// from a capture still decode and show.
public struct LEOwnAddressType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let publicDevice = LEOwnAddressType(rawValue: 0x00)
    public static let randomDevice = LEOwnAddressType(rawValue: 0x01)
    /// A resolvable private address from the resolving list, else the public address.
    public static let resolvableOrPublic = LEOwnAddressType(rawValue: 0x02)
    /// A resolvable private address from the resolving list, else the random address.
    public static let resolvableOrRandom = LEOwnAddressType(rawValue: 0x03)

    public var name: String {
        switch rawValue {
        case 0x00: return "Public"
        case 0x01: return "Random"
        case 0x02: return "Resolvable or public"
        case 0x03: return "Resolvable or random"
        default: return "Reserved"
        }
    }

    public var description: String { HCICommandFormat.named(name, rawValue) }
}
