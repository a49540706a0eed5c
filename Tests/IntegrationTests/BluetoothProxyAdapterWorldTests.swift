import Foundation
import TestSupport
import Testing

/// `rtstack gateway --esphome` over two controllers of the Bumble world (`--hosts 2`, the second
/// 20 dB weaker), driven by Home Assistant's client, aioesphomeapi
/// (Tests/World/world/esphome_proxy_adapters_scenario.py): the slots of both adapters add up, a
/// link goes where most slots are free among the adapters that hear the device, and when the
/// first adapter is lost its link is reported down, the slots recounted, and the client's
/// reconnect lands on the second.
@Suite(.serialized, .enabled(if: ProxyClientVenv.python != nil, ProxyClientVenv.skipReason))
struct BluetoothProxyAdapterWorldTests {
    static let heart = 0xC100_0000_0001
    static let speed = 0xC200_0000_0001

    @Test(.timeLimit(.minutes(3)))
    func theSlotsOfTwoAdaptersAddUpAndALinkOnALostAdapterIsMadeAgainOnTheOther() async throws {
        let world = try await WorldProcess.start(["--hosts", "2", "--host-rssi-offset", "0,-20", "--rate", "5", "--distractors", "0"])
        defer { world.stop() }
        let ports = try GatewayFaultTests.hostPorts(world)
        let directory = try PackagePaths.temporaryDirectory("proxy-adapters")
        let gateway = try GatewayProcess(["--adapter", "tcp:127.0.0.1:\(ports[0]),tcp:127.0.0.1:\(ports[1])", "--esphome", "127.0.0.1:0",
                                          "--esphome-name", "rtstack-two", "--state-dir", directory.path, "--control-socket", "off",
                                          "--log-level", "info"])
        let port = try await ProxyClientRun.listeningPort(gateway)
        let run = try await ProxyClientOutput.run(["-m", "world.esphome_proxy_adapters_scenario", "--port", "\(port)",
                                                "--world-control", "\(world.controlPort)", "--listen", "3"], limit: 120)
        let facts = run.facts
        let fact = run.fact
        let transcript = "client: \(facts.map(\.description))\nstderr: \(run.stderr)\n\(gateway.transcript)"

        #expect(fact("connections_free")?.array?.map(\.description) == ["10", "10", "[]"], "5 assumed on each of two adapters: \(transcript)")
        #expect(fact("heard")?.array?.count == 2, "both devices advertised through the proxy")
        #expect(fact("connections_free_both")?.array?.map(\.description) == ["8", "10", "[\(Self.heart),\(Self.speed)]"])
        // Which controller made each link: the world's own record of the connections.
        let links = world.events("connected").compactMap { e -> (String, String)? in
            guard let c = e["controller"]?.string, let p = e["peer"]?.string else { return nil }
            return (c, String(p.prefix(17)))
        }
        let heartLinks = links.filter { $0.1 == "C1:00:00:00:00:01" }.map(\.0)
        let speedLinks = links.filter { $0.1 == "C2:00:00:00:00:01" }.map(\.0)
        #expect(heartLinks == ["host", "host2"], "Heart 1 first on the louder adapter (as many free), then on the one left: \(links)")
        #expect(speedLinks == ["host2"], "Speed 1 where more slots were free: \(links)")

        #expect(fact("lost")?.array?.map(\.description) == ["false", "0", "22"], "ESP_GATT_CONN_TERMINATE_LOCAL_HOST (0x16)")
        #expect(fact("connections_free_lost")?.array?.map(\.description) == ["4", "5", "[\(Self.speed)]"],
                "the lost adapter's slots are gone from the count")
        #expect(fact("reconnected")?.array?.first?.bool == true)
        #expect(fact("read_after")?.string == "01", "Body Sensor Location read through the second adapter")
        #expect(fact("connections_free_again")?.array?.map(\.description) == ["3", "5", "[\(Self.heart),\(Self.speed)]"])
        #expect(fact("speed_states")?.array?.count == 1, "Speed 1 stayed connected through the loss")
        #expect(facts.last?["done"]?.bool == true, "\(transcript)")
        #expect(await gateway.terminate() == 0, "\(gateway.transcript)")
    }
}
