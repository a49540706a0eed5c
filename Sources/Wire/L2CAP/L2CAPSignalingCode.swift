/// Code of an L2CAP signaling command (Core Spec v5.4 Vol 3, Part A, §4). A raw
/// value, so codes this table lacks still decode (as `.unknown`) and get a reject.
public struct L2CAPSignalingCode: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    public static let commandReject = L2CAPSignalingCode(0x01)
    public static let connectionRequest = L2CAPSignalingCode(0x02)
    public static let connectionResponse = L2CAPSignalingCode(0x03)
    public static let configurationRequest = L2CAPSignalingCode(0x04)
    public static let configurationResponse = L2CAPSignalingCode(0x05)
    public static let disconnectionRequest = L2CAPSignalingCode(0x06)
    public static let disconnectionResponse = L2CAPSignalingCode(0x07)
    public static let echoRequest = L2CAPSignalingCode(0x08)
    public static let echoResponse = L2CAPSignalingCode(0x09)
    public static let informationRequest = L2CAPSignalingCode(0x0A)
    public static let informationResponse = L2CAPSignalingCode(0x0B)
    public static let connectionParameterUpdateRequest = L2CAPSignalingCode(0x12)
    public static let connectionParameterUpdateResponse = L2CAPSignalingCode(0x13)
    public static let leCreditBasedConnectionRequest = L2CAPSignalingCode(0x14)
    public static let leCreditBasedConnectionResponse = L2CAPSignalingCode(0x15)
    public static let flowControlCreditInd = L2CAPSignalingCode(0x16)
    public static let creditBasedConnectionRequest = L2CAPSignalingCode(0x17)
    public static let creditBasedConnectionResponse = L2CAPSignalingCode(0x18)
    public static let creditBasedReconfigureRequest = L2CAPSignalingCode(0x19)
    public static let creditBasedReconfigureResponse = L2CAPSignalingCode(0x1A)

    /// Name as in the command list of §4, e.g. "Connection Parameter Update Request".
    public var name: String {
        switch rawValue {
        case 0x01: return "Command Reject"
        case 0x02: return "Connection Request"
        case 0x03: return "Connection Response"
        case 0x04: return "Configuration Request"
        case 0x05: return "Configuration Response"
        case 0x06: return "Disconnection Request"
        case 0x07: return "Disconnection Response"
        case 0x08: return "Echo Request"
        case 0x09: return "Echo Response"
        case 0x0A: return "Information Request"
        case 0x0B: return "Information Response"
        case 0x12: return "Connection Parameter Update Request"
        case 0x13: return "Connection Parameter Update Response"
        case 0x14: return "LE Credit Based Connection Request"
        case 0x15: return "LE Credit Based Connection Response"
        case 0x16: return "Flow Control Credit Ind"
        case 0x17: return "Credit Based Connection Request"
        case 0x18: return "Credit Based Connection Response"
        case 0x19: return "Credit Based Reconfigure Request"
        case 0x1A: return "Credit Based Reconfigure Response"
        default: return "Reserved"
        }
    }

    /// The PDU identifier the specification uses, e.g. `L2CAP_COMMAND_REJECT_RSP`.
    public var specIdentifier: String? {
        switch rawValue {
        case 0x01: return "L2CAP_COMMAND_REJECT_RSP"
        case 0x02: return "L2CAP_CONNECTION_REQ"
        case 0x03: return "L2CAP_CONNECTION_RSP"
        case 0x04: return "L2CAP_CONFIGURATION_REQ"
        case 0x05: return "L2CAP_CONFIGURATION_RSP"
        case 0x06: return "L2CAP_DISCONNECTION_REQ"
        case 0x07: return "L2CAP_DISCONNECTION_RSP"
        case 0x08: return "L2CAP_ECHO_REQ"
        case 0x09: return "L2CAP_ECHO_RSP"
        case 0x0A: return "L2CAP_INFORMATION_REQ"
        case 0x0B: return "L2CAP_INFORMATION_RSP"
        case 0x12: return "L2CAP_CONNECTION_PARAMETER_UPDATE_REQ"
        case 0x13: return "L2CAP_CONNECTION_PARAMETER_UPDATE_RSP"
        case 0x14: return "L2CAP_LE_CREDIT_BASED_CONNECTION_REQ"
        case 0x15: return "L2CAP_LE_CREDIT_BASED_CONNECTION_RSP"
        case 0x16: return "L2CAP_FLOW_CONTROL_CREDIT_IND"
        case 0x17: return "L2CAP_CREDIT_BASED_CONNECTION_REQ"
        case 0x18: return "L2CAP_CREDIT_BASED_CONNECTION_RSP"
        case 0x19: return "L2CAP_CREDIT_BASED_RECONFIGURE_REQ"
        case 0x1A: return "L2CAP_CREDIT_BASED_RECONFIGURE_RSP"
        default: return nil
        }
    }
}

extension L2CAPSignalingCode: CustomStringConvertible {
    public var description: String { L2CAPText.named(name, rawValue) }
}
