import Foundation
import TestSupport
import Testing

/// Issue 13's fleet on one machine: one mosquitto broker, gateway processes each with its own
/// world of sensors, an independent subscriber (`mosquitto_sub`) that checks every notification
/// arrived exactly once and in order, per sensor. The world's counters make each value name its
/// notification (Tests/World/README.md): a heart's Energy Expended and a speed pod's Total
/// Distance are the notification's sequence number; a Thingy's temperature follows it too.
@Suite(.serialized, .enabled(if: MosquittoBroker.isInstalled, MosquittoBroker.skipReason))
struct GatewayFleetTests {
    static let thingyTemperature = "EF680201-9B35-4933-9B10-52FFA9740042"

    /// A gateway with the defaults (the run session's three sensor kinds) on one world.
    static func gateway(_ id: String, adapter: String, broker: MosquittoBroker, directory: URL, extra: [String] = []) throws -> GatewayProcess {
        try GatewayProcess(["--adapter", adapter, "--mqtt", broker.url, "--gateway-id", id,
                            "--state-dir", directory.appendingPathComponent(id).path,
                            "--control-socket", directory.appendingPathComponent("\(id).sock").path,
                            "--status-interval", "5"] + extra)
    }

    static func ready(_ devices: [String], gateway: String) -> ([BrokerMessage]) -> Bool {
        { m in
            devices.allSatisfy { d in
                m.contains { $0.topic == "rtstack/\(gateway)/\(d)/state" && $0.json?["state"]?.string == "ready" }
            }
        }
    }

    /// What the world sent, as the published quantity reads: heart → energy_expended (= seq),
    /// speed → total_distance in m (= seq), Thingy → temperature (20.00 + (seq mod 50) / 10).
    static func sent(_ world: WorldProcess) -> (heart: [Double], speed: [Double], thingy: [Double]) {
        (world.notifications(device: "Heart 1", uuid: "2A37").map { Double($0.seq) },
         world.notifications(device: "Speed 1", uuid: "2A53").map { Double($0.seq) },
         world.notifications(device: "Thingy 1", uuid: thingyTemperature).map { 20 + Double($0.seq % 50) / 10 })
    }

    @Test(.timeLimit(.minutes(4)))
    func threeGatewaysOneBrokerEveryNotificationOnceInOrder() async throws {
        let broker = try MosquittoBroker()
        let directory = try PackagePaths.temporaryDirectory("fleet")
        let subscriber = try BrokerSubscriber(port: broker.port, filters: ["rtstack/#"])
        async let w1 = WorldProcess.start(["--rate", "10", "--distractors", "1"])
        async let w2 = WorldProcess.start(["--rate", "10", "--distractors", "1"])
        async let w3 = WorldProcess.start(["--rate", "10", "--distractors", "1"])
        let worlds = try await [w1, w2, w3]
        defer { for w in worlds { w.stop() } }
        let ids = ["fleet1", "fleet2", "fleet3"]
        var gateways: [GatewayProcess] = []
        for (id, w) in zip(ids, worlds) {
            gateways.append(try Self.gateway(id, adapter: "tcp:127.0.0.1:\(w.hciPort)", broker: broker, directory: directory))
        }
        for (id, g) in zip(ids, gateways) {
            do {
                try await subscriber.wait("\(id)'s three sensors ready", timeout: 45,
                                          until: Self.ready(["heart", "speed", "environment"], gateway: id))
            } catch {
                Issue.record("\(error)\n\(g.transcript)")
                throw error
            }
        }
        try await Task.sleep(for: .seconds(6))
        for g in gateways {
            let status = await g.terminate()
            #expect(status == 0, "\(g.transcript)")
        }
        try await subscriber.wait("every gateway offline", timeout: 10) { m in
            ids.allSatisfy { id in m.last { $0.topic == "rtstack/\(id)/status" }?.payload == "offline" }
        }
        try await Task.sleep(for: .milliseconds(500))
        let messages = subscriber.messages
        for (id, w) in zip(ids, worlds) {
            let sent = Self.sent(w)
            GatewayChecks.exactlyOnceInOrder(published: PublishedDevice(messages, gateway: id, device: "heart").values("energy_expended"),
                                             sent: sent.heart, "\(id) heart")
            GatewayChecks.exactlyOnceInOrder(published: PublishedDevice(messages, gateway: id, device: "speed").values("total_distance"),
                                             sent: sent.speed, "\(id) speed")
            GatewayChecks.exactlyOnceInOrder(published: PublishedDevice(messages, gateway: id, device: "environment").values("temperature"),
                                             sent: sent.thingy, "\(id) Thingy")
            #expect(sent.heart.count >= 50, "\(id): \(sent.heart.count) heart notifications in the run")
            // The gateways' topics do not mix: each one's devices are its world's.
            let heart = PublishedDevice(messages, gateway: id, device: "heart")
            #expect(heart.states.allSatisfy { $0["adapter"] == nil || $0["adapter"]?.string == "tcp:127.0.0.1:\(w.hciPort)" })
        }
    }

    /// The Zephyr world's heart-rate sensor (a real link layer on BabbleSim) through a gateway,
    /// next to a gateway on a Bumble world, both to one broker. Its bpm counts the seconds since
    /// the world started (90 … 159, then 90 again), one notification a second: each value names
    /// its notification, so the published ones must step by exactly one.
    @Test(.timeLimit(.minutes(10)))
    func aZephyrGatewayJoinsTheFleet() async throws {
        let zephyr = try await BsimWorld.start(["hr", "esp"])
        let broker = try MosquittoBroker()
        let directory = try PackagePaths.temporaryDirectory("fleet-zephyr")
        let subscriber = try BrokerSubscriber(port: broker.port, filters: ["rtstack/#"])
        let bumble = try await WorldProcess.start(["--rate", "5", "--distractors", "0"])
        defer { bumble.stop() }
        let z = try Self.gateway("zephyr", adapter: "serial:\(zephyr.hciPTY)@1000000", broker: broker, directory: directory)
        let b = try Self.gateway("bumble", adapter: "tcp:127.0.0.1:\(bumble.hciPort)", broker: broker, directory: directory)
        do {
            try await subscriber.wait("the Zephyr heart-rate sensor ready", timeout: 60, until: Self.ready(["heart"], gateway: "zephyr"))
            try await subscriber.wait("the Bumble sensors ready", timeout: 45, until: Self.ready(["heart", "speed", "environment"], gateway: "bumble"))
        } catch {
            Issue.record("\(error)\n\(z.transcript)\n\(b.transcript)")
            await zephyr.stop()
            throw error
        }
        try await Task.sleep(for: .seconds(8))
        #expect(await z.terminate() == 0, "\(z.transcript)")
        #expect(await b.terminate() == 0, "\(b.transcript)")
        await zephyr.stop()
        let messages = subscriber.messages
        let bpm = PublishedDevice(messages, gateway: "zephyr", device: "heart").values("heart_rate")
        #expect(bpm.count >= 6, "\(bpm.count) heart-rate values from the Zephyr sensor in 8 s")
        for (a, b) in zip(bpm, bpm.dropFirst()) {
            #expect(b == (a >= 159 ? 90 : a + 1), "Zephyr heart rate \(a) then \(b): a notification lost or repeated (\(bpm))")
        }
        GatewayChecks.exactlyOnceInOrder(published: PublishedDevice(messages, gateway: "bumble", device: "heart").values("energy_expended"),
                                         sent: Self.sent(bumble).heart, "bumble heart")
        #expect(zephyr.leftBehind.isEmpty, "the Zephyr world left \(zephyr.leftBehind)")
    }
}
