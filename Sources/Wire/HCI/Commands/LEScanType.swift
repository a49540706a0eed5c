/// LE_Scan_Type / Scan_Type (Core Spec v5.4 Vol 4, Part E, §7.8.10): whether the scanner sends
/// scan requests. Kept raw so that reserved values still decode.
public struct LEScanType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let passive = LEScanType(rawValue: 0x00)
    public static let active = LEScanType(rawValue: 0x01)

    public var name: String {
        switch rawValue {
        case 0x00: return "Passive"
        case 0x01: return "Active"
        default: return "Reserved"
        }
    }

    public var description: String { HCICommandFormat.named(name, rawValue) }
}
