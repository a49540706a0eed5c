/// Monotonic time in nanoseconds. The core never reads a clock: every input carries the time
/// it happened, so replays and tests of 30-second timeouts run in microseconds.
public typealias HostTime = UInt64

public enum HostDuration {
    public static func milliseconds(_ ms: UInt64) -> UInt64 { ms &* 1_000_000 }
    public static func seconds(_ s: UInt64) -> UInt64 { s &* 1_000_000_000 }
}
