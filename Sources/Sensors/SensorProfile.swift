import Wire

/// One kind of peripheral that can fill a session role: what it advertises and which
/// characteristic carries its readings (`SensorValueDecoder` decodes them by that UUID, so a
/// reading has one model wherever it is shown or published). A role may have several (the
/// environment is a Nordic Thingy:52 or any Environmental Sensing peripheral); the first of
/// `SensorRole.profiles` is the role's own.
public struct SensorProfile: Sendable, Hashable {
    public let role: SensorRole
    /// Service UUID the sensor puts in its advertising data.
    public let advertisedService: BluetoothUUID
    /// Service that holds the measurement characteristic.
    public let measurementService: BluetoothUUID
    public let measurementCharacteristic: BluetoothUUID

    public static let heartRate = SensorProfile(role: .heart, advertisedService: .heartRate, measurementService: .heartRate,
                                                measurementCharacteristic: .heartRateMeasurement)
    public static let runningSpeedAndCadence = SensorProfile(role: .speed, advertisedService: .runningSpeedAndCadence,
                                                             measurementService: .runningSpeedAndCadence,
                                                             measurementCharacteristic: .rscMeasurement)
    /// The Thingy:52 advertises its configuration service, not the weather service.
    public static let thingy = SensorProfile(role: .environment, advertisedService: .thingyConfiguration,
                                             measurementService: .thingyWeather, measurementCharacteristic: .thingyTemperature)
    /// Environmental Sensing Service (0x181A) with Temperature (0x2A6E), e.g. Zephyr's
    /// peripheral_esp sample; the first Temperature of the service is the one read.
    public static let environmentalSensing = SensorProfile(role: .environment, advertisedService: .environmentalSensing,
                                                           measurementService: .environmentalSensing,
                                                           measurementCharacteristic: .temperature)
}

extension SensorRole {
    /// The kinds of peripheral that fill this role, the role's own first.
    public var profiles: [SensorProfile] {
        switch self {
        case .heart: return [.heartRate]
        case .speed: return [.runningSpeedAndCadence]
        case .environment: return [.thingy, .environmentalSensing]
        }
    }

    /// The first profile whose service `ad` advertises.
    public func profile(advertisedIn ad: AdvertisingData) -> SensorProfile? {
        profiles.first { ad.advertisesService($0.advertisedService) }
    }
}
