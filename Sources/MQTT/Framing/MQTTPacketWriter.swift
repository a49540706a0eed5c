/// MQTT 3.1.1 control packets (§2, §3) encoded into one buffer: a loop turn's PUBLISHes, the
/// PUBACKs of received messages and a PINGREQ leave together in one `write`, which libmosquitto
/// cannot do (it writes every packet with a `send` of its own, Docs/performance.md).
///
/// Only the packets a client sends. Every string is a UTF-8 string with a two-octet length
/// (§1.5.3); the caller has checked the lengths (`MQTTMessage.problem`,
/// `MQTTClientConfiguration.problem`), so nothing here fails.
struct MQTTPacketWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 4096) {
        bytes.reserveCapacity(capacity)
    }

    var isEmpty: Bool { bytes.isEmpty }
    var count: Int { bytes.count }

    /// Forgets the first `n` octets (written to the socket).
    mutating func consume(_ n: Int) {
        if n >= bytes.count { bytes.removeAll(keepingCapacity: true) } else { bytes.removeFirst(n) }
    }

    mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    /// CONNECT (§3.1), always a clean session: the client re-sends what was not acknowledged
    /// itself, from its outbox, so the broker need keep nothing for it.
    mutating func connect(clientID: String, keepAlive: Int, username: String?, password: String?,
                          will: (topic: String, payload: String, qos: MQTTQoS, retain: Bool)?) {
        var flags: UInt8 = 0x02   // Clean Session
        var length = 10 + 2 + clientID.utf8.count
        if let will {
            flags |= 0x04 | UInt8(will.qos.rawValue) << 3 | (will.retain ? 0x20 : 0)
            length += 2 + will.topic.utf8.count + 2 + will.payload.utf8.count
        }
        if let username {
            flags |= 0x80
            length += 2 + username.utf8.count
            if let password {
                flags |= 0x40
                length += 2 + password.utf8.count
            }
        }
        fixedHeader(0x10, remainingLength: length)
        string("MQTT")
        bytes.append(4)   // protocol level: 3.1.1
        bytes.append(flags)
        twoOctets(keepAlive)
        string(clientID)
        if let will {
            string(will.topic)
            string(will.payload)
        }
        if let username {
            string(username)
            if let password { string(password) }
        }
    }

    /// PUBLISH (§3.3); `packetIdentifier` only for QoS 1.
    mutating func publish(topic: String, payload: UnsafeRawBufferPointer, qos: MQTTQoS, retain: Bool, packetIdentifier: UInt16) {
        let topicLength = topic.utf8.count
        let length = 2 + topicLength + (qos == .atMostOnce ? 0 : 2) + payload.count
        fixedHeader(0x30 | UInt8(qos.rawValue) << 1 | (retain ? 1 : 0), remainingLength: length)
        twoOctets(topicLength)
        bytes.append(contentsOf: topic.utf8)
        if qos != .atMostOnce { twoOctets(Int(packetIdentifier)) }
        bytes.append(contentsOf: payload)
    }

    /// PUBACK (§3.4) of a QoS 1 message the broker sent.
    mutating func puback(_ packetIdentifier: UInt16) {
        bytes.append(0x40)
        bytes.append(2)
        twoOctets(Int(packetIdentifier))
    }

    /// SUBSCRIBE (§3.8) of one filter.
    mutating func subscribe(_ filter: String, qos: MQTTQoS, packetIdentifier: UInt16) {
        fixedHeader(0x82, remainingLength: 2 + 2 + filter.utf8.count + 1)
        twoOctets(Int(packetIdentifier))
        string(filter)
        bytes.append(UInt8(qos.rawValue))
    }

    /// PINGREQ (§3.12).
    mutating func pingRequest() {
        bytes.append(0xC0)
        bytes.append(0)
    }

    /// DISCONNECT (§3.14).
    mutating func disconnect() {
        bytes.append(0xE0)
        bytes.append(0)
    }

    /// The first octet and the Remaining Length, 7 bits per octet, least significant first (§2.2.3).
    private mutating func fixedHeader(_ first: UInt8, remainingLength: Int) {
        bytes.append(first)
        var n = remainingLength
        repeat {
            var octet = UInt8(n & 0x7F)
            n >>= 7
            if n > 0 { octet |= 0x80 }
            bytes.append(octet)
        } while n > 0
    }

    private mutating func twoOctets(_ n: Int) {
        bytes.append(UInt8(truncatingIfNeeded: n >> 8))
        bytes.append(UInt8(truncatingIfNeeded: n))
    }

    private mutating func string(_ s: String) {
        twoOctets(s.utf8.count)
        bytes.append(contentsOf: s.utf8)
    }
}
