/// How a quantity behaves over time, which decides how Home Assistant keeps its history
/// (`state_class`) and which entity it becomes (sensor, binary sensor, event).
public enum QuantityKind: String, Sendable, Hashable {
    /// A reading at a moment (temperature, speed): `state_class: measurement`.
    case measurement
    /// A running total that only grows until the device resets it (energy expended, wheel
    /// revolutions, advertising count): `state_class: total_increasing`.
    case totalIncreasing = "total_increasing"
    /// An on/off state: a binary sensor.
    case binary
    /// Something that happened (a button press), not a state: an event entity.
    case event
    /// A fact about the device rather than a reading (firmware version, URL, beacon id):
    /// a sensor without a state class, in the diagnostic category.
    case diagnostic

    /// Home Assistant's `state_class`, nil where none applies.
    public var stateClass: String? {
        switch self {
        case .measurement: return "measurement"
        case .totalIncreasing: return "total_increasing"
        case .binary, .event, .diagnostic: return nil
        }
    }
}
