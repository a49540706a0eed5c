/// Attribute Opcode (Core Spec v5.4 Vol 3, Part F, §3.3.1 and §3.4.8): method in
/// bits 0–5, Command Flag in bit 6, Authentication Signature Flag in bit 7. A raw value so an
/// opcode newer than this table still round-trips.
public struct ATTOpcode: RawRepresentable, Hashable, Sendable, Comparable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    public static let errorResponse = ATTOpcode(0x01)
    public static let exchangeMTURequest = ATTOpcode(0x02)
    public static let exchangeMTUResponse = ATTOpcode(0x03)
    public static let findInformationRequest = ATTOpcode(0x04)
    public static let findInformationResponse = ATTOpcode(0x05)
    public static let findByTypeValueRequest = ATTOpcode(0x06)
    public static let findByTypeValueResponse = ATTOpcode(0x07)
    public static let readByTypeRequest = ATTOpcode(0x08)
    public static let readByTypeResponse = ATTOpcode(0x09)
    public static let readRequest = ATTOpcode(0x0A)
    public static let readResponse = ATTOpcode(0x0B)
    public static let readBlobRequest = ATTOpcode(0x0C)
    public static let readBlobResponse = ATTOpcode(0x0D)
    public static let readMultipleRequest = ATTOpcode(0x0E)
    public static let readMultipleResponse = ATTOpcode(0x0F)
    public static let readByGroupTypeRequest = ATTOpcode(0x10)
    public static let readByGroupTypeResponse = ATTOpcode(0x11)
    public static let writeRequest = ATTOpcode(0x12)
    public static let writeResponse = ATTOpcode(0x13)
    public static let prepareWriteRequest = ATTOpcode(0x16)
    public static let prepareWriteResponse = ATTOpcode(0x17)
    public static let executeWriteRequest = ATTOpcode(0x18)
    public static let executeWriteResponse = ATTOpcode(0x19)
    public static let handleValueNotification = ATTOpcode(0x1B)
    public static let handleValueIndication = ATTOpcode(0x1D)
    public static let handleValueConfirmation = ATTOpcode(0x1E)
    public static let readMultipleVariableRequest = ATTOpcode(0x20)
    public static let readMultipleVariableResponse = ATTOpcode(0x21)
    public static let multipleHandleValueNotification = ATTOpcode(0x23)
    public static let writeCommand = ATTOpcode(0x52)
    public static let signedWriteCommand = ATTOpcode(0xD2)

    /// Bit 6: a command gets no response.
    public static let commandFlag: UInt8 = 0x40
    /// Bit 7: the PDU ends in a 12-byte Authentication Signature.
    public static let authenticationSignatureFlag: UInt8 = 0x80

    /// Method (bits 0–5).
    public var method: UInt8 { rawValue & 0x3F }
    public var isCommand: Bool { rawValue & Self.commandFlag != 0 }
    public var hasAuthenticationSignature: Bool { rawValue & Self.authenticationSignatureFlag != 0 }

    /// How the ATT bearer treats a PDU with this opcode (§3.3, §3.4.8).
    public enum Kind: Sendable, Hashable {
        /// Client → server, answered by the matching response or an Error Response.
        case request
        /// Server → client, ends the request in flight (Error Response included).
        case response
        /// Client → server, never answered.
        case command
        /// Server → client, never answered.
        case notification
        /// Server → client, answered by Handle Value Confirmation.
        case indication
        /// Client → server, answers an indication.
        case confirmation
        /// Not in the opcode summary of §3.4.8.
        case unknown
    }

    public var kind: Kind {
        switch rawValue {
        case 0x02, 0x04, 0x06, 0x08, 0x0A, 0x0C, 0x0E, 0x10, 0x12, 0x16, 0x18, 0x20: return .request
        case 0x01, 0x03, 0x05, 0x07, 0x09, 0x0B, 0x0D, 0x0F, 0x11, 0x13, 0x17, 0x19, 0x21: return .response
        case 0x52, 0xD2: return .command
        case 0x1B, 0x23: return .notification
        case 0x1D: return .indication
        case 0x1E: return .confirmation
        default: return .unknown
        }
    }

    /// The response that completes a request with this opcode (every request's response is
    /// the next opcode); nil when this is not a request.
    public var responseOpcode: ATTOpcode? {
        kind == .request ? ATTOpcode(rawValue &+ 1) : nil
    }

    /// Name as used in the PDU descriptions of §3.4, e.g. "Handle Value Notification".
    public var name: String {
        switch rawValue {
        case 0x01: return "Error Response"
        case 0x02: return "Exchange MTU Request"
        case 0x03: return "Exchange MTU Response"
        case 0x04: return "Find Information Request"
        case 0x05: return "Find Information Response"
        case 0x06: return "Find By Type Value Request"
        case 0x07: return "Find By Type Value Response"
        case 0x08: return "Read By Type Request"
        case 0x09: return "Read By Type Response"
        case 0x0A: return "Read Request"
        case 0x0B: return "Read Response"
        case 0x0C: return "Read Blob Request"
        case 0x0D: return "Read Blob Response"
        case 0x0E: return "Read Multiple Request"
        case 0x0F: return "Read Multiple Response"
        case 0x10: return "Read By Group Type Request"
        case 0x11: return "Read By Group Type Response"
        case 0x12: return "Write Request"
        case 0x13: return "Write Response"
        case 0x16: return "Prepare Write Request"
        case 0x17: return "Prepare Write Response"
        case 0x18: return "Execute Write Request"
        case 0x19: return "Execute Write Response"
        case 0x1B: return "Handle Value Notification"
        case 0x1D: return "Handle Value Indication"
        case 0x1E: return "Handle Value Confirmation"
        case 0x20: return "Read Multiple Variable Request"
        case 0x21: return "Read Multiple Variable Response"
        case 0x23: return "Multiple Handle Value Notification"
        case 0x52: return "Write Command"
        case 0xD2: return "Signed Write Command"
        default: return "Unknown"
        }
    }

    /// The PDU identifier of §3.4.8, e.g. `ATT_HANDLE_VALUE_NTF`.
    public var specIdentifier: String? {
        switch rawValue {
        case 0x01: return "ATT_ERROR_RSP"
        case 0x02: return "ATT_EXCHANGE_MTU_REQ"
        case 0x03: return "ATT_EXCHANGE_MTU_RSP"
        case 0x04: return "ATT_FIND_INFORMATION_REQ"
        case 0x05: return "ATT_FIND_INFORMATION_RSP"
        case 0x06: return "ATT_FIND_BY_TYPE_VALUE_REQ"
        case 0x07: return "ATT_FIND_BY_TYPE_VALUE_RSP"
        case 0x08: return "ATT_READ_BY_TYPE_REQ"
        case 0x09: return "ATT_READ_BY_TYPE_RSP"
        case 0x0A: return "ATT_READ_REQ"
        case 0x0B: return "ATT_READ_RSP"
        case 0x0C: return "ATT_READ_BLOB_REQ"
        case 0x0D: return "ATT_READ_BLOB_RSP"
        case 0x0E: return "ATT_READ_MULTIPLE_REQ"
        case 0x0F: return "ATT_READ_MULTIPLE_RSP"
        case 0x10: return "ATT_READ_BY_GROUP_TYPE_REQ"
        case 0x11: return "ATT_READ_BY_GROUP_TYPE_RSP"
        case 0x12: return "ATT_WRITE_REQ"
        case 0x13: return "ATT_WRITE_RSP"
        case 0x16: return "ATT_PREPARE_WRITE_REQ"
        case 0x17: return "ATT_PREPARE_WRITE_RSP"
        case 0x18: return "ATT_EXECUTE_WRITE_REQ"
        case 0x19: return "ATT_EXECUTE_WRITE_RSP"
        case 0x1B: return "ATT_HANDLE_VALUE_NTF"
        case 0x1D: return "ATT_HANDLE_VALUE_IND"
        case 0x1E: return "ATT_HANDLE_VALUE_CFM"
        case 0x20: return "ATT_READ_MULTIPLE_VARIABLE_REQ"
        case 0x21: return "ATT_READ_MULTIPLE_VARIABLE_RSP"
        case 0x23: return "ATT_MULTIPLE_HANDLE_VALUE_NTF"
        case 0x52: return "ATT_WRITE_CMD"
        case 0xD2: return "ATT_SIGNED_WRITE_CMD"
        default: return nil
        }
    }

    public static func < (l: ATTOpcode, r: ATTOpcode) -> Bool { l.rawValue < r.rawValue }
}

extension ATTOpcode: CustomStringConvertible {
    public var description: String { L2CAPText.named(name, rawValue) }
}
