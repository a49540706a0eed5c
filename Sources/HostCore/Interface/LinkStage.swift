/// How far a link is, as an application shows it: the run session's sensor states and the
/// gateway's device states are these four (plus what they know of devices without a link).
/// The host's `LinkState` says which step is running; a user only needs to know whether the
/// link is on its way, connected, delivering, or over.
public enum LinkStage: String, Sendable, Hashable {
    /// Queued, initiating, or waiting out the reconnect backoff.
    case connecting
    /// Connected, still setting up (MTU, discovery, subscriptions).
    case connected
    /// Everything asked for is in place.
    case ready
    case disconnected
}

extension LinkState {
    /// The one mapping of a link's state to what applications display.
    public var stage: LinkStage {
        switch self {
        case .queued, .initiating, .waitingToReconnect: return .connecting
        case .connected, .mtu, .discovering, .subscribing: return .connected
        case .ready: return .ready
        case .disconnected: return .disconnected
        }
    }
}
