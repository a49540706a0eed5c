/// Monotonic time in nanoseconds. The core never reads a clock: every input carries the time
/// it happened, so replays and tests of 30-second timeouts run in microseconds.
public typealias HostTime = UInt64

public enum HostDuration {
    public static func milliseconds(_ ms: UInt64) -> UInt64 { ms &* 1_000_000 }
    public static func seconds(_ s: UInt64) -> UInt64 { s &* 1_000_000_000 }
}

/// The earliest of several optional deadlines: how every sans-I/O part of rtstack answers
/// `nextDeadline` (the host, the link table, the gateway, the drivers). A value with no
/// allocation, because the loop asks for it on every turn.
public struct EarliestDeadline: Sendable {
    public private(set) var time: HostTime?

    public init(_ first: HostTime? = nil) {
        time = first
    }

    public mutating func consider(_ t: HostTime?) {
        guard let t else { return }
        if let d = time, d <= t { return }
        time = t
    }
}
