import Glibc
import Testing
@testable import MQTT

/// rtstack's own MQTT 3.1.1 framing (Sources/MQTT/Framing): the octets of each packet as §3 of
/// the specification lays them out, and the stream cut into packets however it arrives.
@Suite struct MQTTFramingTests {
    @Test func connectCarriesTheWillAndTheCredentialsInTheSpecificationsOrder() {
        var w = MQTTPacketWriter()
        w.connect(clientID: "gw", keepAlive: 30, username: "u", password: "p", will: ("t", "off", .atLeastOnce, true))
        // Clean Session 0x02 | Will 0x04 | Will QoS 1 0x08 | Will Retain 0x20 | Password 0x40 | User Name 0x80.
        #expect(w.bytes == [0x10, 28, 0, 4, 0x4D, 0x51, 0x54, 0x54, 4, 0xEE, 0, 30,
                            0, 2, 0x67, 0x77, 0, 1, 0x74, 0, 3, 0x6F, 0x66, 0x66, 0, 1, 0x75, 0, 1, 0x70])
        var bare = MQTTPacketWriter()
        bare.connect(clientID: "c", keepAlive: 5, username: nil, password: "ignored without a user", will: nil)
        #expect(bare.bytes == [0x10, 13, 0, 4, 0x4D, 0x51, 0x54, 0x54, 4, 0x02, 0, 5, 0, 1, 0x63])
    }

    @Test func publishHasItsIdentifierOnlyAtQoS1AndALongLengthInSevenBitGroups() {
        var w = MQTTPacketWriter()
        [UInt8]("hi".utf8).withUnsafeBytes { w.publish(topic: "a/b", payload: $0, qos: .atLeastOnce, retain: false, packetIdentifier: 10) }
        #expect(w.bytes == [0x32, 9, 0, 3, 0x61, 0x2F, 0x62, 0, 10, 0x68, 0x69])
        w.removeAll()
        [UInt8]("x".utf8).withUnsafeBytes { w.publish(topic: "t", payload: $0, qos: .atMostOnce, retain: true, packetIdentifier: 7) }
        #expect(w.bytes == [0x31, 4, 0, 1, 0x74, 0x78])
        w.removeAll()
        // Remaining Length 200 = 0x48 + 1 × 128 (§2.2.3).
        [UInt8](repeating: 0x41, count: 195).withUnsafeBytes { w.publish(topic: "t", payload: $0, qos: .atLeastOnce, retain: false, packetIdentifier: 1) }
        #expect(Array(w.bytes.prefix(3)) == [0x32, 0xC8, 0x01] && w.count == 203)
    }

    @Test func subscribePingAndDisconnectAreTheirFixedOctets() {
        var w = MQTTPacketWriter()
        w.subscribe("c/#", qos: .atLeastOnce, packetIdentifier: 0x0102)
        w.puback(0x0304)
        w.pingRequest()
        w.disconnect()
        #expect(w.bytes == [0x82, 8, 1, 2, 0, 3, 0x63, 0x2F, 0x23, 1, 0x40, 2, 3, 4, 0xC0, 0, 0xE0, 0])
    }

    @Test func theReaderCutsPacketsOutOfReadsOfAnySize() throws {
        var r = MQTTPacketReader()
        let stream: [UInt8] = [0x40, 2, 0, 5, 0x90, 3, 0, 7, 1, 0x20, 2, 0, 0, 0xD0, 0,
                               0x33, 6, 0, 1, 0x78, 0, 9, 0x76, 0x30, 3, 0, 1, 0x79]
        let expected: [MQTTControlPacket] = [
            .publishAcknowledgement(packetIdentifier: 5), .subscribeAcknowledgement(packetIdentifier: 7, returnCode: 1),
            .connectAcknowledgement(returnCode: 0), .pingResponse,
            .publish(MQTTMessage(topic: "x", payload: [0x76], qos: .atLeastOnce, retain: true), packetIdentifier: 9),
            .publish(MQTTMessage(topic: "y", payload: [], qos: .atMostOnce, retain: false), packetIdentifier: 0),
        ]
        // All at once, and one octet per read: the same packets.
        stream.withUnsafeBytes { r.append($0) }
        var all: [MQTTControlPacket] = []
        while let p = try r.next() { all.append(p) }
        #expect(all == expected && r.pending == 0)
        var octetwise: [MQTTControlPacket] = []
        for octet in stream {
            [octet].withUnsafeBytes { r.append($0) }
            while let p = try r.next() { octetwise.append(p) }
        }
        #expect(octetwise == expected && r.pending == 0)
    }

    @Test func aStreamThatBreaksTheProtocolIsRefusedWithWhatWasWrong() {
        let cases: [([UInt8], String)] = [
            ([0x40, 3, 0, 0, 0], "a PUBACK of 3 octets (2 expected)"),
            ([0x34, 4, 0, 1, 0x78, 0], "a PUBLISH at QoS 2, above the QoS 1 this client subscribes with"),
            ([0x30, 1, 0], "a PUBLISH too short for its topic"),
            ([0x32, 4, 0, 3, 0x61, 0x62], "a PUBLISH too short for its topic"),
            ([0x40, 0xFF, 0xFF, 0xFF, 0xFF, 0x01], "a Remaining Length longer than four octets"),
            ([0x30, 0xFF, 0xFF, 0xFF, 0x7F], "a packet of 268435455 octets, more than the 1048576 this client accepts"),
            ([0x10, 0], "a packet of type 1, which a broker does not send to this client"),
        ]
        for (octets, what) in cases {
            var r = MQTTPacketReader()
            octets.withUnsafeBytes { r.append($0) }
            #expect(throws: MQTTProtocolViolation(what)) { _ = try r.next() }
        }
    }

    @Test func packetIdentifiersAreNeverOnesStillInFlight() {
        var ids = MQTTPacketIdentifiers()
        let first = [ids.take(), ids.take(), ids.take()]
        #expect(first == [1, 2, 3])
        let released = [ids.release(2), ids.release(2), ids.release(0), ids.release(9)]
        #expect(released == [true, false, false, false])
        let next = ids.take()
        #expect(next == 4, "after the last one taken, not the first free")
        var n = ids.count
        while ids.take() != nil { n += 1 }
        #expect(n == 65535 && ids.count == 65535)
        let freed = ids.release(3)
        let last = [ids.take(), ids.take()]
        #expect(freed && last == [3, nil])
    }
}

/// `MQTTSocketSession` against a broker played by the test over a loopback socket: a turn's
/// packets leave in one `send`, every acknowledgement that came is taken with one `recv`, and
/// the keep-alive pings a quiet line and gives up on a broker that does not answer.
@Suite(.serialized) struct MQTTSocketSessionTests {
    /// A listening socket on 127.0.0.1 and the one connection it accepts.
    final class FakeBroker {
        let listener: Int32
        let port: Int
        var connection: Int32 = -1

        init() throws {
            let s = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var size = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { a in
                    bind(s, a, size) == 0 && listen(s, 1) == 0 && getsockname(s, a, &size) == 0
                }
            }
            let problem = bound ? "" : String(cString: strerror(errno))
            listener = s
            port = Int(UInt16(bigEndian: address.sin_port))
            try #require(bound, "cannot listen on 127.0.0.1: \(problem)")
        }

        deinit {
            if connection >= 0 { close(connection) }
            close(listener)
        }

        func accept() { connection = Glibc.accept(listener, nil, nil) }

        /// What has come within `timeout` seconds (after the first octets, what came with them).
        func receive(timeout: Int32 = 2000) -> [UInt8] {
            var p = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, timeout) > 0 else { return [] }
            usleep(20_000)
            var buffer = [UInt8](repeating: 0, count: 65536)
            let n = recv(connection, &buffer, buffer.count, 0)
            return n > 0 ? Array(buffer[0..<n]) : []
        }

        func send(_ octets: [UInt8]) { _ = Glibc.send(connection, octets, octets.count, 0) }
    }

    static func packets(_ octets: [UInt8]) throws -> [MQTTControlPacket] {
        var r = MQTTPacketReader()
        octets.withUnsafeBytes { r.append($0) }
        var out: [MQTTControlPacket] = []
        while let p = try r.next() { out.append(p) }
        return out
    }

    static func waitReadable(_ fd: Int32?) {
        guard let fd else { return }
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        _ = poll(&p, 1, 2000)
    }

    static func outputs(_ s: MQTTSocketSession) -> [MQTTSessionOutput] {
        var out: [MQTTSessionOutput] = []
        while let o = s.nextOutput() { out.append(o) }
        return out
    }

    /// A session with CONNACK received, at time 0.
    static func connected(_ broker: FakeBroker, keepAlive: Int = 30) throws -> MQTTSocketSession {
        let s = MQTTSocketSession(configuration: MQTTClientConfiguration(
            broker: MQTTBrokerURL(host: "127.0.0.1", port: broker.port), clientID: "gw", keepAlive: keepAlive))
        #expect(s.connect(at: 0) == nil)
        broker.accept()
        #expect(s.wantsWrite, "CONNECT waits for the connection")
        #expect(s.write(at: 0) == nil)
        let connect = broker.receive()
        #expect(connect.first == 0x10 && connect.count == 16, "\(connect)")
        broker.send([0x20, 2, 0, 0])
        waitReadable(s.fileDescriptor)
        #expect(s.read(at: 0) == nil)
        let acknowledged = outputs(s)
        guard acknowledged.count == 1, case .connectAcknowledgement(0) = acknowledged[0] else {
            Issue.record("no CONNACK output: \(acknowledged)")
            return s
        }
        return s
    }

    @Test func aTurnsPublishesLeaveInOneSendAndTheirAcknowledgementsComeInOneReceive() throws {
        let broker = try FakeBroker()
        let s = try Self.connected(broker)
        var ids: [UInt16] = []
        for i in 1...5 {
            guard case .queued(let id) = s.publish(MQTTMessage(topic: "rt/n", text: "\(i)", qos: .atLeastOnce)) else {
                Issue.record("publish \(i) not queued")
                return
            }
            ids.append(id)
        }
        #expect(Set(ids).count == 5)
        let sends = s.sendCalls
        #expect(s.write(at: 1) == nil)
        #expect(s.sendCalls == sends + 1 && !s.wantsWrite)
        let publishes = try Self.packets(broker.receive())
        #expect(publishes == (1...5).map { i in
            .publish(MQTTMessage(topic: "rt/n", text: "\(i)", qos: .atLeastOnce), packetIdentifier: ids[i - 1])
        })
        #expect(Self.outputs(s).isEmpty, "nothing is done before the PUBACKs")

        broker.send(ids.flatMap { [0x40, 2, UInt8($0 >> 8), UInt8($0 & 0xFF)] })
        Self.waitReadable(s.fileDescriptor)
        usleep(20_000)
        let receives = s.receiveCalls
        #expect(s.read(at: 2) == nil)
        #expect(s.receiveCalls == receives + 1)
        let done = Self.outputs(s).compactMap { o -> UInt16? in if case .published(let id) = o { return id } else { return nil } }
        #expect(done == ids)
    }

    @Test func aQoS0MessageIsDoneOnceWrittenAndACommandIsAcknowledged() throws {
        let broker = try FakeBroker()
        let s = try Self.connected(broker)
        guard case .queued(let id) = s.publish(MQTTMessage(topic: "rt/q0", text: "v")) else {
            Issue.record("not queued")
            return
        }
        #expect(Self.outputs(s).isEmpty)
        #expect(s.write(at: 1) == nil)
        let written = Self.outputs(s)
        #expect(written.count == 1)
        if case .published(id) = written.first {} else { Issue.record("\(written)") }

        // A command at QoS 1: its PUBACK is queued for the next write.
        broker.send([0x32, 8, 0, 3, 0x63, 0x2F, 0x78, 0x12, 0x34, 0x6B])
        Self.waitReadable(s.fileDescriptor)
        #expect(s.read(at: 2) == nil)
        let received = Self.outputs(s)
        if case .message(let m) = received.first {
            #expect(m == MQTTMessage(topic: "c/x", text: "k", qos: .atLeastOnce))
        } else {
            Issue.record("\(received)")
        }
        #expect(s.wantsWrite && s.write(at: 2) == nil)
        #expect(try Self.packets(broker.receive()).isEmpty == false)
    }

    @Test func aQuietLineIsPingedAndABrokerThatDoesNotAnswerIsGivenUp() throws {
        let broker = try FakeBroker()
        let s = try Self.connected(broker, keepAlive: 5)
        let second: UInt64 = 1_000_000_000
        #expect(s.keepAlive(at: 4 * second) == nil && !s.wantsWrite, "not quiet for 5 s yet")
        #expect(s.keepAlive(at: 5 * second) == nil && s.wantsWrite)
        #expect(s.write(at: 5 * second) == nil)
        #expect(broker.receive() == [0xC0, 0])
        #expect(s.keepAlive(at: 9 * second) == nil && s.fileDescriptor != nil)
        let reason = s.keepAlive(at: 10 * second)
        #expect(reason?.contains("no PINGRESP within the keep-alive of 5 s") == true, "\(reason ?? "nil")")
        #expect(s.fileDescriptor == nil)
    }

    @Test func aBrokerThatClosesTheConnectionIsReportedWithWhatToDo() throws {
        let broker = try FakeBroker()
        let s = try Self.connected(broker)
        close(broker.connection)
        broker.connection = -1
        Self.waitReadable(s.fileDescriptor)
        let reason = s.read(at: 1)
        #expect(reason?.contains("the broker closed the connection") == true, "\(reason ?? "nil")")
        #expect(s.fileDescriptor == nil)
    }
}
