import Glibc

/// The one time base of the runtime: `CLOCK_MONOTONIC` in nanoseconds.
///
/// The sans-I/O core never reads a clock; the event loop reads this one and hands the value to
/// the core, so deadlines are plain `UInt64` nanoseconds that cannot jump with wall-clock
/// changes (NTP, `date -s`) and compare without any calendar arithmetic.
public enum MonotonicClock {
    /// Nanoseconds since an arbitrary point fixed at boot.
    @inline(__always)
    public static func now() -> UInt64 {
        var ts = timespec()
        // CLOCK_MONOTONIC cannot fail with a valid pointer; the value is never negative.
        _ = clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(truncatingIfNeeded: ts.tv_sec) &* 1_000_000_000 &+ UInt64(truncatingIfNeeded: ts.tv_nsec)
    }

    public static let nanosecondsPerMillisecond: UInt64 = 1_000_000
    public static let nanosecondsPerSecond: UInt64 = 1_000_000_000
}
