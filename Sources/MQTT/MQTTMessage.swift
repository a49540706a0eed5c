/// One application message, published or received.
public struct MQTTMessage: Sendable, Hashable {
    public var topic: String
    public var payload: [UInt8]
    public var qos: MQTTQoS
    public var retain: Bool

    public init(topic: String, payload: [UInt8], qos: MQTTQoS = .atMostOnce, retain: Bool = false) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
    }

    public init(topic: String, text: String, qos: MQTTQoS = .atMostOnce, retain: Bool = false) {
        self.init(topic: topic, payload: Array(text.utf8), qos: qos, retain: retain)
    }

    /// The payload as UTF-8 text (invalid sequences replaced).
    public var text: String { String(decoding: payload, as: UTF8.self) }

    /// Why `topic` cannot be published to (MQTT 3.1.1 §4.7: not empty, no wildcards, no NUL, at
    /// most 65535 octets); nil when it can.
    public static func problem(publishingTo topic: String) -> String? {
        if topic.isEmpty { return "empty topic" }
        if topic.utf8.count > 65535 { return "topic longer than 65535 octets" }
        // One pass over the octets: every message is checked on its way to the broker.
        var wildcard = false, nul = false
        for octet in topic.utf8 {
            if octet == 0x2B || octet == 0x23 { wildcard = true } else if octet == 0 { nul = true }
        }
        if wildcard { return "topic '\(topic)' contains a wildcard (+ or #)" }
        if nul { return "topic contains a NUL character" }
        return nil
    }

    /// Why `filter` is not a valid subscription filter (§4.7.1: `#` only last and alone in its
    /// level, `+` alone in its level); nil when it is.
    public static func problem(subscribingTo filter: String) -> String? {
        if filter.isEmpty { return "empty topic filter" }
        if filter.utf8.contains(0) { return "topic filter contains a NUL character" }
        let levels = filter.split(separator: "/", omittingEmptySubsequences: false)
        for (i, level) in levels.enumerated() {
            if level.contains("#") && (level != "#" || i != levels.count - 1) {
                return "'#' must be alone in the last level of '\(filter)'"
            }
            if level.contains("+") && level != "+" { return "'+' must be alone in its level of '\(filter)'" }
        }
        return nil
    }
}
