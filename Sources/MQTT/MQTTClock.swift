import Glibc

/// CLOCK_MONOTONIC in nanoseconds: the time base `MQTTPollLoop` drives its clients with, the
/// same as the runtime's `MonotonicClock` and so the gateway's `HostTime` (the MQTT target sits
/// beside the runtime, not on it, hence its own reading of the one clock).
public enum MQTTClock {
    public static func now() -> UInt64 {
        var ts = timespec()
        _ = clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(truncatingIfNeeded: ts.tv_sec) &* 1_000_000_000 &+ UInt64(truncatingIfNeeded: ts.tv_nsec)
    }

    /// `seconds` as nanoseconds, for the callers' timeouts.
    public static func nanoseconds(_ seconds: Double) -> UInt64 {
        seconds <= 0 ? 0 : UInt64(seconds * 1e9)
    }
}
