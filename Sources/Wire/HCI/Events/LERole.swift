/// Role of the local device on an LE connection (Vol 4, Part E, §7.7.65.1). A raw value, so
/// that a reserved code still decodes and shows instead of losing the whole event.
public struct LERole: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let central = LERole(rawValue: 0x00)
    public static let peripheral = LERole(rawValue: 0x01)

    public var name: String {
        switch rawValue {
        case 0x00: return "Central"
        case 0x01: return "Peripheral"
        default: return "Reserved"
        }
    }

    public var description: String { EventFormat.named(name, rawValue) }
}
