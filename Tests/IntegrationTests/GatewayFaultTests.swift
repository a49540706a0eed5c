import Foundation
import TestSupport
import Testing

/// Issue 13's faults, each against real peers: the broker killed and restarted mid-run, a
/// gateway killed, an adapter lost and back, the connection slots of one adapter exhausted while
/// another has room.
@Suite(.serialized, .enabled(if: MosquittoBroker.isInstalled, MosquittoBroker.skipReason))
struct GatewayFaultTests {
    static let three = ["heart", "speed", "environment"]

    /// The broker frozen (SIGSTOP: what was written to it stays unacknowledged), killed and
    /// started again on its port while the sensors keep notifying: the gateway holds what the
    /// broker did not take (up to its queue bound, far above this run's few hundred messages)
    /// and sends it after reconnecting. A durable subscriber (clean session off, persistence on)
    /// must then hold every heart notification, in order; QoS 1 allows repeats, not gaps.
    @Test(.timeLimit(.minutes(3)))
    func theBrokerKilledAndRestartedLosesNothingWithinTheQueueBound() async throws {
        let broker = try MosquittoBroker(persistent: true)
        let directory = try PackagePaths.temporaryDirectory("broker-restart")
        let subscriber = try BrokerSubscriber(port: broker.port, filters: ["rtstack/#"], clientID: "durable")
        let world = try await WorldProcess.start(["--rate", "20", "--distractors", "0"])
        defer { world.stop() }
        let gateway = try GatewayFleetTests.gateway("restart", adapter: "tcp:127.0.0.1:\(world.hciPort)", broker: broker,
                                                    directory: directory, extra: ["--mqtt-queue-limit", "5000"])
        do {
            try await subscriber.wait("the sensors ready", timeout: 45, until: GatewayFleetTests.ready(Self.three, gateway: "restart"))
        } catch {
            Issue.record("\(error)\n\(gateway.transcript)")
            throw error
        }
        try await Task.sleep(for: .seconds(2))
        broker.freeze()
        try await Task.sleep(for: .seconds(2))
        broker.kill()
        try await Task.sleep(for: .seconds(1))
        let beforeRestart = subscriber.messages.count
        try broker.start()
        try await subscriber.wait("messages again after the restart", timeout: 30) { $0.count > beforeRestart + 200 }
        try await Task.sleep(for: .seconds(3))
        #expect(await gateway.terminate() == 0, "\(gateway.transcript)")
        try await subscriber.wait("the gateway offline", timeout: 10) { m in
            m.last { $0.topic == "rtstack/restart/status" }?.payload == "offline"
        }
        let messages = subscriber.messages
        let sent = GatewayFleetTests.sent(world)
        GatewayChecks.noGaps(published: PublishedDevice(messages, gateway: "restart", device: "heart").values("energy_expended"),
                             sent: sent.heart, "heart across the broker restart")
        GatewayChecks.noGaps(published: PublishedDevice(messages, gateway: "restart", device: "speed").values("total_distance"),
                             sent: sent.speed, "speed across the broker restart")
        let lost = messages.filter { $0.topic == "rtstack/restart/gateway" }.compactMap { $0.json?["mqtt"]?["connections_lost"]?.int }
        #expect(lost.contains { $0 >= 1 }, "the gateway's status counts the lost connection: \(lost)")
        #expect(gateway.stderrLines.contains { $0.contains("MQTT: connected") }, "\(gateway.transcript)")
    }

    /// SIGKILL leaves no time to say goodbye: the broker publishes the gateway's last will,
    /// `offline`, retained — a subscriber that comes later still reads it.
    @Test(.timeLimit(.minutes(2)))
    func aKilledGatewaysLastWillIsSeen() async throws {
        let broker = try MosquittoBroker()
        let directory = try PackagePaths.temporaryDirectory("will")
        let subscriber = try BrokerSubscriber(port: broker.port, filters: ["rtstack/will/status"])
        let world = try await WorldProcess.start(["--rate", "5", "--distractors", "0", "--speed", "0", "--environment", "0"])
        defer { world.stop() }
        let gateway = try GatewayFleetTests.gateway("will", adapter: "tcp:127.0.0.1:\(world.hciPort)", broker: broker, directory: directory)
        try await subscriber.wait("online", timeout: 30) { $0.last?.payload == "online" }
        gateway.signal(SIGKILL)
        _ = await gateway.exitStatus(timeout: 5)
        try await subscriber.wait("the last will", timeout: 10) { $0.last?.payload == "offline" }
        let late = try BrokerSubscriber(port: broker.port, filters: ["rtstack/will/status"])
        let retained = try await late.wait("the retained status", timeout: 10) { !$0.isEmpty }
        #expect(retained.first?.payload == "offline" && retained.first?.retained == true)
    }

    /// Two controllers on one air (`--hosts 2`, the second 20 dB weaker, so every link starts on
    /// the first). The first is lost (`hci_drop`: its connection cut, new ones refused for 4 s):
    /// its links move to the second, and it is reported down, then up once it is back.
    @Test(.timeLimit(.minutes(3)))
    func anAdapterLostAndBack() async throws {
        let broker = try MosquittoBroker()
        let directory = try PackagePaths.temporaryDirectory("adapter-lost")
        let subscriber = try BrokerSubscriber(port: broker.port, filters: ["rtstack/#"])
        let world = try await WorldProcess.start(["--hosts", "2", "--host-rssi-offset", "0,-20", "--rate", "10", "--distractors", "0"])
        defer { world.stop() }
        let ports = try Self.hostPorts(world)
        let first = "tcp:127.0.0.1:\(ports[0])", second = "tcp:127.0.0.1:\(ports[1])"
        let gateway = try GatewayFleetTests.gateway("lost", adapter: first + "," + second, broker: broker, directory: directory)
        func onAdapter(_ adapter: String) -> ([BrokerMessage]) -> Bool {
            { m in
                Self.three.allSatisfy { d in
                    let s = m.last { $0.topic == "rtstack/lost/\(d)/state" }?.json
                    return s?["state"]?.string == "ready" && s?["adapter"]?.string == adapter
                }
            }
        }
        do {
            try await subscriber.wait("every link on the stronger adapter", timeout: 45, until: onAdapter(first))
        } catch {
            Issue.record("\(error)\n\(gateway.transcript)")
            throw error
        }
        let firstTopic = "rtstack/lost/adapter/tcp_127_0_0_1_\(ports[0])"
        try world.control(#"{"cmd":"hci_drop","host":0,"refuse_s":4}"#)
        try await subscriber.wait("the first adapter down", timeout: 10) { m in
            m.contains { $0.topic == firstTopic && $0.json?["state"]?.string == "down" }
        }
        do {
            try await subscriber.wait("every link moved to the second adapter", timeout: 30, until: onAdapter(second))
            try await subscriber.wait("the first adapter back up", timeout: 30) { m in
                m.last { $0.topic == firstTopic }?.json?["state"]?.string == "up"
            }
        } catch {
            Issue.record("\(error)\n\(gateway.transcript)")
            throw error
        }
        let down = subscriber.messages(firstTopic).first { $0.json?["state"]?.string == "down" }
        #expect(down?.json?["reason"]?.string?.contains("closed the connection") == true, "\(down?.payload ?? "")")
        #expect(await gateway.terminate() == 0, "\(gateway.transcript)")
        // The heart kept counting through the move: values after it continue those before.
        let energy = PublishedDevice(subscriber.messages, gateway: "lost", device: "heart").values("energy_expended")
        #expect(energy == energy.sorted() && Set(energy).count == energy.count, "heart values repeated or out of order: \(energy)")
    }

    /// The first controller takes one link (`--slot-limit 1,0`) and hears better: the first
    /// sensor goes there, the next ones are refused with Connection Limit Exceeded (0x09),
    /// which teaches the gateway that adapter's limit — reported in its status, with the reason
    /// — and the links go to the second. `rtstack status` and `rtstack adapters` show the slots.
    @Test(.timeLimit(.minutes(3)))
    func slotsExhaustedOnOneAdapterWithAnotherFree() async throws {
        let broker = try MosquittoBroker()
        let directory = try PackagePaths.temporaryDirectory("slots")
        let subscriber = try BrokerSubscriber(port: broker.port, filters: ["rtstack/#"])
        let world = try await WorldProcess.start(["--hosts", "2", "--slot-limit", "1,0", "--host-rssi-offset", "0,-20",
                                                  "--rate", "5", "--distractors", "0"])
        defer { world.stop() }
        let ports = try Self.hostPorts(world)
        let first = "tcp:127.0.0.1:\(ports[0])", second = "tcp:127.0.0.1:\(ports[1])"
        let socket = directory.appendingPathComponent("slots.sock").path
        let gateway = try GatewayFleetTests.gateway("slots", adapter: first + "," + second, broker: broker, directory: directory)
        do {
            try await subscriber.wait("the sensors ready", timeout: 45, until: GatewayFleetTests.ready(Self.three, gateway: "slots"))
        } catch {
            Issue.record("\(error)\n\(gateway.transcript)")
            throw error
        }
        let messages = subscriber.messages
        let adapters = Self.three.compactMap { PublishedDevice(messages, gateway: "slots", device: $0).lastState?["adapter"]?.string }
        #expect(adapters.filter { $0 == first }.count == 1 && adapters.filter { $0 == second }.count == 2, "\(adapters)")
        let status = subscriber.messages("rtstack/slots/adapter/tcp_127_0_0_1_\(ports[0])").last?.json
        #expect(status?["slot_limit"]?.int == 1 && status?["slots_free"]?.int == 0, "\(String(describing: status))")
        #expect(status?["reason"]?.string?.contains("Connection Limit Exceeded (0x09)") == true)
        let moved = messages.filter { $0.topic.hasSuffix("/state") }.compactMap { $0.json?["reason"]?.string }
        #expect(moved.contains { $0.contains("Connection Limit Exceeded (0x09)") }, "the reason is published with the device")
        #expect(!world.events("slot_refused").isEmpty, "the world refused a create")

        let shown = try await RtstackProcess.run(["status", "--control-socket", socket], timeout: 10)
        #expect(shown.status == 0, "\(shown.transcript)")
        let row = shown.stdout.first { $0.hasPrefix(first) }
        #expect(row?.contains("1/0") == true, "slots used/free of the full adapter: \(shown.stdout)")
        #expect(shown.stdout.contains { $0.hasPrefix(second) && $0.contains("2/?") }, "\(shown.stdout)")
        let listed = try await RtstackProcess.run(["adapters", "--control-socket", socket], timeout: 10)
        #expect(listed.stdout.contains { $0.contains(first) && $0.contains("1/0") }, "\(listed.transcript)")
        #expect(await gateway.terminate() == 0, "\(gateway.transcript)")
    }

    static func hostPorts(_ world: WorldProcess) throws -> [UInt16] {
        let ports = JSONValue.parse(world.readyLine)?["hci_ports"]?.array?.compactMap { $0.int.flatMap(UInt16.init(exactly:)) } ?? []
        guard ports.count == 2 else { throw IntegrationFailure("the world has no two HCI ports: \(world.readyLine)") }
        return ports
    }
}
