/// MQTT quality of service (MQTT 3.1.1 §4.3). Exactly-once (2) is not offered: a gateway's
/// readings carry their own sequence, and QoS 2's extra round trip buys nothing for them.
public enum MQTTQoS: Int32, Sendable, Hashable {
    /// Sent once; lost if the connection drops while it is on the way.
    case atMostOnce = 0
    /// Kept until the broker acknowledges it (PUBACK); may arrive twice after a reconnect.
    case atLeastOnce = 1
}
