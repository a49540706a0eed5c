import Foundation

public let CBATTErrorDomain = "CBATTErrorDomain"

/// An ATT Error Response from the peer (Core Spec v5.4 Vol 3, Part F, §3.4.1.1): the code is
/// the ATT error code itself, as Apple's `CBATTError.Code` raw values are.
public struct CBATTError: CustomNSError, Hashable, Sendable {
    public enum Code: Int, Sendable {
        case success = 0x00
        case invalidHandle = 0x01
        case readNotPermitted = 0x02
        case writeNotPermitted = 0x03
        case invalidPdu = 0x04
        case insufficientAuthentication = 0x05
        case requestNotSupported = 0x06
        case invalidOffset = 0x07
        case insufficientAuthorization = 0x08
        case prepareQueueFull = 0x09
        case attributeNotFound = 0x0A
        case attributeNotLong = 0x0B
        case insufficientEncryptionKeySize = 0x0C
        case invalidAttributeValueLength = 0x0D
        case unlikelyError = 0x0E
        case insufficientEncryption = 0x0F
        case unsupportedGroupType = 0x10
        case insufficientResources = 0x11
    }

    public let code: Code
    /// The ATT error code as received: application errors (0x80–0x9F) and profile errors
    /// (0xE0–0xFF) have no `Code` case and come as `.unlikelyError` with this set.
    public let attErrorCode: UInt8
    public let reason: String

    public init(_ code: Code, reason: String? = nil) {
        self.code = code
        attErrorCode = UInt8(code.rawValue)
        self.reason = reason ?? "\(code)"
    }

    /// The error for an ATT error code as the peer sent it.
    init(attErrorCode: UInt8, reason: String) {
        code = Code(rawValue: Int(attErrorCode)) ?? .unlikelyError
        self.attErrorCode = attErrorCode
        self.reason = reason
    }

    public static var errorDomain: String { CBATTErrorDomain }
    /// Apple's code for the codes it names; otherwise the peer's own code, so nothing is lost.
    public var errorCode: Int { Int(attErrorCode) }
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: reason] }

    public static func == (l: CBATTError, r: CBATTError) -> Bool { l.attErrorCode == r.attErrorCode }
    public func hash(into hasher: inout Hasher) { hasher.combine(attErrorCode) }

    public static var invalidHandle: Code { .invalidHandle }
    public static var readNotPermitted: Code { .readNotPermitted }
    public static var writeNotPermitted: Code { .writeNotPermitted }
    public static var invalidPdu: Code { .invalidPdu }
    public static var insufficientAuthentication: Code { .insufficientAuthentication }
    public static var requestNotSupported: Code { .requestNotSupported }
    public static var invalidOffset: Code { .invalidOffset }
    public static var insufficientAuthorization: Code { .insufficientAuthorization }
    public static var prepareQueueFull: Code { .prepareQueueFull }
    public static var attributeNotFound: Code { .attributeNotFound }
    public static var attributeNotLong: Code { .attributeNotLong }
    public static var insufficientEncryptionKeySize: Code { .insufficientEncryptionKeySize }
    public static var invalidAttributeValueLength: Code { .invalidAttributeValueLength }
    public static var unlikelyError: Code { .unlikelyError }
    public static var insufficientEncryption: Code { .insufficientEncryption }
    public static var unsupportedGroupType: Code { .unsupportedGroupType }
    public static var insufficientResources: Code { .insufficientResources }
}
