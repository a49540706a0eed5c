/// Result of L2CAP_CONNECTION_RSP (Core Spec v5.4 Vol 3, Part A, §4.3).
public struct L2CAPConnectionResult: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    public static let successful = L2CAPConnectionResult(0x0000)
    public static let pending = L2CAPConnectionResult(0x0001)
    public static let psmNotSupported = L2CAPConnectionResult(0x0002)
    public static let securityBlock = L2CAPConnectionResult(0x0003)
    public static let noResourcesAvailable = L2CAPConnectionResult(0x0004)
    public static let invalidSourceCID = L2CAPConnectionResult(0x0006)
    public static let sourceCIDAlreadyAllocated = L2CAPConnectionResult(0x0007)

    public var isSuccess: Bool { rawValue == 0 }
    public var isPending: Bool { rawValue == 1 }

    public var name: String {
        switch rawValue {
        case 0x0000: return "Connection successful"
        case 0x0001: return "Connection pending"
        case 0x0002: return "Connection refused – PSM not supported"
        case 0x0003: return "Connection refused – security block"
        case 0x0004: return "Connection refused – no resources available"
        case 0x0006: return "Connection refused – invalid Source CID"
        case 0x0007: return "Connection refused – Source CID already allocated"
        default: return "Reserved"
        }
    }
}

extension L2CAPConnectionResult: CustomStringConvertible {
    public var description: String { L2CAPText.named(name, rawValue) }
}
