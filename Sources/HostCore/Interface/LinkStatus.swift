import Wire

/// A read-only view of one link, for the CLI's status display and for tests.
public struct LinkStatus: Sendable {
    public var id: LinkID
    public var peer: DeviceAddress
    public var state: LinkState
    /// Set while connected.
    public var connection: ConnectionInfo?
    /// ATT_MTU of the current connection.
    public var mtu: UInt16?
    /// ACL packets of this link handed to the controller and not yet completed.
    public var aclPacketsInFlight: Int
    /// ACL packets of this link waiting for a credit.
    public var aclPacketsQueued: Int
    /// Attempts since the link was last ready (the backoff grows with it).
    public var attempts: Int
    /// When the reconnect backoff ends, in `.waitingToReconnect`.
    public var reconnectAt: HostTime?
}
