import HostCore
import Wire

/// What happens to a connected link that no request of the application asked for: the values
/// a layer above `Central` (the CoreBluetooth module) must show without polling.
public enum LinkEvent: Sendable, Equatable {
    /// The link's ATT_MTU; the current one is the first event of every `Peripheral.events()`
    /// stream once the exchange has happened.
    case mtuChanged(UInt16)
    /// The peer said its database changed (Service Changed, or a Database Hash mismatch): what
    /// was discovered before is stale.
    case databaseChanged
    /// The link went down for good (no reconnection planned), with the reason of the
    /// Disconnection Complete; the stream ends after it.
    case disconnected(HCIStatus)
}
