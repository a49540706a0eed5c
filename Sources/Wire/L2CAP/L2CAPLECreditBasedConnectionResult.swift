/// Result of L2CAP_LE_CREDIT_BASED_CONNECTION_RSP (Core Spec v5.4 Vol 3, Part A, §4.23).
public struct L2CAPLECreditBasedConnectionResult: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    public static let successful = L2CAPLECreditBasedConnectionResult(0x0000)
    public static let spsmNotSupported = L2CAPLECreditBasedConnectionResult(0x0002)
    public static let noResourcesAvailable = L2CAPLECreditBasedConnectionResult(0x0004)
    public static let insufficientAuthentication = L2CAPLECreditBasedConnectionResult(0x0005)
    public static let insufficientAuthorization = L2CAPLECreditBasedConnectionResult(0x0006)
    public static let encryptionKeySizeTooShort = L2CAPLECreditBasedConnectionResult(0x0007)
    public static let insufficientEncryption = L2CAPLECreditBasedConnectionResult(0x0008)
    public static let invalidSourceCID = L2CAPLECreditBasedConnectionResult(0x0009)
    public static let sourceCIDAlreadyAllocated = L2CAPLECreditBasedConnectionResult(0x000A)
    public static let unacceptableParameters = L2CAPLECreditBasedConnectionResult(0x000B)

    public var isSuccess: Bool { rawValue == 0 }

    public var name: String {
        switch rawValue {
        case 0x0000: return "Connection successful"
        case 0x0002: return "Connection refused – SPSM not supported"
        case 0x0004: return "Connection refused – no resources available"
        case 0x0005: return "Connection refused – insufficient authentication"
        case 0x0006: return "Connection refused – insufficient authorization"
        case 0x0007: return "Connection refused – encryption key size too short"
        case 0x0008: return "Connection refused – insufficient encryption"
        case 0x0009: return "Connection refused – invalid Source CID"
        case 0x000A: return "Connection refused – Source CID already allocated"
        case 0x000B: return "Connection refused – unacceptable parameters"
        default: return "Reserved"
        }
    }
}

extension L2CAPLECreditBasedConnectionResult: CustomStringConvertible {
    public var description: String { L2CAPText.named(name, rawValue) }
}
