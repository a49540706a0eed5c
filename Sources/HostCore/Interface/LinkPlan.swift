import Timing
import Wire

/// What a link should do once connected, so that the core can take it from connection to
/// "ready" on its own (and a replay of a session reproduces the same packets).
public struct LinkPlan: Sendable {
    /// ATT_MTU to ask for; nil skips the exchange.
    public var mtu: UInt16? = 247
    /// Discover the whole database on connection (or take it from `cachedDatabase`).
    public var discover: Bool = true
    public var subscriptions: [Subscription] = []
    /// The database from a previous connection; trusted unless the peer's Database Hash differs
    /// or it sends Service Changed.
    public var cachedDatabase: GATTDatabase?
    /// The wait between reconnection attempts; nil: none.
    public var reconnect: Backoff?
    /// How long one LE Create Connection may stay pending before it is cancelled.
    public var connectTimeout: UInt64 = HostDuration.seconds(10)

    public init() {}
}

public struct Subscription: Sendable, Hashable {
    public var service: BluetoothUUID?
    public var characteristic: BluetoothUUID
    public var mode: SubscriptionMode

    public init(service: BluetoothUUID? = nil, characteristic: BluetoothUUID, mode: SubscriptionMode = .automatic) {
        self.service = service
        self.characteristic = characteristic
        self.mode = mode
    }
}

extension Backoff {
    /// Between a link's reconnection attempts: 250 ms, doubled up to 10 s, forever.
    public static let linkReconnect = Backoff(initial: HostDuration.milliseconds(250), maximum: HostDuration.seconds(10))
}

/// Scan settings (Core Spec Vol 4, Part E, §7.8.10 / §7.8.64).
public struct ScanConfiguration: Sendable, Hashable {
    public var active: Bool = true
    /// Units of 0.625 ms.
    public var interval: UInt16 = 0x0060
    public var window: UInt16 = 0x0030
    public var filterDuplicates: Bool = false
    /// Use the extended scanning commands when the controller has them.
    public var preferExtended: Bool = true

    public init() {}
}
