import Foundation
import Testing
import TestSupport

/// `rtstack gateway --esphome 127.0.0.1:0` and one run of a client script of the test world's
/// venv (aioesphomeapi) against it, to the script's end: what both worlds' proxy tests share.
struct ProxyClientRun {
    var facts: [JSONValue]
    var gateway: GatewayProcess

    func fact(_ name: String) -> JSONValue? { facts.first { $0[name] != nil }?[name] }
    func all(_ name: String) -> [JSONValue] { facts.compactMap { $0[name] } }
    var transcript: String { "client: \(facts.map(\.description))\n\(gateway.transcript)" }

    /// Starts the gateway with `gatewayArguments` (its adapters, name, key…) serving the API on
    /// a port of its choosing, then the client with the arguments `client` gives for that port
    /// (and `--key` when given); waits at most `limit` s for the client to end. The gateway's
    /// state goes to `stateDirectory`, else to a new temporary one.
    static func start(_ gatewayArguments: [String], stateDirectory: URL? = nil, clientKey: String?, limit: Double,
                      client: (Int) -> [String]) async throws -> ProxyClientRun {
        let directory = try stateDirectory ?? PackagePaths.temporaryDirectory("proxy")
        let gateway = try GatewayProcess(gatewayArguments + ["--esphome", "127.0.0.1:0", "--state-dir", directory.path,
                                                             "--control-socket", "off", "--log-level", "info"])
        let port = try await listeningPort(gateway)
        var clientArguments = client(port)
        if let clientKey { clientArguments += ["--key", clientKey] }
        let output = try await ProxyClientOutput.run(clientArguments, limit: limit)
        if output.facts.isEmpty { Issue.record("the client printed nothing; stderr: \(output.stderr)") }
        return ProxyClientRun(facts: output.facts, gateway: gateway)
    }

    /// The port the gateway logged it listens on (asked for port 0).
    static func listeningPort(_ gateway: GatewayProcess) async throws -> Int {
        let port = await poll(for: 60) { () -> Int? in
            for line in gateway.stderrLines {
                if let match = line.firstMatch(of: /Bluetooth proxy API on [^ ]*:([0-9]+)/), let port = Int(match.output.1) { return port }
            }
            return gateway.isRunning ? nil : -1   // ended: no point in waiting
        }
        if let port, port >= 0 { return port }
        throw IntegrationFailure("the gateway did not say where it listens:\n\(gateway.transcript)")
    }

    /// What `esphome_proxy_scenario.py` must show on either world: device info and flags, the
    /// slots offered, down while the heart is held and up again, the scanner running actively
    /// (and on beside the heart's link), connect v3 without then with cache, the Heart Rate service, Body Sensor Location read as
    /// chest through both links, the notifications after the client's CCCD write, the disconnect
    /// answered, the connect to an absent device given up (its disconnect answered, its slot
    /// back, the next connect served), and the scenario's end.
    func checkScenario(name: String, heart: UInt64, sourceLocation: SourceLocation = #_sourceLocation) {
        let info = fact("device_info")
        #expect(info?["name"]?.string == name, "\(transcript)", sourceLocation: sourceLocation)
        #expect(info?["feature_flags"]?.int == Self.features, sourceLocation: sourceLocation)
        #expect(info?["bluetooth_mac_address"]?.string?.count == 17, sourceLocation: sourceLocation)
        #expect(fact("connections_free")?.array?.map(\.description) == ["5", "5", "[]"], "5 slots, none held, no own devices",
                sourceLocation: sourceLocation)
        #expect(fact("scanner_states")?.array?.first?.array?.map(\.description) == ["2", "1"], "running, active",
                sourceLocation: sourceLocation)

        let connects = all("connected")
        #expect(connects.map { $0["with_cache"]?.bool } == [false, true], sourceLocation: sourceLocation)
        #expect((connects.first?["mtu"]?.int ?? 0) >= 23, sourceLocation: sourceLocation)
        let held = fact("connections_free_connected")?.array
        #expect(held?.first?.int == 4 && held?.last?.array?.first?.int.map(UInt64.init) == heart, "a slot taken by the heart",
                sourceLocation: sourceLocation)
        var heardBeside: [String] = []
        if case .object(let heard)? = fact("heard_while_connected") { heardBeside = heard.keys.filter { UInt64($0, radix: 16) != heart } }
        #expect(!heardBeside.isEmpty, "advertisements of other devices went on while the heart was connected", sourceLocation: sourceLocation)
        #expect(fact("services")?.array?.contains { $0.string == "0000180d-0000-1000-8000-00805f9b34fb" } == true,
                sourceLocation: sourceLocation)
        let read = fact("read")?["value"]?.string
        #expect(read == "01", "Body Sensor Location: chest", sourceLocation: sourceLocation)
        #expect(fact("read_with_cache")?.string == read, "the same value through a link made with cache", sourceLocation: sourceLocation)
        #expect(fact("notifications")?["values"]?.array?.count == 3, sourceLocation: sourceLocation)
        #expect(fact("disconnected")?.array?.first?.bool == false, sourceLocation: sourceLocation)
        #expect(fact("connections_free_after")?.array?.first?.int == 5, sourceLocation: sourceLocation)
        #expect(fact("gave_up")?["error"]?.string == "TimeoutAPIError" && fact("gave_up")?["disconnect_timed_out"]?.bool == false,
                "the client gave up on the absent device; the proxy answered its disconnect request: \(fact("gave_up")?.description ?? "none")",
                sourceLocation: sourceLocation)
        #expect(fact("connections_free_gave_up")?.array?.first?.int == 5, "the slot back", sourceLocation: sourceLocation)
        #expect(fact("connections_free_end")?.array?.map(\.description) == ["5", "5", "[]"], sourceLocation: sourceLocation)
        #expect(facts.last?["done"]?.bool == true, "\(transcript)", sourceLocation: sourceLocation)
    }

    /// Passive scan, active connections, remote caching, pairing (an HCI adapter's host pairs),
    /// cache clearing, raw advertisements, scanner state and mode, connection parameters (an HCI
    /// adapter's host sends LE Connection Update).
    static let features = 1 | 2 | 4 | 8 | 16 | 32 | 64 | 128
}

/// One run of a Home Assistant client script of the test world (`python -m world.…` in
/// Tests/World, with the venv's aioesphomeapi) to its end or `limit` s: the facts it printed,
/// one JSON object a line, and its standard error for a failure's message.
struct ProxyClientOutput {
    var facts: [JSONValue]
    var stderr: String

    /// The first fact of that name.
    func fact(_ name: String) -> JSONValue? { facts.first { $0[name] != nil }?[name] }

    static func run(_ arguments: [String], limit: Double) async throws -> ProxyClientOutput {
        guard let python = ProxyClientVenv.python else { throw IntegrationFailure(ProxyClientVenv.skipReason.description) }
        let child = try PipedChild.start(URL(fileURLWithPath: python), arguments, in: PackagePaths.root.appendingPathComponent("Tests/World"))
        let started = Date()
        while child.process.isRunning, seconds(since: started) < limit { try await Task.sleep(for: .milliseconds(100)) }
        // SIGKILL: the client inherits the test thread's blocked signals (TERM among them).
        if child.process.isRunning { kill(child.process.processIdentifier, SIGKILL) }
        // What it printed last is read by the collector's thread.
        try await Task.sleep(for: .milliseconds(300))
        return ProxyClientOutput(facts: child.out.lines.compactMap(JSONValue.parse), stderr: child.err.text)
    }
}
