import HostCore
import Sensors
import Wire

/// What a run session reports: sensor states, readings, problems, and the final summary.
public enum SessionEvent: Sendable {
    case state(SensorRole, SensorState, address: DeviceAddress?, name: String?)
    case measurement(SensorRole, SensorMeasurement, address: DeviceAddress, at: HostTime)
    case rssi(SensorRole, Int8)
    /// Something the user should see but that does not stop the session.
    case notice(String)
    case summary(SessionSummary)
}

/// A sensor's state as the live view and the JSON stream show it.
public enum SensorState: String, Sendable, Hashable {
    case scanning, connecting, connected, ready, disconnected
}
