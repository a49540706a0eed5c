import Dissector
import HostCore
import JSON
import Runtime
import Wire

/// `rtstack pair ADDRESS`: connects, pairs anew (even when bonded) at `--security` (at least
/// medium), keeps the bond in the state directory and says how it went.
enum PairCommand {
    static let spec = CommandSpec(
        name: "pair",
        usage: "rtstack pair ADDRESS --adapter ADAPTER [--security medium|high|fips] [--passkey N|-] [--confirm-numbers] [--json] [ADAPTER OPTIONS]",
        summary: "Pair with a peripheral and keep the bond (the keys go to the state directory, mode 0600).",
        options: AdapterOptions.specs + [.init(.json, "one JSON object")],
        positionals: 1...1,
        details: """
        The association model follows from both sides' IO capabilities: a passkey the peer shows
        is typed with --passkey or at the terminal prompt; a passkey rtstack shows is printed;
        numeric comparison is accepted with --confirm-numbers or at the prompt.
        With --backend kernel the kernel pairs and keeps the bond; rtstack is its agent.
        Exit status: 0 paired, 1 pairing failed (the reason is named), 2 bad command line, 3 adapter.
        """)

    static func run(_ words: [String], _ console: Console) async throws(UsageError) -> ExitCode {
        let args = try ParsedArguments(words, spec: spec)
        if args.helpRequested { console.out.write(spec.helpText); return .success }
        let target = args.positionals[0]
        try CentralCommand.check(address: target)
        let json = args.flag(.json)
        let level = max(try SecurityOptions(args).level, .medium)
        // Pairing is asked for: on --backend kernel the adapter pairs with rtstack's IO
        // capability and keeps the bond.
        // The link connects without a level of its own (else the kernel backend would pair at
        // connection and again for the new pairing below).
        return await runCentralCommand(args, console, prepare: {
            $0.securityOptions.requested = true
            $0.securityOptions.level = .low
        }) { cmd in
            let address = try await cmd.resolve(target)
            let p = try await cmd.connect(address)
            let started = MonotonicClock.now()
            let status = try await p.secure(SecurityNeed(level: level, fresh: true))
            let seconds = Double(MonotonicClock.now() - started) / 1e9
            let bond = status.pairing.map(\.bondAddress)
            let file = bond.map { cmd.options.state.file(FileBondStore.fileName($0)) }
            if json {
                var o = JSONObject()
                o.add("address", address.description)
                if let r = status.pairing {
                    o.add("identity", r.bondAddress.description)
                    o.add("model", r.model.name)
                    o.add("secure_connections", r.secureConnections)
                    o.add("bonded", r.bonded)
                }
                o.add("security", status.level.name)
                o.add("key_size", Int(status.keySize))
                o.add("seconds", (seconds * 1000).rounded() / 1000)
                if let f = file, status.pairing?.bonded == true { o.add("bond_file", f) }
                console.out.line(o.finished)
            } else {
                console.out.line(status.description)
                if let f = file, status.pairing?.bonded == true { console.out.line("bond kept in \(f)") }
                // From asking for security to the keys exchanged: connection set-up excluded.
                console.out.line("pairing took \(Int((seconds * 1000).rounded())) ms")
            }
            await p.disconnect()
            return .success
        }
    }
}
