import Foundation
import TestSupport
import Testing

/// `rtstack gateway --esphome` as Home Assistant's Bluetooth proxy on the Bumble world, driven by
/// Home Assistant's own client, aioesphomeapi (Tests/World/world/esphome_proxy_scenario.py):
/// device info, raw advertisements of the world's devices, connection slots going down and up,
/// connect v3 with and without cache, services, read, notify (the client writing the CCCD),
/// write, disconnect, an absent device given up, a peer lost mid-connection; plaintext and
/// encrypted, and a wrong key. The same scenario runs on the Zephyr world (BluetoothProxyZephyrTests).
@Suite(.serialized, .enabled(if: ProxyClientVenv.python != nil, ProxyClientVenv.skipReason))
struct BluetoothProxyWorldTests {
    static let key = "AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA="
    static let heart: UInt64 = 0xC100_0000_0001

    struct Run {
        var client: ProxyClientRun
        var world: WorldProcess

        var facts: [JSONValue] { client.facts }
        var gateway: GatewayProcess { client.gateway }
        func fact(_ name: String) -> JSONValue? { client.fact(name) }
        var transcript: String { client.transcript }
    }

    /// The world, the gateway serving the API on a port of its choosing, and the client's run
    /// of the scenario to its end.
    func run(serverKey: String?, clientKey: String?, listen: Double = 3) async throws -> Run {
        try await run(serverKey: serverKey, clientKey: clientKey) { port, world in
            ["-m", "world.esphome_proxy_scenario", "--port", "\(port)", "--world-control", "\(world.controlPort)", "--listen", "\(listen)",
             "--write", "2a39"]
        }
    }

    /// The same with another client script: `client` gives its arguments for the port and world.
    func run(serverKey: String?, clientKey: String?, client: (Int, WorldProcess) -> [String]) async throws -> Run {
        let world = try await WorldProcess.start(["--rate", "5", "--distractors", "2"])
        var arguments = ["--adapter", "tcp:127.0.0.1:\(world.hciPort)", "--esphome-name", "rtstack-world"]
        if let serverKey { arguments += ["--esphome-key", serverKey] }
        let run = try await ProxyClientRun.start(arguments, clientKey: clientKey, limit: 120) { client($0, world) }
        return Run(client: run, world: world)
    }

    func checkScenario(_ r: Run) {
        r.client.checkScenario(name: "rtstack-world", heart: Self.heart)

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

        // The client's CCCD write, the write of the control point.
        let cccd = r.fact("notifications")?["cccd"]?.int
        let cccdWrites = r.world.events("att_write").filter { $0["device"]?.string == "Heart 1" && $0["uuid"]?.string == "2902" }
        #expect(cccdWrites.count == 1, "the client's CCCD write, and no second one by the proxy: \(cccdWrites.map(\.description))")
        #expect(cccdWrites.first?["handle"]?.int == cccd)
        #expect(r.fact("wrote") != nil)
        #expect(r.world.events("hr_control_point").count == 1, "the write reached the sensor")

        // A peer lost mid-connection, with its reason.
        #expect(r.fact("lost")?.array?.map(\.description) == ["false", "0", "19"], "Remote User Terminated Connection (0x13)")
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
