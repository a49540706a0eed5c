/// Broadcast_Flag of an HCI ACL Data packet (Core Spec v5.4 Vol 4, Part E, §5.4.2). LE links
/// only use point-to-point; the other values are kept so a capture round-trips unchanged.
public struct ACLBroadcastFlag: RawRepresentable, Hashable, Sendable {
    /// Two bits; higher bits are dropped.
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue & 0b11 }

    public static let pointToPoint = ACLBroadcastFlag(rawValue: 0b00)
    public static let brEdrBroadcast = ACLBroadcastFlag(rawValue: 0b01)

    public var name: String {
        switch rawValue {
        case 0b00: return "point-to-point"
        case 0b01: return "BR/EDR broadcast"
        default: return "reserved"
        }
    }
}
