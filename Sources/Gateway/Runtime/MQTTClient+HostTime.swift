import HostCore
import MQTT

/// The broker client keeps monotonic seconds (its own poll loop's clock, `MQTTClock`); the
/// gateway keeps `HostTime` like the rest of rtstack. The two meet here, and only here.
extension MQTTClient {
    static func seconds(_ t: HostTime) -> Double { Double(t) / 1e9 }

    static func hostTime(_ seconds: Double) -> HostTime { seconds <= 0 ? 0 : HostTime(seconds * 1e9) }

    public func start(at now: HostTime) { start(at: Self.seconds(now)) }
    public func stop(at now: HostTime) { stop(at: Self.seconds(now)) }
    public func handleReadable(at now: HostTime) { handleReadable(at: Self.seconds(now)) }
    public func handleWritable(at now: HostTime) { handleWritable(at: Self.seconds(now)) }
    public func handleTimeout(at now: HostTime) { handleTimeout(at: Self.seconds(now)) }
    public func flush(at now: HostTime) { flush(at: Self.seconds(now)) }

    /// `nextDeadline` as `HostTime`.
    public var nextHostDeadline: HostTime? { nextDeadline.map(Self.hostTime) }

    /// How long until a retry the client announced (`connectFailed`, `connectionLost`), in whole
    /// seconds for the log.
    public static func secondsUntil(_ retryAt: Double, from now: HostTime) -> Int {
        Int((retryAt - seconds(now)).rounded(.up))
    }
}
