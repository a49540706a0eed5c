/// Result of L2CAP_CREDIT_BASED_CONNECTION_RSP (Core Spec v5.4 Vol 3, Part A, §4.26). Unlike
/// the LE-only response, some results refuse only part of the channels asked for: a non-zero
/// Destination CID is then a channel that was opened all the same.
public struct L2CAPCreditBasedConnectionResult: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    public static let allSuccessful = L2CAPCreditBasedConnectionResult(0x0000)
    public static let spsmNotSupported = L2CAPCreditBasedConnectionResult(0x0002)
    public static let someRefusedInsufficientResources = L2CAPCreditBasedConnectionResult(0x0004)
    public static let insufficientAuthentication = L2CAPCreditBasedConnectionResult(0x0005)
    public static let insufficientAuthorization = L2CAPCreditBasedConnectionResult(0x0006)
    public static let encryptionKeySizeTooShort = L2CAPCreditBasedConnectionResult(0x0007)
    public static let insufficientEncryption = L2CAPCreditBasedConnectionResult(0x0008)
    public static let someRefusedInvalidSourceCID = L2CAPCreditBasedConnectionResult(0x0009)
    public static let someRefusedSourceCIDAlreadyAllocated = L2CAPCreditBasedConnectionResult(0x000A)
    public static let unacceptableParameters = L2CAPCreditBasedConnectionResult(0x000B)
    public static let invalidParameters = L2CAPCreditBasedConnectionResult(0x000C)
    public static let pendingNoFurtherInformation = L2CAPCreditBasedConnectionResult(0x000D)
    public static let pendingAuthentication = L2CAPCreditBasedConnectionResult(0x000E)
    public static let pendingAuthorization = L2CAPCreditBasedConnectionResult(0x000F)

    /// Results after which the non-zero Destination CIDs are open channels.
    public var opensChannels: Bool {
        rawValue == 0x0000 || rawValue == 0x0004 || rawValue == 0x0009 || rawValue == 0x000A
    }

    /// A provisional answer: the final response follows with the same identifier.
    public var isPending: Bool { (0x000D...0x000F).contains(rawValue) }

    public var name: String {
        switch rawValue {
        case 0x0000: return "All connections successful"
        case 0x0002: return "All connections refused – SPSM not supported"
        case 0x0004: return "Some connections refused – insufficient resources available"
        case 0x0005: return "All connections refused – insufficient authentication"
        case 0x0006: return "All connections refused – insufficient authorization"
        case 0x0007: return "All connections refused – encryption key size too short"
        case 0x0008: return "All connections refused – insufficient encryption"
        case 0x0009: return "Some connections refused – invalid Source CID"
        case 0x000A: return "Some connections refused – Source CID already allocated"
        case 0x000B: return "All connections refused – unacceptable parameters"
        case 0x000C: return "All connections refused – invalid parameters"
        case 0x000D: return "All connections pending – no further information available"
        case 0x000E: return "All connections pending – authentication pending"
        case 0x000F: return "All connections pending – authorization pending"
        default: return "Reserved"
        }
    }
}

extension L2CAPCreditBasedConnectionResult: CustomStringConvertible {
    public var description: String { L2CAPText.named(name, rawValue) }
}
