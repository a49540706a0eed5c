import Foundation
import TestSupport
import Testing

/// The gateway as a service on a board: systemd's notifications and watchdog, SIGHUP reloads
/// that keep unchanged links, a clean SIGTERM, journald log lines, the local control socket and
/// the MQTT command topics — against the Bumble world and Debian's mosquitto.
@Suite(.serialized, .enabled(if: MosquittoBroker.isInstalled, MosquittoBroker.skipReason))
struct GatewayServiceTests {
    static let thingyService = "EF680100-9B35-4933-9B10-52FFA9740042"

    static func configuration(world: WorldProcess, broker: MosquittoBroker, directory: URL, thingy: Bool) -> String {
        var yaml = """
            gateway:
              id: svc
              state_dir: \(directory.appendingPathComponent("state").path)
              status_interval: 5
            adapters: ["tcp:127.0.0.1:\(world.hciPort)"]
            mqtt:
              url: \(broker.url)
            control:
              socket: \(directory.appendingPathComponent("svc.sock").path)
            devices:
              - name: heart
                address: C1:00:00:00:00:01/random
                subscribe: [2A37]
              - name: speed
                address: C2:00:00:00:00:01/random
                subscribe: [2A53]

            """
        if thingy {
            yaml += """
                  - name: thingy
                    service: \(thingyService)
                    subscribe: [EF680201-9B35-4933-9B10-52FFA9740042]

                """
        }
        return yaml
    }

    @Test(.timeLimit(.minutes(3)))
    func aReloadKeepsUnchangedLinksAndSystemdHearsEachStep() async throws {
        let broker = try MosquittoBroker()
        let directory = try PackagePaths.temporaryDirectory("reload")
        let notify = try NotifyListener(directory: directory)
        let subscriber = try BrokerSubscriber(port: broker.port, filters: ["rtstack/#"])
        let world = try await WorldProcess.start(["--rate", "5", "--distractors", "0"])
        defer { world.stop() }
        let file = directory.appendingPathComponent("gateway.yaml")
        try Self.configuration(world: world, broker: broker, directory: directory, thingy: false).write(to: file, atomically: true, encoding: .utf8)
        let gateway = try GatewayProcess(["--config", file.path, "--log-level", "info"],
                                         environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "1000000"])
        do {
            try await notify.wait("READY=1", timeout: 20) { $0.contains { $0.hasPrefix("READY=1") } }
            try await subscriber.wait("heart and speed ready", timeout: 45, until: GatewayFleetTests.ready(["heart", "speed"], gateway: "svc"))
            let pings = notify.datagrams.filter { $0 == "WATCHDOG=1" }.count
            try await notify.wait("two more WATCHDOG=1 (every 0.5 s for WatchdogSec=1)", timeout: 3) { d in
                d.filter { $0 == "WATCHDOG=1" }.count >= pings + 2
            }
        } catch {
            Issue.record("\(error)\n\(gateway.transcript)")
            throw error
        }
        #expect(notify.datagrams.first { $0.hasPrefix("READY=1") }?.contains("STATUS=") == true)

        // A broken file: reported, the running configuration kept.
        try "devices: [{name: x}\n".write(to: file, atomically: true, encoding: .utf8)
        gateway.signal(SIGHUP)
        try await notify.wait("READY=1 after the failed reload", timeout: 10) { d in
            d.filter { $0.hasPrefix("READY=1") }.count >= 2
        }
        #expect(gateway.stderrLines.contains { $0.contains("reload: the configuration has problems; keeping the running one") },
                "\(gateway.transcript)")

        let before = subscriber.messages.count
        try Self.configuration(world: world, broker: broker, directory: directory, thingy: true).write(to: file, atomically: true, encoding: .utf8)
        gateway.signal(SIGHUP)
        do {
            try await notify.wait("RELOADING=1 and READY=1", timeout: 10) { d in
                d.contains { $0.hasPrefix("RELOADING=1\nMONOTONIC_USEC=") } && d.filter { $0.hasPrefix("READY=1") }.count >= 3
            }
            try await subscriber.wait("the new Thingy ready", timeout: 30, until: GatewayFleetTests.ready(["thingy"], gateway: "svc"))
        } catch {
            Issue.record("\(error)\n\(gateway.transcript)")
            throw error
        }
        try await Task.sleep(for: .seconds(1))
        let after = Array(subscriber.messages[before...])
        for d in ["heart", "speed"] {
            let states = after.filter { $0.topic == "rtstack/svc/\(d)/state" }.compactMap { $0.json?["state"]?.string }
            #expect(!states.contains { $0 != "ready" }, "\(d) went through \(states) during the reload")
            #expect(after.contains { $0.topic == "rtstack/svc/\(d)/" + (d == "heart" ? "heart_rate" : "speed") },
                    "\(d) kept publishing")
        }
        #expect(world.events("disconnected").isEmpty, "a link was dropped by the reload: \(world.events("disconnected"))")

        let status = await gateway.terminate()
        #expect(status == 0, "\(gateway.transcript)")
        #expect(notify.datagrams.contains("STOPPING=1"))
        let closed = world.events("disconnected").compactMap { $0["peer"]?.string }
        #expect(Set(closed) == ["C1:00:00:00:00:01", "C2:00:00:00:00:01", "C3:00:00:00:00:01"], "SIGTERM disconnects every link: \(closed)")
        try await subscriber.wait("the gateway offline", timeout: 5) { $0.last { $0.topic == "rtstack/svc/status" }?.payload == "offline" }
    }

    @Test(.timeLimit(.minutes(3)))
    func aLocalProgramReadsWritesAndSubscribesOverTheControlSocket() async throws {
        let broker = try MosquittoBroker()
        let directory = try PackagePaths.temporaryDirectory("control")
        let subscriber = try BrokerSubscriber(port: broker.port, filters: ["rtstack/#"])
        let world = try await WorldProcess.start(["--rate", "5", "--distractors", "0", "--speed", "0", "--environment", "0"])
        defer { world.stop() }
        let socket = directory.appendingPathComponent("ctl.sock").path
        // stderr on a pipe whose device and inode JOURNAL_STREAM names: the lines journald wants.
        let stderr = Pipe()
        var st = stat()
        fstat(stderr.fileHandleForWriting.fileDescriptor, &st)
        let gateway = try GatewayProcess(["--adapter", "tcp:127.0.0.1:\(world.hciPort)", "--mqtt", broker.url, "--gateway-id", "ctl",
                                          "--state-dir", directory.appendingPathComponent("state").path, "--control-socket", socket,
                                          "--control-mode", "0600", "--mqtt-qos", "0", "--log-level", "info"],
                                         environment: ["JOURNAL_STREAM": "\(st.st_dev):\(st.st_ino)"], stderr: stderr)
        do {
            try await subscriber.wait("the heart ready", timeout: 45, until: GatewayFleetTests.ready(["heart"], gateway: "ctl"))
        } catch {
            Issue.record("\(error)\n\(gateway.transcript)")
            throw error
        }
        #expect(lstat(socket, &st) == 0 && st.st_mode & 0o777 == 0o600, "the socket file's mode: \(String(st.st_mode & 0o777, radix: 8))")
        #expect(gateway.stderrLines.contains { $0.hasPrefix("<5>MQTT: connected") }, "journald lines: \(gateway.stderrLines.prefix(5))")
        #expect(!gateway.stderrLines.contains { $0.hasPrefix("rtstack:") })

        let client = try ControlSocketClient(path: socket)
        let devices = try await client.call(#"{"id":1,"op":"devices"}"#, id: 1)
        #expect(devices["devices"]?.array?.first?["device"]?.string == "heart")
        let read = try await client.call(#"{"id":2,"op":"read","device":"heart","characteristic":"2A19"}"#, id: 2)
        #expect(read["ok"]?.bool == true && read["decoded"]?["battery"]?["unit"]?.string == "%", "\(read)")
        let write = try await client.call(#"{"id":3,"op":"write","device":"heart","characteristic":"2A39","value":"01"}"#, id: 3)
        #expect(write["ok"]?.bool == true, "\(write)")
        try await world.wait("the control point write", timeout: 5) { $0.contains { $0["event"]?.string == "hr_control_point" } }
        #expect(world.events("hr_control_point").first?["accepted"]?.bool == true)
        let refused = try await client.call(#"{"id":4,"op":"write","device":"heart","characteristic":"2A38","value":"02"}"#, id: 4)
        #expect(refused["ok"]?.bool == false && refused["error"]?.string?.contains("Write Not Permitted") == true, "\(refused)")
        let sub = try await client.call(#"{"id":5,"op":"subscribe","device":"heart","characteristic":"2A37"}"#, id: 5)
        #expect(sub["ok"]?.bool == true)
        let start = Date()
        while client.received.filter({ $0["event"]?.string == "notification" }).count < 3, seconds(since: start) < 10 {
            try await Task.sleep(for: .milliseconds(50))
        }
        let events = client.received.filter { $0["event"]?.string == "notification" }
        #expect(events.count >= 3 && events.allSatisfy { $0["device"]?.string == "heart" && $0["decoded"]?["heart_rate"] != nil },
                "\(events.prefix(3))")
        client.close()

        // The same through the broker: a read command, answered on the reply topic.
        let pub = try ChildProcess("/usr/bin/mosquitto_pub", ["-h", "127.0.0.1", "-p", "\(broker.port)", "-q", "1",
                                                            "-t", "rtstack/ctl/heart/read/2A19", "-m", #"{"id":"m1"}"#])
        pub.process.waitUntilExit()
        let replies = try await subscriber.wait("the reply", timeout: 10) { $0.contains { $0.topic == "rtstack/ctl/heart/reply" } }
        let reply = replies.first { $0.topic == "rtstack/ctl/heart/reply" }?.json
        #expect(reply?["id"]?.string == "m1" && reply?["ok"]?.bool == true && reply?["decoded"]?["battery"] != nil)
        // QoS 0 measurements (--mqtt-qos 0), QoS 1 states.
        let messages = subscriber.messages
        #expect(messages.filter { $0.topic == "rtstack/ctl/heart/heart_rate" }.allSatisfy { $0.qos == 0 })
        #expect(messages.filter { $0.topic == "rtstack/ctl/heart/state" }.allSatisfy { $0.qos == 1 })
        #expect(await gateway.terminate() == 0, "\(gateway.transcript)")
        #expect(!FileManager.default.fileExists(atPath: socket), "the socket file is removed at the end")
    }
}
