/// Counters of an `MQTTClient`, for status topics and benchmarks.
public struct MQTTStatistics: Sendable, Equatable {
    /// `publish` calls accepted into the queue.
    public var published = 0
    /// Acknowledged (QoS 1) or written (QoS 0).
    public var delivered = 0
    /// Dropped from a full queue.
    public var dropped = 0
    /// Refused by the connection (too large for MQTT, or by libmosquitto).
    public var rejected = 0
    /// Messages received on subscriptions.
    public var received = 0
    /// Successful connections (the first one included).
    public var connections = 0
    /// Failed attempts and lost connections.
    public var connectFailures = 0
    public var connectionsLost = 0
    /// Messages held now, and of those handed to the connection.
    public var queued = 0
    public var inFlight = 0

    public init() {}
}
