/// Life of one link (see Docs/host-core.md for the diagram).
public enum LinkState: String, Sendable, Hashable {
    /// Asked for, waiting for its turn at the controller's single LE Create Connection.
    case queued
    /// LE Create Connection is pending at the controller.
    case initiating
    /// The controller reported the connection; nothing has been exchanged yet.
    case connected
    /// ATT Exchange MTU in progress.
    case mtu
    /// GATT discovery in progress (skipped when a valid cache exists).
    case discovering
    /// Writing CCCDs for the requested subscriptions.
    case subscribing
    /// Everything asked for is in place; notifications flow.
    case ready
    /// Waiting for the reconnect backoff to expire.
    case waitingToReconnect
    /// Gone for good (disconnected without reconnect, or given up).
    case disconnected
}
