/// Result of L2CAP_CREDIT_BASED_RECONFIGURE_RSP (Core Spec v5.4 Vol 3, Part A, §4.28).
public struct L2CAPCreditBasedReconfigureResult: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    public static let successful = L2CAPCreditBasedReconfigureResult(0x0000)
    public static let mtuReductionNotAllowed = L2CAPCreditBasedReconfigureResult(0x0001)
    public static let mpsReductionNotAllowed = L2CAPCreditBasedReconfigureResult(0x0002)
    public static let invalidDestinationCID = L2CAPCreditBasedReconfigureResult(0x0003)
    public static let unacceptableParameters = L2CAPCreditBasedReconfigureResult(0x0004)

    public var isSuccess: Bool { rawValue == 0 }

    public var name: String {
        switch rawValue {
        case 0x0000: return "Reconfiguration successful"
        case 0x0001: return "Reconfiguration failed – reduction in size of MTU not allowed"
        case 0x0002: return "Reconfiguration failed – reduction in size of MPS not allowed for more than one channel at a time"
        case 0x0003: return "Reconfiguration failed – one or more Destination CIDs invalid"
        case 0x0004: return "Reconfiguration failed – other unacceptable parameters"
        default: return "Reserved"
        }
    }
}

extension L2CAPCreditBasedReconfigureResult: CustomStringConvertible {
    public var description: String { L2CAPText.named(name, rawValue) }
}
