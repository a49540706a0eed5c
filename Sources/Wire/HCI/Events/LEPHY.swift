/// An LE physical layer as a single value (TX_PHY/RX_PHY, Primary_PHY, Secondary_PHY;
/// Vol 4, Part E, §7.7.65.12 and §7.7.65.13). Not the bit masks of the PHY commands.
public struct LEPHY: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Only as Secondary_PHY of an extended advertising report: nothing was received on the
    /// secondary advertising channel.
    public static let noPackets = LEPHY(rawValue: 0x00)
    public static let le1M = LEPHY(rawValue: 0x01)
    public static let le2M = LEPHY(rawValue: 0x02)
    public static let leCoded = LEPHY(rawValue: 0x03)

    public var name: String {
        switch rawValue {
        case 0x00: return "None"
        case 0x01: return "LE 1M"
        case 0x02: return "LE 2M"
        case 0x03: return "LE Coded"
        default: return "Reserved"
        }
    }

    public var description: String { EventFormat.named(name, rawValue) }
}
