import Sensors

/// One decoded reading from a session sensor.
public enum SensorMeasurement: Sendable, Equatable {
    case heart(bpm: Int, energyKilojoules: Int?, rrMilliseconds: [Double])
    case speed(metersPerSecond: Double, cadence: Int, strideMeters: Double?, distanceMeters: Double?, running: Bool)
    case environment(celsius: Double)

    public var role: SensorRole {
        switch self {
        case .heart: return .heart
        case .speed: return .speed
        case .environment: return .environment
        }
    }

    /// Decodes a notification value of `role`'s own measurement characteristic.
    public static func decode(_ role: SensorRole, _ value: ArraySlice<UInt8>) -> Result<SensorMeasurement, DecodeFailure> {
        decode(role.profiles[0], value)
    }

    /// Decodes a notification value of `profile`'s measurement characteristic; the decoder's
    /// complaint when the bytes are malformed, or `notKnown` when the sensor says it has no
    /// reading (ESS Temperature 0x8000).
    public static func decode(_ profile: SensorProfile, _ value: ArraySlice<UInt8>) -> Result<SensorMeasurement, DecodeFailure> {
        do {
            switch profile.decoding {
            case .heartRateMeasurement:
                let m = try HeartRateMeasurement(decoding: value)
                return .success(.heart(bpm: Int(m.heartRate), energyKilojoules: m.energyExpended.map(Int.init),
                                       rrMilliseconds: m.rrIntervals.milliseconds))
            case .rscMeasurement:
                let m = try RSCMeasurement(decoding: value)
                return .success(.speed(metersPerSecond: m.speedMetersPerSecond, cadence: Int(m.cadence),
                                       strideMeters: m.strideLengthMeters, distanceMeters: m.totalDistanceMeters,
                                       running: m.isRunning))
            case .thingyTemperature:
                let m = try ThingyTemperature(decoding: value)
                return .success(.environment(celsius: m.celsius))
            case .temperature:
                guard let celsius = try EnvironmentalTemperature(decoding: value).celsius else {
                    return .failure(DecodeFailure(message: "\(profile.role.rawValue) measurement: temperature not known",
                                                  bytes: Array(value), notKnown: true))
                }
                return .success(.environment(celsius: celsius))
            }
        } catch {
            return .failure(DecodeFailure(message: "\(profile.role.rawValue) measurement: \(error)", bytes: Array(value)))
        }
    }

    public struct DecodeFailure: Error, Sendable, Equatable {
        public var message: String
        public var bytes: [UInt8]
        /// Well-formed, but the sensor says it has no value now: no reading, not malformed.
        public var notKnown = false
    }
}
