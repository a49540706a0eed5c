import Glibc

/// Seconds on CLOCK_MONOTONIC, the time base `MQTTPollLoop` drives its clients with. (The
/// runtime's own loop converts its nanosecond clock; the client only needs a monotonic number
/// of seconds.)
public enum MQTTClock {
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
