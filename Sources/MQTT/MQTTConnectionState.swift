/// Where an `MQTTClient` is in its connection's life.
public enum MQTTConnectionState: Sendable, Equatable {
    /// Created, `start` not called yet.
    case idle
    /// TCP (and TLS) connecting or CONNECT sent; waiting for CONNACK since `since`.
    case connecting(since: UInt64)
    case connected
    /// Waiting until `retryAt` before the next attempt.
    case waiting(retryAt: UInt64)
    /// `stop` called: DISCONNECT on its way.
    case stopping
    /// Stopped for good.
    case stopped
}
