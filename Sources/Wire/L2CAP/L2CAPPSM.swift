/// Protocol/Service Multiplexer of a BR/EDR connection-oriented channel (Core Spec v5.4
/// Vol 3, Part A, §4.2; values from Assigned Numbers §2.2). A raw value: a dynamic PSM
/// (0x1001 and up) or one this table lacks still names its channel by number.
public struct L2CAPPSM: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    public static let sdp = L2CAPPSM(0x0001)
    public static let rfcomm = L2CAPPSM(0x0003)
    public static let bnep = L2CAPPSM(0x000F)
    public static let hidControl = L2CAPPSM(0x0011)
    public static let hidInterrupt = L2CAPPSM(0x0013)
    public static let avctp = L2CAPPSM(0x0017)
    public static let avdtp = L2CAPPSM(0x0019)
    public static let avctpBrowsing = L2CAPPSM(0x001B)
    public static let att = L2CAPPSM(0x001F)
    public static let eatt = L2CAPPSM(0x0027)

    /// The protocol's short name, as traces and the Assigned Numbers table write it.
    public var name: String {
        switch rawValue {
        case 0x0001: return "SDP"
        case 0x0003: return "RFCOMM"
        case 0x0005: return "TCS-BIN"
        case 0x0007: return "TCS-BIN-CORDLESS"
        case 0x000F: return "BNEP"
        case 0x0011: return "HID Control"
        case 0x0013: return "HID Interrupt"
        case 0x0015: return "UPnP"
        case 0x0017: return "AVCTP"
        case 0x0019: return "AVDTP"
        case 0x001B: return "AVCTP Browsing"
        case 0x001D: return "UDI C-Plane"
        case 0x001F: return "ATT"
        case 0x0021: return "3DSP"
        case 0x0023: return "IPSP"
        case 0x0025: return "OTS"
        case 0x0027: return "EATT"
        default: return rawValue >= 0x1001 ? "Dynamic PSM" : "Unknown PSM"
        }
    }
}

extension L2CAPPSM: CustomStringConvertible {
    /// `AVDTP (0x0019)`.
    public var description: String { L2CAPText.named(name, rawValue) }
}
