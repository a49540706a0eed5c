/// InfoType of L2CAP_INFORMATION_REQ and _RSP (Core Spec v5.4 Vol 3, Part A, §4.10).
public struct L2CAPInformationType: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    public static let connectionlessMTU = L2CAPInformationType(0x0001)
    public static let extendedFeatures = L2CAPInformationType(0x0002)
    public static let fixedChannels = L2CAPInformationType(0x0003)

    public var name: String {
        switch rawValue {
        case 0x0001: return "Connectionless MTU"
        case 0x0002: return "Extended features supported"
        case 0x0003: return "Fixed channels supported"
        default: return "Reserved"
        }
    }
}

extension L2CAPInformationType: CustomStringConvertible {
    public var description: String { L2CAPText.named(name, rawValue) }
}
