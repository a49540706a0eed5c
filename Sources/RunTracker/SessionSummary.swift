import Sensors

/// End-of-session figures, accumulated from every measurement.
public struct SessionSummary: Sendable, Equatable {
    public var durationSeconds: Double = 0
    public var heartRate = Statistic()
    /// Distance covered during the session: the growth of the pod's total distance, or (for
    /// pods that do not send it) speed integrated over time.
    public var distanceMeters: Double = 0
    public var speed = Statistic()
    public var temperature = Statistic()
    public var measurements: [SensorRole: Int] = [:]
    public var reconnections: [SensorRole: Int] = [:]
    public var malformed = 0

    public init() {}

    /// Mean of the speeds the pod reported (time spent connecting does not dilute it).
    public var averageSpeed: Double? { speed.mean }

    public struct Statistic: Sendable, Equatable {
        public private(set) var count = 0
        public private(set) var sum = 0.0
        public private(set) var minimum = Double.infinity
        public private(set) var maximum = -Double.infinity

        public init() {}

        public mutating func add(_ v: Double) {
            guard v.isFinite else { return }
            count += 1
            sum += v
            minimum = Swift.min(minimum, v)
            maximum = Swift.max(maximum, v)
        }

        public var mean: Double? { count > 0 ? sum / Double(count) : nil }
        public var min: Double? { count > 0 ? minimum : nil }
        public var max: Double? { count > 0 ? maximum : nil }
    }
}
