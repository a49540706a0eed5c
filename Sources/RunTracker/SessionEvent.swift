import HostCore
import Sensors
import Wire

/// What a run session reports: sensor states, readings, problems, and the final summary.
public enum SessionEvent: Sendable {
    case state(SensorRole, SensorState, address: DeviceAddress?, name: String?)
    /// A reading of the role's measurement characteristic, as `SensorValueDecoder` decodes it
    /// (never `.malformed`: those are counted and told as a notice).
    case measurement(SensorRole, DecodedSensorValue, address: DeviceAddress, at: HostTime)
    case rssi(SensorRole, Int8)
    /// Something the user should see but that does not stop the session.
    case notice(String)
    case summary(SessionSummary)
}

/// A sensor's state as the live view and the JSON stream show it.
public enum SensorState: String, Sendable, Hashable {
    case scanning, connecting, connected, ready, disconnected

    /// A role with a link shows how far the link is.
    public init(_ stage: LinkStage) {
        switch stage {
        case .connecting: self = .connecting
        case .connected: self = .connected
        case .ready: self = .ready
        case .disconnected: self = .disconnected
        }
    }
}
