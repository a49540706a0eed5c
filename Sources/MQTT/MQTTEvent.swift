/// What happened to an `MQTTClient`, drained by its owner with `nextEvent()` after each call.
public enum MQTTEvent: Sendable, Equatable {
    /// CONNACK accepted: subscriptions and the availability message are on their way, and the
    /// queue drains.
    case connected
    /// A connection attempt failed (refused, unreachable, TLS, CONNACK refused, timeout); the
    /// next attempt is at `retryAt` (nanoseconds, the clock the client is driven with).
    case connectFailed(reason: String, retryAt: UInt64)
    /// An established connection ended unexpectedly; the next attempt is at `retryAt`.
    case connectionLost(reason: String, retryAt: UInt64)
    /// `stop` finished: DISCONNECT sent, socket closed, no more attempts.
    case stopped
    /// The broker granted a subscription (SUBACK), after `subscribe` or a reconnection: from now
    /// on messages on it arrive.
    case subscribed(String)
    /// The broker refused a subscription (SUBACK 0x80: not authorised, bad filter).
    case subscriptionRefused(String)
    /// A message arrived on a subscribed topic.
    case message(MQTTMessage)
    /// The broker acknowledged a QoS 1 message, or a QoS 0 message was written to the socket.
    case delivered(MQTTPublishID)
    /// Messages were dropped from a full queue while the broker was away (counted since the
    /// last report, reported once the connection is back, so that the owner can publish it).
    case dropped(count: Int)
    /// The session refused a message (too large for the broker, bad topic); it is not retried.
    case rejected(MQTTPublishID, reason: String)
}

/// Identifies a published message in `.delivered` and `.rejected` events: the order of
/// `publish` calls, from 1.
public struct MQTTPublishID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let rawValue: UInt64
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }
    public static func < (l: MQTTPublishID, r: MQTTPublishID) -> Bool { l.rawValue < r.rawValue }
    public var description: String { "#\(rawValue)" }
}
