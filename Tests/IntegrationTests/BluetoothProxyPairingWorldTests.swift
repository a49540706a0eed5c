import Foundation
import TestSupport
import Testing

/// Pairing through `rtstack gateway --esphome`, driven by Home Assistant's client, aioesphomeapi
/// (Tests/World/world/esphome_proxy_pairing_scenario.py), with a Bumble world device whose
/// characteristic needs an encrypted link (`--secure just-works`): the pairing flag, pair
/// (Just Works, the bond kept in the state directory), the read that needs encryption, pair
/// again (answered at once), unpair (the bond file gone, the link ended), pair with no link.
@Suite(.serialized, .enabled(if: ProxyClientVenv.python != nil, ProxyClientVenv.skipReason))
struct BluetoothProxyPairingWorldTests {
    @Test(.timeLimit(.minutes(2)))
    func homeAssistantsClientPairsAndUnpairsThroughTheGateway() async throws {
        let world = try await WorldProcess.start(["--speed", "0", "--environment", "0", "--distractors", "0", "--rate", "1",
                                                  "--secure", "just-works"])
        defer { world.stop() }
        let directory = try PackagePaths.temporaryDirectory("proxy-pairing")
        let gateway = try GatewayProcess(["--adapter", "tcp:127.0.0.1:\(world.hciPort)", "--esphome", "127.0.0.1:0",
                                          "--esphome-name", "rtstack-pairing", "--state-dir", directory.path,
                                          "--control-socket", "off", "--log-level", "info"])
        let port = try await ProxyClientRun.listeningPort(gateway)
        let run = try await ProxyClientOutput.run(["-m", "world.esphome_proxy_pairing_scenario", "--port", "\(port)",
                                                "--state-dir", directory.path], limit: 90)
        let facts = run.facts
        let fact = run.fact
        let transcript = "client: \(facts.map(\.description))\nstderr: \(run.stderr)\n\(gateway.transcript)"

        #expect(((fact("feature_flags")?.int ?? 0) & 8) != 0, "the pairing flag: \(transcript)")
        #expect(fact("connected")?.array?.first?.bool == true)
        #expect(fact("paired")?["paired"]?.bool == true && fact("paired")?["error"]?.int == 0, "\(fact("paired")?.description ?? "")")
        let bonds = fact("bonds_after_pair")?.array?.compactMap(\.string) ?? []
        #expect(bonds.count == 1 && bonds.first?.hasPrefix("bond-") == true, "the bond kept in the state directory: \(bonds)")
        #expect(world.events("paired").filter { $0["device"]?.string == "Secure 1" }.count == 1, "one pairing, as the peer saw it")
        #expect(fact("read")?.string == "encrypted", "the characteristic that needs an encrypted link")
        #expect(fact("paired_again")?["paired"]?.bool == true, "already encrypted: paired at once")
        #expect(fact("unpaired")?["success"]?.bool == true)
        #expect(fact("bonds_after_unpair")?.array?.isEmpty == true, "the bond file removed")
        #expect(fact("dropped")?.array?.first?.bool == false, "the link encrypted with the bond's key ended")
        #expect(fact("pair_unconnected")?["paired"]?.bool == false && fact("pair_unconnected")?["error"]?.int == -1,
                "no link: ESPHome's not connected")
        #expect(world.events("paired").count == 1, "the read was not what paired (pair was asked first)")
        #expect(facts.last?["done"]?.bool == true, "\(transcript)")
        #expect(await gateway.terminate() == 0, "\(gateway.transcript)")
    }
}
