import Wire

/// The three kinds of sensor a run session keeps connected, each found by the service it
/// advertises and read through one notifying characteristic.
public enum SensorRole: String, Sendable, Hashable, CaseIterable, Comparable {
    case heart
    case speed
    case environment

    /// Service UUID the sensor puts in its advertising data.
    public var advertisedService: BluetoothUUID {
        switch self {
        case .heart: return .heartRate
        case .speed: return .runningSpeedAndCadence
        // The Thingy:52 advertises its configuration service, not the weather service.
        case .environment: return .thingyConfiguration
        }
    }

    /// Service that holds the measurement characteristic.
    public var measurementService: BluetoothUUID {
        switch self {
        case .heart: return .heartRate
        case .speed: return .runningSpeedAndCadence
        case .environment: return .thingyWeather
        }
    }

    public var measurementCharacteristic: BluetoothUUID {
        switch self {
        case .heart: return .heartRateMeasurement
        case .speed: return .rscMeasurement
        case .environment: return .thingyTemperature
        }
    }

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
