/// Cuts the broker's byte stream into control packets (MQTT 3.1.1 §2.2): whatever one `read`
/// brought — every PUBACK of a loop turn, part of a packet — goes in with `append`, and
/// `next()` hands out the complete packets and keeps the rest for the next read.
///
/// A stream that breaks the protocol (a packet type a broker never sends to this client, a
/// malformed length) is reported once, with what was wrong, and the connection must be closed.
struct MQTTPacketReader {
    /// A packet larger than this is refused: the broker sends this client commands and
    /// acknowledgements, and a length from a corrupt stream must not make it wait for gigabytes.
    static let largestPacket = 1 << 20

    private var buffer: [UInt8] = []
    private var start = 0

    init() {
        buffer.reserveCapacity(4096)
    }

    /// Octets held that do not yet make a whole packet.
    var pending: Int { buffer.count - start }

    mutating func append(_ octets: UnsafeRawBufferPointer) {
        if start > 0 && start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
        buffer.append(contentsOf: octets)
    }

    /// The next complete packet; nil when more octets are needed. Throws the protocol error
    /// that makes the stream unusable.
    mutating func next() throws(MQTTProtocolViolation) -> MQTTControlPacket? {
        guard start < buffer.count else { return nil }
        // Remaining Length: 1 to 4 octets, 7 bits each, least significant first (§2.2.3).
        var length = 0
        var shift = 0
        var i = start + 1
        while true {
            guard i < buffer.count else { return nil }
            let octet = buffer[i]
            length |= Int(octet & 0x7F) << shift
            i += 1
            if octet & 0x80 == 0 { break }
            shift += 7
            if shift > 21 { throw MQTTProtocolViolation("a Remaining Length longer than four octets") }
        }
        if length > Self.largestPacket {
            throw MQTTProtocolViolation("a packet of \(length) octets, more than the \(Self.largestPacket) this client accepts")
        }
        guard buffer.count - i >= length else { return nil }
        let first = buffer[start]
        let body = i..<(i + length)
        start = body.upperBound
        if start == buffer.count {
            defer { buffer.removeAll(keepingCapacity: true); start = 0 }
            return try decode(first, body)
        }
        if start > 65536 && start * 2 > buffer.count {
            let packet = try decode(first, body)
            buffer.removeFirst(start)
            start = 0
            return packet
        }
        return try decode(first, body)
    }

    private func decode(_ first: UInt8, _ body: Range<Int>) throws(MQTTProtocolViolation) -> MQTTControlPacket {
        switch first >> 4 {
        case 2:
            guard body.count == 2 else { throw MQTTProtocolViolation("a CONNACK of \(body.count) octets (2 expected)") }
            return .connectAcknowledgement(returnCode: buffer[body.lowerBound + 1])
        case 3:
            return try publish(first, body)
        case 4:
            guard body.count == 2 else { throw MQTTProtocolViolation("a PUBACK of \(body.count) octets (2 expected)") }
            return .publishAcknowledgement(packetIdentifier: twoOctets(at: body.lowerBound))
        case 9:
            guard body.count >= 3 else { throw MQTTProtocolViolation("a SUBACK of \(body.count) octets (3 expected)") }
            return .subscribeAcknowledgement(packetIdentifier: twoOctets(at: body.lowerBound), returnCode: buffer[body.lowerBound + 2])
        case 13:
            guard body.isEmpty else { throw MQTTProtocolViolation("a PINGRESP of \(body.count) octets (0 expected)") }
            return .pingResponse
        default:
            throw MQTTProtocolViolation("a packet of type \(first >> 4), which a broker does not send to this client")
        }
    }

    private func publish(_ first: UInt8, _ body: Range<Int>) throws(MQTTProtocolViolation) -> MQTTControlPacket {
        let qos = (first >> 1) & 3
        guard qos <= 1 else {
            throw MQTTProtocolViolation("a PUBLISH at QoS \(qos), above the QoS 1 this client subscribes with")
        }
        guard body.count >= 2 else { throw MQTTProtocolViolation("a PUBLISH too short for its topic") }
        let topicLength = Int(twoOctets(at: body.lowerBound))
        var i = body.lowerBound + 2
        let idLength = qos == 1 ? 2 : 0
        guard body.upperBound - i >= topicLength + idLength else {
            throw MQTTProtocolViolation("a PUBLISH too short for its topic")
        }
        let topic = String(decoding: buffer[i..<(i + topicLength)], as: UTF8.self)
        i += topicLength
        var packetIdentifier: UInt16 = 0
        if qos == 1 {
            packetIdentifier = twoOctets(at: i)
            i += 2
        }
        let message = MQTTMessage(topic: topic, payload: Array(buffer[i..<body.upperBound]),
                                  qos: qos == 1 ? .atLeastOnce : .atMostOnce, retain: first & 1 != 0)
        return .publish(message, packetIdentifier: packetIdentifier)
    }

    private func twoOctets(at i: Int) -> UInt16 {
        UInt16(buffer[i]) << 8 | UInt16(buffer[i + 1])
    }
}

/// What was wrong with the broker's stream, for the reason of the closed connection.
struct MQTTProtocolViolation: Error, Equatable {
    var what: String
    init(_ what: String) { self.what = what }
}
