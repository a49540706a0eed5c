import Wire

/// What the core tells the application. Delivered through `HostSink.deliver`, in order.
public enum HostEvent: Sendable {
    /// Bring-up finished; requests may now be made.
    case controllerReady(ControllerInfo)
    /// The controller failed (bring-up error, Hardware Error, command timeout). Links are gone.
    /// After a Hardware Error or a command timeout once ready, the host is already resetting it
    /// and `.controllerReady` follows; when bring-up itself failed (`Host.hasFailed`), nothing
    /// happens until `start(at:)`.
    case controllerFailed(HostError)
    case scanning(Bool)
    case advertisement(AdvertisementReport)
    case linkState(LinkID, LinkState)
    case connected(LinkID, ConnectionInfo)
    /// A connection attempt failed; `willRetry` says whether the plan's policy tries again.
    case connectFailed(LinkID, HostError, willRetry: Bool)
    case disconnected(LinkID, reason: HCIStatus, willReconnect: Bool)
    case mtuChanged(LinkID, UInt16)
    /// The peer's database is known, from discovery or (when `fromCache`) the cache.
    case databaseReady(LinkID, GATTDatabase, fromCache: Bool)
    /// The peer said its database changed (Service Changed, or a Database Hash mismatch): the
    /// cache for it must be dropped.
    case databaseChanged(LinkID)
    case subscribed(LinkID, characteristic: BluetoothUUID, valueHandle: UInt16)
    case operationCompleted(OperationID, Result<GATTResult, HostError>)
    /// A Handle Value Notification; `value` is a slice of the received packet (no copy).
    case notification(LinkID, attributeHandle: UInt16, value: ArraySlice<UInt8>)
    /// A Handle Value Indication; the core has already sent the confirmation.
    case indication(LinkID, attributeHandle: UInt16, value: ArraySlice<UInt8>)
    /// Pairing, encryption and bonds of a link (Docs/security.md).
    case security(LinkID, SecurityEvent)
    /// Malformed or unexpected input: counted and shown, never trusted, never fatal.
    case warning(HostWarning)
}

/// Identifies one GATT operation asked of the core, to match its completion.
public struct OperationID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public var description: String { "op\(rawValue)" }
}

public struct HostWarning: Sendable, CustomStringConvertible {
    public var message: String
    public var bytes: [UInt8]
    public init(_ message: String, bytes: [UInt8] = []) {
        self.message = message
        self.bytes = bytes
    }
    public var description: String {
        bytes.isEmpty ? message : message + " [" + Hex.spaced(bytes) + "]"
    }
}
