/// A control packet from the broker (MQTT 3.1.1 §3), as `MQTTPacketReader` cuts it out of the
/// stream: only the packets a broker sends to a client that subscribes at QoS 0 or 1.
enum MQTTControlPacket: Equatable {
    /// CONNACK (§3.2): return code 0 accepts the connection.
    case connectAcknowledgement(returnCode: UInt8)
    /// PUBLISH (§3.3) on a subscribed topic; `packetIdentifier` is 0 for QoS 0.
    case publish(MQTTMessage, packetIdentifier: UInt16)
    /// PUBACK (§3.4): the broker has a QoS 1 message.
    case publishAcknowledgement(packetIdentifier: UInt16)
    /// SUBACK (§3.9): the granted QoS of the one filter asked, or 0x80 for a refusal.
    case subscribeAcknowledgement(packetIdentifier: UInt16, returnCode: UInt8)
    /// PINGRESP (§3.13).
    case pingResponse
}
