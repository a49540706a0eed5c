import Glibc

/// Seconds on CLOCK_MONOTONIC, the time base `MQTTClient` is driven with by `MQTTPollLoop`.
public enum MonotonicClock {
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
