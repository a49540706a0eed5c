/// Result of L2CAP_CONNECTION_PARAMETER_UPDATE_RSP (Core Spec v5.4 Vol 3, Part A, §4.21).
public struct L2CAPConnectionParameterUpdateResult: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    public static let accepted = L2CAPConnectionParameterUpdateResult(0x0000)
    public static let rejected = L2CAPConnectionParameterUpdateResult(0x0001)

    public var name: String {
        switch rawValue {
        case 0x0000: return "Connection Parameters accepted"
        case 0x0001: return "Connection Parameters rejected"
        default: return "Reserved"
        }
    }
}

extension L2CAPConnectionParameterUpdateResult: CustomStringConvertible {
    public var description: String { L2CAPText.named(name, rawValue) }
}
