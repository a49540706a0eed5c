/// Event_Type of a legacy advertising report: which advertising PDU was received
/// (Vol 4, Part E, §7.7.65.2). Named after the PDUs of Vol 6, Part B, §2.3.
public struct LEAdvertisingEventType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Connectable and scannable undirected.
    public static let advInd = LEAdvertisingEventType(rawValue: 0x00)
    /// Connectable directed.
    public static let advDirectInd = LEAdvertisingEventType(rawValue: 0x01)
    /// Scannable undirected.
    public static let advScanInd = LEAdvertisingEventType(rawValue: 0x02)
    /// Non-connectable undirected.
    public static let advNonconnInd = LEAdvertisingEventType(rawValue: 0x03)
    /// Scan response.
    public static let scanRsp = LEAdvertisingEventType(rawValue: 0x04)

    public var name: String {
        switch rawValue {
        case 0x00: return "ADV_IND"
        case 0x01: return "ADV_DIRECT_IND"
        case 0x02: return "ADV_SCAN_IND"
        case 0x03: return "ADV_NONCONN_IND"
        case 0x04: return "SCAN_RSP"
        default: return "Reserved"
        }
    }

    /// Whether a central may connect in answer to this PDU.
    public var isConnectable: Bool { rawValue == 0x00 || rawValue == 0x01 }

    public var description: String { EventFormat.named(name, rawValue) }
}
