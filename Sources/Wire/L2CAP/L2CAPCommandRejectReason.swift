/// Reason of a Command Reject (Core Spec v5.4 Vol 3, Part A, §4.1).
public struct L2CAPCommandRejectReason: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    public static let commandNotUnderstood = L2CAPCommandRejectReason(0x0000)
    /// Data carries the actual signaling MTU (2 bytes).
    public static let signalingMTUExceeded = L2CAPCommandRejectReason(0x0001)
    /// Data carries the local and remote CID of the request (2 + 2 bytes).
    public static let invalidCIDInRequest = L2CAPCommandRejectReason(0x0002)

    public var name: String {
        switch rawValue {
        case 0x0000: return "Command not understood"
        case 0x0001: return "Signaling MTU exceeded"
        case 0x0002: return "Invalid CID in request"
        default: return "Reserved"
        }
    }
}

extension L2CAPCommandRejectReason: CustomStringConvertible {
    public var description: String { L2CAPText.named(name, rawValue) }
}
