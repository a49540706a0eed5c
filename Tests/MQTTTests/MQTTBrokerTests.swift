import Testing
import Foundation
import TestSupport
import Timing
@testable import MQTT

/// The client against Debian's mosquitto broker, with Debian's mosquitto_pub / mosquitto_sub
/// as independent peers where one is needed.
@Suite(.serialized, .enabled(if: MosquittoBroker.isInstalled, MosquittoBroker.skipReason), .ownThread)
struct MQTTBrokerTests {
    static let sub = "/usr/bin/mosquitto_sub"
    static let pub = "/usr/bin/mosquitto_pub"

    static func config(_ broker: MosquittoBroker, _ id: String, queueLimit: Int = 10_000,
                       availability: String? = nil) throws -> MQTTClientConfiguration {
        MQTTClientConfiguration(broker: try MQTTBrokerURL(parsing: broker.url), clientID: id, keepAlive: 5,
                                availability: availability.map { .init(topic: $0) }, queueLimit: queueLimit,
                                reconnect: Backoff(initial: 100_000_000, maximum: 500_000_000, jitter: 0.2))
    }

    static func seq(_ m: MQTTMessage) -> Int? { Int(m.text) }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: sub), "mosquitto_sub/mosquitto_pub are not installed (Debian package mosquitto-clients; scripts/setup installs it)"))
    func roundTripWithDebiansClients() throws {
        let broker = try MosquittoBroker()
        let gw = try ClientHarness(Self.config(broker, "gw", availability: "rt/gw/status"))
        try gw.client.subscribe("cmd/#", qos: .atLeastOnce)
        #expect(drive([gw], timeout: 10) { gw.connections == 1 && gw.subscribedCount("cmd/#") == 1 }, "\(gw.events)")

        // Our publishes, seen by mosquitto_sub; the retained availability tells when it is subscribed.
        let sub = try ChildProcess(Self.sub, ["-h", "127.0.0.1", "-p", "\(broker.port)", "-t", "rt/#", "-v", "-q", "1"])
        #expect(sub.waitForLine(containing: "rt/gw/status online", timeout: 10) { drive([gw], timeout: 0.05) { false } }, "\(sub.text)")
        let a = try gw.client.publish(MQTTMessage(topic: "rt/a", text: "one", qos: .atMostOnce))
        let b = try gw.client.publish(MQTTMessage(topic: "rt/b", text: "two", qos: .atLeastOnce))
        #expect(drive([gw], timeout: 10) { Set(gw.delivered).isSuperset(of: [a, b]) }, "\(gw.events)")
        #expect(sub.waitForLine(containing: "rt/b two", timeout: 10), "\(sub.text)")
        #expect(sub.lines.contains("rt/a one"))

        // mosquitto_pub's message, seen on our subscription.
        let p = try ChildProcess(Self.pub, ["-h", "127.0.0.1", "-p", "\(broker.port)", "-t", "cmd/read", "-m", "{\"id\":1}", "-q", "1"])
        #expect(drive([gw], timeout: 10) { !gw.received.isEmpty }, "\(gw.events) \(p.text)")
        #expect(gw.received.first == MQTTMessage(topic: "cmd/read", text: "{\"id\":1}", qos: .atLeastOnce, retain: false))
        #expect(gw.client.statistics.received == 1 && gw.client.statistics.delivered == 2)
    }

    /// QoS 1 across a broker crash: messages published before, at the crash (written to the
    /// socket, never acknowledged) and during the outage (queued) all arrive once the broker is
    /// back, in order of first arrival. QoS 1 lets the broker see one twice; duplicates are
    /// counted. (The broker is frozen with SIGSTOP before it is killed, so that the messages on
    /// the wire stay unacknowledged: a broker without persistence that acknowledged a message and
    /// crashed before forwarding it has lost it, and no client can know.)
    @Test func qos1SurvivesABrokerKillAndRestart() throws {
        let broker = try MosquittoBroker()
        let sub = try ClientHarness(Self.config(broker, "sub"))
        try sub.client.subscribe("seq/#", qos: .atLeastOnce)
        let pub = try ClientHarness(Self.config(broker, "pub", queueLimit: 1000))
        #expect(drive([sub, pub], timeout: 10) { sub.subscribedCount("seq/#") == 1 && pub.connections == 1 })

        for i in 1...50 { try pub.client.publish(MQTTMessage(topic: "seq/n", text: "\(i)", qos: .atLeastOnce)) }
        #expect(drive([sub, pub], timeout: 10) { sub.received.count >= 50 && pub.delivered.count == 50 })
        // Written to the socket of a frozen broker: in flight, no PUBACK.
        broker.freeze()
        for i in 51...80 { try pub.client.publish(MQTTMessage(topic: "seq/n", text: "\(i)", qos: .atLeastOnce)) }
        drive([sub, pub], timeout: 0.3) { false }
        #expect(pub.client.statistics.inFlight == 30 && pub.delivered.count == 50)
        broker.kill()
        #expect(drive([sub, pub], timeout: 10) { pub.failures.count >= 1 && sub.failures.count >= 1 }, "\(pub.events)")
        // Published while the broker is away: queued behind the 30 that go again.
        for i in 81...150 { try pub.client.publish(MQTTMessage(topic: "seq/n", text: "\(i)", qos: .atLeastOnce)) }
        #expect(pub.client.statistics.queued == 100 && pub.client.statistics.inFlight == 0)
        try broker.restart()
        // The subscriber first (a broker without persistence forgot its subscription).
        #expect(drive([sub], timeout: 10) { sub.subscribedCount("seq/#") == 2 }, "\(sub.events)")
        #expect(drive([sub, pub], timeout: 20) { Set(sub.received.compactMap(Self.seq)).count >= 150 },
                "\(sub.received.count) received; \(pub.events.suffix(5))")

        let seqs = sub.received.compactMap(Self.seq)
        var firstArrival: [Int] = []
        var seen = Set<Int>()
        for s in seqs where seen.insert(s).inserted { firstArrival.append(s) }
        #expect(firstArrival == Array(1...150))
        #expect(pub.client.statistics.dropped == 0)
        #expect(pub.connections == 2)
        #expect(pub.count { if case .connectionLost = $0 { return true } else { return false } } >= 1)
        #expect(drive([sub, pub], timeout: 10) { pub.client.statistics.queued == 0 && pub.delivered.count == 150 })
        print("qos1SurvivesABrokerKillAndRestart: \(seqs.count - 150) duplicate(s) of 150 after the crash (QoS 1 allows them)")
    }

    /// Beyond the queue bound the oldest waiting messages are dropped, counted, and reported
    /// after the reconnection; the newest ones arrive.
    @Test func aFullQueueDropsTheOldestAndReportsTheCount() throws {
        let broker = try MosquittoBroker()
        let sub = try ClientHarness(Self.config(broker, "sub"))
        try sub.client.subscribe("seq/#", qos: .atLeastOnce)
        let pub = try ClientHarness(Self.config(broker, "pub", queueLimit: 20))
        #expect(drive([sub, pub], timeout: 10) { sub.subscribedCount("seq/#") == 1 && pub.connections == 1 })
        broker.kill()
        #expect(drive([sub, pub], timeout: 10) { pub.failures.count >= 1 })
        for i in 1...50 { try pub.client.publish(MQTTMessage(topic: "seq/n", text: "\(i)", qos: .atLeastOnce)) }
        #expect(pub.client.statistics.dropped == 30 && pub.client.statistics.queued == 20)
        try broker.restart()
        #expect(drive([sub], timeout: 10) { sub.subscribedCount("seq/#") == 2 })
        #expect(drive([sub, pub], timeout: 20) { sub.received.count >= 20 && pub.events.contains(.dropped(count: 30)) }, "\(pub.events)")
        #expect(sub.received.compactMap(Self.seq) == Array(31...50))
        // The report comes right after the connection that follows the drops, once.
        let connected = try #require(pub.events.lastIndex(of: .connected))
        #expect(pub.events[connected + 1] == .dropped(count: 30))
        #expect(pub.count { if case .dropped = $0 { return true } else { return false } } == 1)
    }

    /// A gateway process killed with SIGKILL sends no DISCONNECT: the broker publishes its last
    /// will ("offline", retained) on the availability topic, seen by mosquitto_sub.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: sub), "mosquitto_sub is not installed (Debian package mosquitto-clients)"))
    func lastWillAfterSIGKILL() throws {
        let probePath = try #require(ProbePaths.executable("rtstack-mqtt-probe"),
                                     "rtstack-mqtt-probe is not built next to the tests (swift build --build-tests builds it)")
        let broker = try MosquittoBroker()
        let probe = try ChildProcess(probePath, [broker.url, "probe-1", "rt/probe/status"])
        #expect(probe.waitForLine(containing: "connected", timeout: 10), "\(probe.text)")
        let sub = try ChildProcess(Self.sub, ["-h", "127.0.0.1", "-p", "\(broker.port)", "-t", "rt/probe/status", "-v"])
        #expect(sub.waitForLine(containing: "rt/probe/status online", timeout: 10), "\(sub.text)")
        let killedAt = MQTTClock.now()
        probe.terminate(signal: SIGKILL)
        #expect(sub.waitForLine(containing: "rt/probe/status offline", timeout: 10), "\(sub.text)\n\(broker.log)")
        print("lastWillAfterSIGKILL: will seen \((MQTTClock.now() - killedAt) / 1_000_000) ms after SIGKILL")
        // Retained: a subscriber that comes later still sees the gateway offline.
        let late = try ChildProcess(Self.sub, ["-h", "127.0.0.1", "-p", "\(broker.port)", "-t", "rt/probe/status", "-C", "1"])
        #expect(late.waitForLine(containing: "offline", timeout: 10))
    }

    /// A clean stop publishes "offline" itself (the broker sends no will after a DISCONNECT),
    /// and the client ends in `.stopped`.
    @Test func cleanStopPublishesOffline() throws {
        let broker = try MosquittoBroker()
        let watcher = try ClientHarness(Self.config(broker, "watcher"))
        try watcher.client.subscribe("rt/gw/status", qos: .atLeastOnce)
        let gw = try ClientHarness(Self.config(broker, "gw", availability: "rt/gw/status"))
        #expect(drive([watcher, gw], timeout: 10) { watcher.received.map(\.text).contains("online") })
        gw.client.stop(at: MQTTClock.now())
        #expect(drive([watcher, gw], timeout: 10) { gw.events.contains(.stopped) && watcher.received.map(\.text).contains("offline") })
        #expect(gw.client.state == .stopped && gw.client.fileDescriptor == nil)
    }

    @Test func usernameAndPassword() throws {
        let dir = try TemporaryDirectory.make("passwd")
        let file = dir.appendingPathComponent("passwd").path
        let make = try ChildProcess("/usr/bin/mosquitto_passwd", ["-b", "-c", file, "gw", "right horse"])
        make.process.waitUntilExit()
        try #require(make.process.terminationStatus == 0, "mosquitto_passwd: \(make.text)")
        chmod(file, 0o644)   // the broker may drop root for the mosquitto user
        let broker = try MosquittoBroker(passwordFile: file)
        var wrong = try Self.config(broker, "wrong")
        wrong.username = "gw"
        wrong.password = "battery staple"
        let bad = try ClientHarness(wrong)
        #expect(drive([bad], timeout: 10) { !bad.failures.isEmpty })
        #expect(bad.failures.first?.contains("not authorised") == true, "\(bad.failures)")
        #expect(bad.client.lastProblem?.contains("not authorised") == true)
        // Issue 17 §2: the refusal says which settings to check.
        #expect(bad.failures.first?.contains("check mqtt.username and the password") == true, "\(bad.failures)")
        let good = try ClientHarness(MQTTClientConfiguration(broker: MQTTBrokerURL(parsing: "mqtt://gw:right%20horse@127.0.0.1:\(broker.port)"),
                                                             clientID: "good", password: "right horse"))
        #expect(drive([good], timeout: 10) { good.connections == 1 }, "\(good.events)")
    }

    /// mqtts:// with a CA made at test time: the right CA connects and a message goes round;
    /// a CA that did not sign the broker's certificate is refused with a TLS reason.
    @Test(.enabled(if: TestCertificates.opensslPath != nil, "openssl is not installed (scripts/setup installs it)"))
    func tlsWithATestCA() throws {
        let certs = try TestCertificates.make()
        chmod(certs.keyFile, 0o644)
        let broker = try MosquittoBroker(tls: .init(caFile: certs.caFile, certificateFile: certs.certificateFile, keyFile: certs.keyFile))
        let url = try MQTTBrokerURL(parsing: "mqtts://localhost:\(broker.port)")
        let good = try ClientHarness(MQTTClientConfiguration(broker: url, clientID: "tls", caFile: certs.caFile,
                                                             availability: .init(topic: "rt/tls/status")))
        try good.client.subscribe("rt/tls/#", qos: .atLeastOnce)
        #expect(drive([good], timeout: 10) { good.subscribedCount("rt/tls/#") == 1 }, "\(good.events)\n\(broker.log)")
        let id = try good.client.publish(MQTTMessage(topic: "rt/tls/x", text: "secret", qos: .atLeastOnce))
        #expect(drive([good], timeout: 10) { good.delivered.contains(id) && good.received.contains { $0.text == "secret" } })
        #expect(good.received.contains { $0.topic == "rt/tls/status" && $0.text == "online" && $0.retain })

        let wrongCA = try ClientHarness(MQTTClientConfiguration(broker: url, clientID: "tls-bad", caFile: certs.otherCAFile,
                                                                reconnect: Backoff(initial: 5_000_000_000, maximum: 30_000_000_000, jitter: 0.2)))
        #expect(drive([wrongCA], timeout: 10) { !wrongCA.failures.isEmpty })
        #expect(wrongCA.connections == 0)
        print("tlsWithATestCA: wrong CA refused: \(wrongCA.failures)")
        #expect(wrongCA.failures.first?.contains("--mqtt-ca") == true, "\(wrongCA.failures)")
    }

    /// No broker: attempts fail with the reason and wait longer each time.
    @Test func refusedConnectionsBackOff() throws {
        let port = try FreePort.find()
        let h = try ClientHarness(MQTTClientConfiguration(broker: MQTTBrokerURL(parsing: "mqtt://127.0.0.1:\(port)"), clientID: "x",
                                                          reconnect: Backoff(initial: 100_000_000, maximum: 1_000_000_000)))
        let start = MQTTClock.now()
        #expect(drive([h], timeout: 10) { h.failures.count >= 4 })
        let retries = h.events.compactMap { e -> Int64? in if case .connectFailed(_, let t) = e { return Int64(t) } else { return nil } }
        let gaps = zip(retries.dropFirst(), retries).map { $0 - $1 }
        #expect(gaps.count >= 3)
        for (later, earlier) in zip(gaps.dropFirst(), gaps) { #expect(later > earlier) }
        #expect(h.failures.allSatisfy { $0.contains("refused") || $0.contains("lost") }, "\(h.failures)")
        #expect(h.failures.contains { $0.contains("start the broker") }, "\(h.failures)")
        #expect(MQTTClock.now() - start >= 700_000_000)   // 0.1 + 0.2 + 0.4 s
        #expect(h.client.statistics.connectFailures >= 4)
    }
}
