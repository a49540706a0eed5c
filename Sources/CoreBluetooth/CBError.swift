import Foundation

public let CBErrorDomain = "CBErrorDomain"

/// CoreBluetooth's errors with Apple's codes; `error as NSError` has `CBErrorDomain` and the
/// code, `localizedDescription` says what happened in rtstack's words.
public struct CBError: CustomNSError, Hashable, Sendable {
    public enum Code: Int, Sendable {
        case unknown = 0
        case invalidParameters = 1
        case invalidHandle = 2
        case notConnected = 3
        case outOfSpace = 4
        case operationCancelled = 5
        case connectionTimeout = 6
        case peripheralDisconnected = 7
        case uuidNotAllowed = 8
        case alreadyAdvertising = 9
        case connectionFailed = 10
        case connectionLimitReached = 11
        case unknownDevice = 12
        case operationNotSupported = 13
        case peerRemovedPairingInformation = 14
        case encryptionTimedOut = 15
        case tooManyLEPairedDevices = 16
        case leGattExceededBackgroundNotificationLimit = 17
        case leGattNearBackgroundNotificationLimit = 18

        /// Apple's misspelt name, kept for code written against it.
        public static var unkownDevice: Code { .unknownDevice }
    }

    public let code: Code
    /// What happened, as rtstack saw it (the `NSLocalizedDescriptionKey` of `errorUserInfo`).
    public let reason: String

    public init(_ code: Code, reason: String? = nil) {
        self.code = code
        self.reason = reason ?? "\(code)"
    }

    public static var errorDomain: String { CBErrorDomain }
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: reason] }

    public static func == (l: CBError, r: CBError) -> Bool { l.code == r.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public static var unknown: Code { .unknown }
    public static var invalidParameters: Code { .invalidParameters }
    public static var invalidHandle: Code { .invalidHandle }
    public static var notConnected: Code { .notConnected }
    public static var outOfSpace: Code { .outOfSpace }
    public static var operationCancelled: Code { .operationCancelled }
    public static var connectionTimeout: Code { .connectionTimeout }
    public static var peripheralDisconnected: Code { .peripheralDisconnected }
    public static var uuidNotAllowed: Code { .uuidNotAllowed }
    public static var alreadyAdvertising: Code { .alreadyAdvertising }
    public static var connectionFailed: Code { .connectionFailed }
    public static var connectionLimitReached: Code { .connectionLimitReached }
    public static var unknownDevice: Code { .unknownDevice }
    public static var operationNotSupported: Code { .operationNotSupported }
    public static var peerRemovedPairingInformation: Code { .peerRemovedPairingInformation }
    public static var encryptionTimedOut: Code { .encryptionTimedOut }
    public static var tooManyLEPairedDevices: Code { .tooManyLEPairedDevices }
}
