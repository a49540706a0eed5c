/// When to send `WATCHDOG=1`: systemd passes `WATCHDOG_USEC` (the `WatchdogSec` of the unit)
/// and `WATCHDOG_PID` (whom it is meant for); pinging at half the interval, as sd_watchdog_enabled(3)
/// advises, leaves room for one late loop round. Sans-clock: times are the caller's monotonic
/// nanoseconds (the loop's and the host core's `HostTime`).
public struct WatchdogSchedule: Sendable, Equatable {
    /// Nanoseconds between pings.
    public let interval: UInt64
    public private(set) var nextPingAt: UInt64

    /// nil when no watchdog is asked for this process: no or a zero `WATCHDOG_USEC`, or a
    /// `WATCHDOG_PID` of another process.
    public init?(watchdogMicroseconds: String?, watchdogPID: String?, ownPID: Int32, now: UInt64) {
        guard let text = watchdogMicroseconds, let usec = UInt64(text), usec > 0 else { return nil }
        if let pidText = watchdogPID {
            guard let pid = Int32(pidText), pid == ownPID else { return nil }
        }
        interval = usec.multipliedReportingOverflow(by: 500).partialValue
        nextPingAt = now
    }

    /// From this process's environment.
    public static func fromEnvironment(now: UInt64) -> WatchdogSchedule? {
        WatchdogSchedule(watchdogMicroseconds: Environment.value("WATCHDOG_USEC"), watchdogPID: Environment.value("WATCHDOG_PID"),
                         ownPID: Environment.processID, now: now)
    }

    /// Whether a ping is due at `now`.
    public func isDue(at now: UInt64) -> Bool { now >= nextPingAt }

    /// A ping went out at `now`.
    public mutating func pinged(at now: UInt64) { nextPingAt = now &+ interval }
}
