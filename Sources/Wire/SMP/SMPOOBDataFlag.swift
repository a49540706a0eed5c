/// OOB Data Flag of a Pairing Request or Response (Core Spec v5.4 Vol 3, Part H, §3.5.1,
/// Table 3.5). A raw value: 0x02–0xFF are reserved.
public struct SMPOOBDataFlag: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    public static let notPresent = SMPOOBDataFlag(0x00)
    public static let present = SMPOOBDataFlag(0x01)

    public var isReserved: Bool { rawValue > 0x01 }

    public var name: String {
        switch rawValue {
        case 0x00: return "OOB Authentication data not present"
        case 0x01: return "OOB Authentication data from remote device present"
        default: return "Reserved"
        }
    }
}

extension SMPOOBDataFlag: CustomStringConvertible {
    public var description: String { L2CAPText.named(name, rawValue) }
}
