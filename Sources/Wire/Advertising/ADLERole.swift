/// LE Role AD type (named apart from the connection `LERole` of HCI events): which GAP roles the device supports and which it prefers for connection
/// establishment (Core Specification Supplement Part A §1.17).
public struct ADLERole: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let peripheralOnly = ADLERole(rawValue: 0x00)
    public static let centralOnly = ADLERole(rawValue: 0x01)
    public static let bothPeripheralPreferred = ADLERole(rawValue: 0x02)
    public static let bothCentralPreferred = ADLERole(rawValue: 0x03)

    public var name: String {
        switch rawValue {
        case 0x00: return "Only Peripheral Role supported"
        case 0x01: return "Only Central Role supported"
        case 0x02: return "Peripheral and Central Role supported, Peripheral Role preferred for connection establishment"
        case 0x03: return "Peripheral and Central Role supported, Central Role preferred for connection establishment"
        default: return "Reserved (\(Hex.number(rawValue, width: 2)))"
        }
    }

    public var description: String { name }
}
