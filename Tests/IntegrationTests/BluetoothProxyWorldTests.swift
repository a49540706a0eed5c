import Foundation
import TestSupport
import Testing

/// `rtstack gateway --esphome` as Home Assistant's Bluetooth proxy on the Bumble world, driven by
/// Home Assistant's own client, aioesphomeapi (Tests/World/world/esphome_proxy_scenario.py):
/// device info, raw advertisements of the world's devices, connection slots going down and up,
/// connect v3 with and without cache, services, read, notify (the client writing the CCCD),
/// write, disconnect, a peer lost mid-connection; plaintext and encrypted, and a wrong key.
@Suite(.serialized, .enabled(if: ProxyClientVenv.python != nil, ProxyClientVenv.skipReason))
struct BluetoothProxyWorldTests {
    static let key = "AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA="
    static let heart = "C10000000001"
    /// Passive scan, active connections, remote caching, pairing (an HCI adapter's host pairs),
    /// cache clearing, raw advertisements, scanner state and mode.
    static let features = 1 | 2 | 4 | 8 | 16 | 32 | 64

    struct Run {
        var facts: [JSONValue]
        var world: WorldProcess
        var gateway: GatewayProcess

        func fact(_ name: String) -> JSONValue? { facts.first { $0[name] != nil }?[name] }
        func all(_ name: String) -> [JSONValue] { facts.compactMap { $0[name] } }
        var transcript: String { "client: \(facts.map(\.description))\n\(gateway.transcript)" }
    }

    /// The world, the gateway serving the API on a port of its choosing, and the client's run
    /// of the scenario to its end.
    func run(serverKey: String?, clientKey: String?, listen: Double = 3) async throws -> Run {
        try await run(serverKey: serverKey, clientKey: clientKey) { port, world in
            ["-m", "world.esphome_proxy_scenario", "--port", "\(port)", "--world-control", "\(world.controlPort)", "--listen", "\(listen)"]
        }
    }

    /// The same with another client script: `client` gives its arguments for the port and world.
    func run(serverKey: String?, clientKey: String?, client: (Int, WorldProcess) -> [String]) async throws -> Run {
        let world = try await WorldProcess.start(["--rate", "5", "--distractors", "2"])
        let directory = try PackagePaths.temporaryDirectory("proxy")
        var arguments = ["--adapter", "tcp:127.0.0.1:\(world.hciPort)", "--esphome", "127.0.0.1:0", "--esphome-name", "rtstack-world",
                         "--state-dir", directory.path, "--control-socket", "off", "--log-level", "info"]
        if let serverKey { arguments += ["--esphome-key", serverKey] }
        let gateway = try GatewayProcess(arguments)
        let port = try await Self.listeningPort(gateway)
        var clientArguments = client(port, world)
        if let clientKey { clientArguments += ["--key", clientKey] }
        let run = try await ProxyClientRun.run(clientArguments, timeout: 120)
        if run.facts.isEmpty { Issue.record("the client printed nothing; stderr: \(run.stderr)") }
        return Run(facts: run.facts, world: world, gateway: gateway)
    }

    /// The port the gateway logged it listens on (asked for port 0).
    static func listeningPort(_ gateway: GatewayProcess) async throws -> Int {
        let started = Date()
        while Date().timeIntervalSince(started) < 20 {
            for line in gateway.stderrLines {
                if let match = line.firstMatch(of: /Bluetooth proxy API on [^ ]*:([0-9]+)/), let port = Int(match.output.1) { return port }
            }
            guard gateway.isRunning else { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw IntegrationFailure("the gateway did not say where it listens:\n\(gateway.transcript)")
    }

    func checkScenario(_ r: Run) {
        let info = r.fact("device_info")
        #expect(info?["name"]?.string == "rtstack-world", "\(r.transcript)")
        #expect(info?["feature_flags"]?.int == Self.features)
        #expect(info?["bluetooth_mac_address"]?.string?.count == 17)
        #expect(r.fact("connections_free")?.array?.map(\.description) == ["5", "5", "[]"], "5 slots, none held, no own devices")

        // Raw advertisements: every world device, with its RSSI and the name it advertises.
        let heard = r.fact("advertisements")
        for d in r.world.devices {
            let key = d.address.replacingOccurrences(of: ":", with: "")
            let entry = heard?[key]
            #expect(entry != nil, "\(d.name) (\(d.address)) heard")
            #expect((entry?["rssi"]?.int ?? 0) < 0, "\(d.name): an RSSI")
            #expect(entry?["address_type"]?.int == 1, "\(d.name): random")
            if let name = d.localName { #expect(entry?["names"]?.array?.contains { $0.string == name } == true, "\(d.name) named \(name)") }
        }
        #expect(r.fact("scanner_states")?.array?.first?.array?.map(\.description) == ["2", "1"], "running, active")

        // Connect v3 without cache, services, read, notify with the client's CCCD write, write.
        let connects = r.all("connected")
        #expect(connects.map { $0["with_cache"]?.bool } == [false, true])
        #expect((connects.first?["mtu"]?.int ?? 0) >= 23)
        let held = r.fact("connections_free_connected")?.array
        #expect(held?.first?.int == 4 && held?.last?.array?.first?.int == 0xC100_0000_0001, "a slot taken by Heart 1")
        #expect(r.fact("services")?.array?.contains { $0.string == "0000180d-0000-1000-8000-00805f9b34fb" } == true)
        let read = r.fact("read")?["value"]?.string
        #expect(read == "01", "Body Sensor Location: chest")
        #expect(r.fact("read_with_cache")?.string == read, "the same value through a link made with cache")
        let notifications = r.fact("notifications")
        #expect(notifications?["values"]?.array?.count == 3)
        let cccd = notifications?["cccd"]?.int
        let cccdWrites = r.world.events("att_write").filter { $0["device"]?.string == "Heart 1" && $0["uuid"]?.string == "2902" }
        #expect(cccdWrites.count == 1, "the client's CCCD write, and no second one by the proxy: \(cccdWrites.map(\.description))")
        #expect(cccdWrites.first?["handle"]?.int == cccd)
        #expect(r.fact("wrote") != nil)
        #expect(r.world.events("hr_control_point").count == 1, "the write reached the sensor")

        // Disconnect, and the slot back; a peer lost mid-connection, with its reason.
        #expect(r.fact("disconnected")?.array?.first?.bool == false)
        #expect(r.fact("connections_free_after")?.array?.first?.int == 5)
        #expect(r.fact("lost")?.array?.map(\.description) == ["false", "0", "19"], "Remote User Terminated Connection (0x13)")
        #expect(r.fact("connections_free_end")?.array?.map(\.description) == ["5", "5", "[]"])
        #expect(r.facts.last?["done"]?.bool == true, "\(r.transcript)")
    }

    @Test(.timeLimit(.minutes(3)))
    func homeAssistantsClientUsesThePlaintextProxyEndToEnd() async throws {
        let r = try await run(serverKey: nil, clientKey: nil)
        defer { r.world.stop() }
        checkScenario(r)
        #expect(await r.gateway.terminate() == 0, "\(r.gateway.transcript)")
    }

    @Test(.timeLimit(.minutes(3)))
    func homeAssistantsClientUsesTheEncryptedProxyEndToEnd() async throws {
        let r = try await run(serverKey: Self.key, clientKey: Self.key)
        defer { r.world.stop() }
        checkScenario(r)
        #expect(await r.gateway.terminate() == 0, "\(r.gateway.transcript)")
    }

    @Test(.timeLimit(.minutes(2)), .enabled(if: ProxyClientVenv.has("bleak_esphome"), "bleak-esphome is not in .venv-world: run `scripts/world setup`"))
    func bleakThroughBleakESPHomeAndHabluetoothConnectsReadsAndIsNotifiedThroughTheGateway() async throws {
        let r = try await run(serverKey: Self.key, clientKey: Self.key) { port, _ in
            ["-m", "world.bleak_client", "--port", "\(port)", "--address", "C1:00:00:00:00:01",
             "--read", "00002a38-0000-1000-8000-00805f9b34fb", "--notify", "00002a37-0000-1000-8000-00805f9b34fb"]
        }
        defer { r.world.stop() }
        #expect(r.fact("connected")?.bool == true, "\(r.transcript)")
        #expect(r.fact("read")?.string == "01", "Body Sensor Location through a BleakClient")
        #expect(r.fact("notified")?.string?.isEmpty == false)
        #expect(r.world.events("att_write").filter { $0["device"]?.string == "Heart 1" && $0["uuid"]?.string == "2902" }.count == 1,
                "bleak-esphome wrote the CCCD, the proxy did not")
        #expect(r.facts.last?["done"]?.bool == true, "\(r.transcript)")
        #expect(await r.gateway.terminate() == 0)
    }

    @Test(.timeLimit(.minutes(2)))
    func aClientWithAnotherKeyIsRefused() async throws {
        let r = try await run(serverKey: Self.key, clientKey: "IB8eHRwbGhkYFxYVFBMSERAPDg0MCwoJCAcGBQQDAgE=")
        defer { r.world.stop() }
        #expect(r.facts.first?["error"]?.string == "InvalidEncryptionKeyAPIError", "\(r.transcript)")
        #expect(r.world.events("connected").isEmpty, "nothing connected for it")
        #expect(await r.gateway.terminate() == 0)
    }
}

/// The test world's venv with aioesphomeapi (Tests/World/requirements.txt, `scripts/world setup`).
enum ProxyClientVenv {
    /// Whether the venv holds this Python package too.
    static func has(_ package: String) -> Bool {
        let lib = PackagePaths.root.appendingPathComponent(".venv-world/lib").path
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: lib)) ?? []
        return python != nil && versions.contains { FileManager.default.fileExists(atPath: "\(lib)/\($0)/site-packages/\(package)") }
    }

    static let python: String? = {
        let root = PackagePaths.root
        let path = root.appendingPathComponent(".venv-world/bin/python").path
        let lib = root.appendingPathComponent(".venv-world/lib").path
        guard FileManager.default.isExecutableFile(atPath: path),
              let versions = try? FileManager.default.contentsOfDirectory(atPath: lib),
              versions.contains(where: { FileManager.default.fileExists(atPath: "\(lib)/\($0)/site-packages/aioesphomeapi") })
        else { return nil }
        return path
    }()
    static let skipReason: Comment = "aioesphomeapi is not installed in .venv-world: run `scripts/world setup`"
}
