import Wire

/// The three kinds of sensor a run session keeps connected, each found by the service it
/// advertises and read through one notifying characteristic (`SensorProfile`).
public enum SensorRole: String, Sendable, Hashable, CaseIterable, Comparable {
    case heart
    case speed
    case environment

    /// What the role's own kind of sensor advertises, and where its readings are
    /// (`profiles` lists every kind that fills the role).
    public var advertisedService: BluetoothUUID { profiles[0].advertisedService }
    public var measurementService: BluetoothUUID { profiles[0].measurementService }
    public var measurementCharacteristic: BluetoothUUID { profiles[0].measurementCharacteristic }

    public var title: String {
        switch self {
        case .heart: return "Heart rate"
        case .speed: return "Speed"
        case .environment: return "Environment"
        }
    }

    /// Display order: heart, speed, environment.
    var rank: Int {
        switch self {
        case .heart: return 0
        case .speed: return 1
        case .environment: return 2
        }
    }

    public static func < (l: SensorRole, r: SensorRole) -> Bool { l.rank < r.rank }
}
