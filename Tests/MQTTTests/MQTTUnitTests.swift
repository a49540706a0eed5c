import Testing
import TestSupport
@testable import MQTT

@Suite struct MQTTBrokerURLTests {
    @Test func parses() throws {
        #expect(try MQTTBrokerURL(parsing: "mqtt://broker") == MQTTBrokerURL(host: "broker", port: 1883))
        #expect(try MQTTBrokerURL(parsing: "mqtts://broker.lan") == MQTTBrokerURL(host: "broker.lan", port: 8883, usesTLS: true))
        #expect(try MQTTBrokerURL(parsing: "mqtt://10.0.0.2:1884/") == MQTTBrokerURL(host: "10.0.0.2", port: 1884))
        #expect(try MQTTBrokerURL(parsing: "mqtt://[::1]:1885") == MQTTBrokerURL(host: "::1", port: 1885))
        let withUser = try MQTTBrokerURL(parsing: "mqtts://gw:s3cr:et@h:9")
        #expect(withUser.username == "gw" && withUser.password == "s3cr:et" && withUser.port == 9)
        #expect(withUser.description == "mqtts://h:9")
        #expect(MQTTBrokerURL(host: "::1", port: 1).description == "mqtt://[::1]:1")
    }

    @Test func refusesWithAReason() {
        let bad: [(String, String)] = [
            ("tcp://h", "the scheme must be mqtt:// or mqtts://"),
            ("mqtt://", "no host"),
            ("mqtt://h:0", "port '0' is not a number from 1 to 65535"),
            ("mqtt://h:x", "port 'x' is not a number from 1 to 65535"),
            ("mqtt://h/topic", "a broker URL has no path, query or fragment"),
            ("mqtt://[::1", "unclosed '[' around an IPv6 address"),
            ("mqtt://@h", "empty user name before '@'"),
        ]
        for (text, reason) in bad {
            #expect(throws: MQTTError.invalidURL(text, reason: reason)) { try MQTTBrokerURL(parsing: text) }
        }
        #expect(MQTTError.invalidURL("x", reason: "r").description
                == "invalid MQTT broker 'x': r; expected mqtt://HOST[:PORT] or mqtts://HOST[:PORT]")
    }
}

@Suite struct MQTTTopicTests {
    @Test func publishTopics() {
        #expect(MQTTMessage.problem(publishingTo: "rtstack/gw/heart/heart_rate") == nil)
        #expect(MQTTMessage.problem(publishingTo: "") == "empty topic")
        #expect(MQTTMessage.problem(publishingTo: "a/+/b") == "topic 'a/+/b' contains a wildcard (+ or #)")
        #expect(MQTTMessage.problem(publishingTo: "a/#") != nil)
        #expect(MQTTMessage.problem(publishingTo: "a\u{0}b") == "topic contains a NUL character")
    }

    @Test func subscriptionFilters() {
        for ok in ["a/b", "a/+/c", "+", "#", "a/#", "+/+/#", "/"] { #expect(MQTTMessage.problem(subscribingTo: ok) == nil, "\(ok)") }
        #expect(MQTTMessage.problem(subscribingTo: "a/#/b") == "'#' must be alone in the last level of 'a/#/b'")
        #expect(MQTTMessage.problem(subscribingTo: "a/b#") == "'#' must be alone in the last level of 'a/b#'")
        #expect(MQTTMessage.problem(subscribingTo: "a/b+") == "'+' must be alone in its level of 'a/b+'")
        #expect(MQTTMessage.problem(subscribingTo: "") == "empty topic filter")
    }
}

@Suite struct MQTTOutboxTests {
    static func m(_ n: Int, _ qos: MQTTQoS = .atLeastOnce) -> MQTTMessage { MQTTMessage(topic: "t", text: "\(n)", qos: qos) }

    @Test func holdsUpToTheLimitThenDropsTheOldestWaiting() {
        var box = MQTTOutbox(limit: 3)
        for i in 1...3 { #expect(box.enqueue(Self.m(i), id: MQTTPublishID(UInt64(i))) == nil) }
        box.markInFlight(MQTTPublishID(1), mid: 11)          // #1 is on the wire: never dropped
        #expect(box.enqueue(Self.m(4), id: MQTTPublishID(4)) == MQTTPublishID(2))
        #expect(box.enqueue(Self.m(5), id: MQTTPublishID(5)) == MQTTPublishID(3))
        #expect(box.count == 3 && box.inFlightCount == 1 && box.waitingCount == 2)
        #expect(box.takeDropped() == 2 && box.takeDropped() == 0 && box.droppedTotal == 2)
        #expect(box.nextWaiting()?.id == MQTTPublishID(4))
    }

    @Test func everythingInFlightDropsTheNewMessage() {
        var box = MQTTOutbox(limit: 2)
        _ = box.enqueue(Self.m(1), id: MQTTPublishID(1))
        _ = box.enqueue(Self.m(2), id: MQTTPublishID(2))
        box.markInFlight(MQTTPublishID(1), mid: 1)
        box.markInFlight(MQTTPublishID(2), mid: 2)
        #expect(box.enqueue(Self.m(3), id: MQTTPublishID(3)) == MQTTPublishID(3))
        #expect(box.count == 2 && box.droppedTotal == 1)
    }

    @Test func acknowledgementsInAnyOrderAndRequeueInOrder() {
        var box = MQTTOutbox(limit: 100)
        for i in 1...6 { _ = box.enqueue(Self.m(i), id: MQTTPublishID(UInt64(i))) }
        for i in 1...4 { box.markInFlight(MQTTPublishID(UInt64(i)), mid: UInt16(100 + i)) }
        #expect(box.acknowledge(mid: 102) == MQTTPublishID(2))    // a QoS 0 written before a QoS 1's PUBACK
        #expect(box.acknowledge(mid: 102) == nil)
        #expect(box.acknowledge(mid: 999) == nil)
        #expect(box.acknowledge(mid: 101) == MQTTPublishID(1))
        // The connection drops with #3 and #4 unacknowledged: they go first again.
        box.requeueInFlight()
        #expect(box.inFlightCount == 0 && box.count == 4)
        var order: [UInt64] = []
        while let e = box.nextWaiting() {
            order.append(e.id.rawValue)
            box.markInFlight(e.id, mid: UInt16(e.id.rawValue))
            _ = box.acknowledge(mid: UInt16(e.id.rawValue))
        }
        #expect(order == [3, 4, 5, 6])
        #expect(box.count == 0)
    }

    /// The oldest waiting message is found past the in-flight ones (the outbox keeps a cursor),
    /// also when a younger one went in flight first, after the front was compacted away under
    /// the cursor, and after a requeue.
    @Test func theOldestWaitingIsFoundWhateverWentInFlightFirst() {
        var box = MQTTOutbox(limit: 1000)
        for i in 1...200 { _ = box.enqueue(Self.m(i), id: MQTTPublishID(UInt64(i))) }
        box.markInFlight(MQTTPublishID(2), mid: 2)
        #expect(box.nextWaiting()?.id == MQTTPublishID(1))
        box.markInFlight(MQTTPublishID(1), mid: 1)
        #expect(box.nextWaiting()?.id == MQTTPublishID(3))
        for i in 3...150 { box.markInFlight(MQTTPublishID(UInt64(i)), mid: UInt16(i)) }
        for i in 1...150 { #expect(box.acknowledge(mid: UInt16(i)) == MQTTPublishID(UInt64(i))) }
        #expect(box.count == 50 && box.inFlightCount == 0)
        #expect(box.nextWaiting()?.id == MQTTPublishID(151))
        box.markInFlight(MQTTPublishID(151), mid: 151)
        #expect(box.nextWaiting()?.id == MQTTPublishID(152))
        box.requeueInFlight()
        #expect(box.nextWaiting()?.id == MQTTPublishID(151))
    }

    /// Many messages through a small box, with connections dropping now and then: the count,
    /// the in-flight count and the drops always add up, and what is acknowledged comes out in
    /// publish order.
    @Test func longRunKeepsItsBooks() {
        var box = MQTTOutbox(limit: 50)
        var rng = SplitMix64(seed: 0x0B0C)
        var next: UInt64 = 1
        var acknowledged: [UInt64] = []
        var dropped = 0
        for round in 0..<5000 {
            for _ in 0..<rng.below(6) {
                if box.enqueue(Self.m(Int(next)), id: MQTTPublishID(next)) != nil { dropped += 1 }
                next += 1
            }
            if round % 7 == 0 { box.requeueInFlight() }
            while box.inFlightCount < 8, let e = box.nextWaiting() {
                box.markInFlight(e.id, mid: UInt16(truncatingIfNeeded: e.id.rawValue))
            }
            // PUBACKs for up to four of the oldest in flight, in order.
            var acks = rng.below(5)
            var id = (acknowledged.last ?? 0) + 1
            while acks > 0, id < next {
                if let got = box.acknowledge(mid: UInt16(truncatingIfNeeded: id)) { acknowledged.append(got.rawValue); acks -= 1 }
                id += 1
            }
            #expect(box.count <= 50 && box.inFlightCount <= 8 && box.inFlightCount <= box.count)
        }
        #expect(acknowledged == acknowledged.sorted() && Set(acknowledged).count == acknowledged.count)
        #expect(box.droppedTotal == dropped && dropped > 0)
        #expect(UInt64(acknowledged.count + dropped + box.count) == next - 1)
    }
}

@Suite struct MQTTConfigurationTests {
    @Test func problemsAreNamed() throws {
        let url = try MQTTBrokerURL(parsing: "mqtt://h")
        #expect(MQTTClientConfiguration(broker: url, clientID: "c").problem == nil)
        #expect(MQTTClientConfiguration(broker: url, clientID: "").problem == "client id must be 1 to 65535 octets")
        #expect(MQTTClientConfiguration(broker: url, clientID: "c", keepAlive: 1).problem == "keep-alive must be 5 to 65535 seconds, got 1")
        #expect(MQTTClientConfiguration(broker: url, clientID: "c", queueLimit: 0).problem == "queue limit must be at least 1, got 0")
        #expect(MQTTClientConfiguration(broker: url, clientID: "c", caFile: "/ca").problem
                == "a CA file is given but the broker URL is mqtt:// (use mqtts://)")
        #expect(MQTTClientConfiguration(broker: url, clientID: "c", availability: .init(topic: "a/#")).problem
                == "availability topic: topic 'a/#' contains a wildcard (+ or #)")
        let tls = try MQTTBrokerURL(parsing: "mqtts://h")
        #expect(MQTTClientConfiguration(broker: tls, clientID: "c", certificateFile: "/c").problem
                == "a client certificate needs both a certificate and a key file")
        #expect(throws: MQTTError.invalidSetting("cannot read '/nonexistent/ca.pem': No such file or directory")) {
            try MQTTClient(configuration: MQTTClientConfiguration(broker: tls, clientID: "c", caFile: "/nonexistent/ca.pem"))
        }
    }

    @Test func aMissingLibraryNamesTheDebianPackage() {
        #expect(throws: MQTTError.self) { try MosquittoLibrary.load("libmosquitto.so.999") }
        do {
            _ = try MosquittoLibrary.load("libmosquitto.so.999")
        } catch {
            #expect(error.description.contains("apt install libmosquitto1"))
            #expect(error.description.contains("libmosquitto.so.999"))
        }
    }

    @Test(.enabled(if: MosquittoLibrary.shared.isLoaded, "libmosquitto.so.1 is not installed (Debian package libmosquitto1)"))
    func theInstalledLibraryLoads() throws {
        let lib = try MosquittoLibrary.shared.get()
        #expect(lib.version.major >= 2)
        #expect(lib.errorText(7) == "The connection was lost.")
        #expect(lib.connackText(5) == "Connection Refused: not authorised.")
    }
}

extension Result where Success == MosquittoLibrary {
    var isLoaded: Bool { if case .success = self { return true } else { return false } }
}
