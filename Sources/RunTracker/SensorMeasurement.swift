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

    /// Decodes a notification value of `role`'s measurement characteristic; nil with the
    /// decoder's complaint when the bytes are malformed.
    public static func decode(_ role: SensorRole, _ value: ArraySlice<UInt8>) -> Result<SensorMeasurement, DecodeFailure> {
        do {
            switch role {
            case .heart:
                let m = try HeartRateMeasurement(decoding: value)
                return .success(.heart(bpm: Int(m.heartRate), energyKilojoules: m.energyExpended.map(Int.init),
                                       rrMilliseconds: m.rrIntervals.milliseconds))
            case .speed:
                let m = try RSCMeasurement(decoding: value)
                return .success(.speed(metersPerSecond: m.speedMetersPerSecond, cadence: Int(m.cadence),
                                       strideMeters: m.strideLengthMeters, distanceMeters: m.totalDistanceMeters,
                                       running: m.isRunning))
            case .environment:
                let m = try ThingyTemperature(decoding: value)
                return .success(.environment(celsius: m.celsius))
            }
        } catch {
            return .failure(DecodeFailure(message: "\(role.rawValue) measurement: \(error)", bytes: Array(value)))
        }
    }

    public struct DecodeFailure: Error, Sendable, Equatable {
        public var message: String
        public var bytes: [UInt8]
    }
}
