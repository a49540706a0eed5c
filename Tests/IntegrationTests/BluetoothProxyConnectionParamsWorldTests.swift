import Foundation
import TestSupport
import Testing

/// Connection parameters through `rtstack gateway --esphome`, driven by Home Assistant's client,
/// aioesphomeapi (Tests/World/world/esphome_proxy_params_scenario.py), on the Bumble world: the
/// flag in device info, the request answered without error, the peer's link layer given the new
/// parameters (the world's `connection_parameters` event at Heart 1), a device with no link
/// refused with ESPHome's not connected.
@Suite(.serialized, .enabled(if: ProxyClientVenv.python != nil, ProxyClientVenv.skipReason))
struct BluetoothProxyConnectionParamsWorldTests {
    @Test(.timeLimit(.minutes(2)))
    func homeAssistantsClientSetsTheConnectionParametersOfItsLink() async throws {
        let world = try await WorldProcess.start(["--speed", "0", "--environment", "0", "--distractors", "0", "--rate", "1"])
        defer { world.stop() }
        let run = try await ProxyClientRun.start(["--adapter", "tcp:127.0.0.1:\(world.hciPort)", "--esphome-name", "rtstack-params"],
                                                 clientKey: nil, limit: 90) { ["-m", "world.esphome_proxy_params_scenario", "--port", "\($0)"] }
        let transcript = run.transcript

        #expect(run.fact("feature_flags")?.int == ProxyClientRun.features, "the connection parameters flag (1 << 7): \(transcript)")
        #expect(run.fact("connected")?.array?.first?.bool == true, "\(transcript)")
        #expect(run.fact("parameters_set") != nil, "answered with no error: \(transcript)")
        // The Bumble controller takes Connection_Interval_Max as the interval: 16 × 1.25 ms.
        let updates = world.events("connection_parameters").filter { $0["device"]?.string == "Heart 1" }
        #expect(updates.count == 1, "one update at the peer: \(updates)")
        #expect(updates.last?["interval_ms"]?.double == 20, "\(updates)")
        #expect(updates.last?["latency"]?.int == 2)
        #expect(updates.last?["supervision_timeout_ms"]?.double == 3000)
        #expect(run.fact("absent")?["error"]?.int == -1, "no link: ESPHome's not connected")
        #expect(run.fact("disconnected")?.array?.first?.bool == false)
        #expect(run.facts.last?["done"]?.bool == true, "\(transcript)")
        #expect(await run.gateway.terminate() == 0, "\(run.gateway.transcript)")
    }
}
