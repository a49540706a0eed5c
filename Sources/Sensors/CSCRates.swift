/// Speed and cadence from consecutive CSC Measurements (CSCS v1.0 §3.1.1.2–3): the difference
/// of the cumulative revolutions over the difference of the event times, both modulo their
/// width (event times roll over every 64 s, crank revolutions every 65536).
///
/// Sans-clock like the rest of the stack: the caller passes the time a measurement arrived.
/// When a sensor keeps repeating its last event (the wheel stopped), the rate is held for
/// `stopAfter` seconds and then drops to zero, because a sensor sends no event for "not turning".
/// A counter that goes backwards (a reset through the SC Control Point, a new battery) or a
/// jump no wheel can make restarts the computation instead of producing a spike.
public struct CSCRates: Sendable {
    /// Wheel circumference in millimetres (2096 mm: a 700×23C road tyre).
    public var wheelCircumferenceMillimeters: Int
    /// Seconds without a new wheel or crank event before its rate is reported as zero.
    public var stopAfter: Double

    public private(set) var previous: CSCMeasurement?
    /// When the last new wheel / crank event arrived (receive time).
    private var lastWheelEventAt: Double?
    private var lastCrankEventAt: Double?

    /// Latest rates; nil until two measurements with events have been seen.
    public private(set) var wheelRevolutionsPerMinute: Double?
    public private(set) var crankRevolutionsPerMinute: Double?

    public init(wheelCircumferenceMillimeters: Int = 2096, stopAfter: Double = 3) {
        self.wheelCircumferenceMillimeters = wheelCircumferenceMillimeters
        self.stopAfter = stopAfter
    }

    /// Speed in m/s, from the wheel rate and the circumference.
    public var speedMetersPerSecond: Double? {
        wheelRevolutionsPerMinute.map { $0 / 60 * Double(wheelCircumferenceMillimeters) / 1000 }
    }

    /// Largest revolution count per measurement taken as real: 0.5 s of events at 100 km/h
    /// is about 7 wheel revolutions, so anything beyond a few thousand is a reset or garbage.
    static let largestWheelStep: UInt32 = 4096
    static let largestCrankStep: UInt16 = 1024

    /// Feeds one measurement received at `time` (seconds, any monotonic origin).
    public mutating func update(_ m: CSCMeasurement, at time: Double) {
        defer { previous = m }
        if let w = m.wheel {
            if let p = previous?.wheel {
                let revs = w.cumulativeRevolutions &- p.cumulativeRevolutions
                let ticks = w.lastEventTime &- p.lastEventTime
                if revs == 0 && ticks == 0 {
                    if let at = lastWheelEventAt, time - at >= stopAfter { wheelRevolutionsPerMinute = 0 }
                } else if revs > 0, revs <= Self.largestWheelStep, ticks > 0 {
                    wheelRevolutionsPerMinute = Double(revs) * 60 * 1024 / Double(ticks)
                    lastWheelEventAt = time
                } else {
                    lastWheelEventAt = time      // reset or inconsistent: start over from this one
                }
            } else {
                lastWheelEventAt = time
            }
        }
        if let c = m.crank {
            if let p = previous?.crank {
                let revs = c.cumulativeRevolutions &- p.cumulativeRevolutions
                let ticks = c.lastEventTime &- p.lastEventTime
                if revs == 0 && ticks == 0 {
                    if let at = lastCrankEventAt, time - at >= stopAfter { crankRevolutionsPerMinute = 0 }
                } else if revs > 0, revs <= Self.largestCrankStep, ticks > 0 {
                    crankRevolutionsPerMinute = Double(revs) * 60 * 1024 / Double(ticks)
                    lastCrankEventAt = time
                } else {
                    lastCrankEventAt = time
                }
            } else {
                lastCrankEventAt = time
            }
        }
    }
}

extension CSCRates {
    /// Zeroes a rate whose last new event is `stopAfter` seconds old, for sensors that stop
    /// notifying when the wheel or the cranks stop (the gateway calls this on its timer).
    public mutating func expire(at time: Double) {
        if let at = lastWheelEventAt, time - at >= stopAfter, wheelRevolutionsPerMinute != nil { wheelRevolutionsPerMinute = 0 }
        if let at = lastCrankEventAt, time - at >= stopAfter, crankRevolutionsPerMinute != nil { crankRevolutionsPerMinute = 0 }
    }
}
