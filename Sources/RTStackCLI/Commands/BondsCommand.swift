import Dissector
import HostCore
import JSON
import Runtime
import Wire

/// `rtstack bonds`: the bonds in the state directory (never their keys), and `bonds remove
/// ADDRESS` to forget one.
enum BondsCommand {
    static let spec = CommandSpec(
        name: "bonds",
        usage: "rtstack bonds [remove ADDRESS] [--state-dir DIR] [--json]",
        summary: "List the bonds kept in the state directory (keys never shown), or remove one.",
        options: [
            .init(.stateDir, value: "DIR", "the state directory (default $XDG_STATE_HOME/rtstack)"),
            .init(.json, "JSON Lines: one object per bond"),
        ],
        positionals: 0...2,
        details: """
        ADDRESS is the bond's identity address as listed (AA:BB:CC:DD:EE:FF/public or /random).
        Bonds of --backend kernel are the kernel's (and bluetoothd's): this lists rtstack's own.
        Exit status: 0 listed or removed, 1 no such bond, 2 bad command line.
        """)

    static func run(_ words: [String], _ console: Console) async throws(UsageError) -> ExitCode {
        let args = try ParsedArguments(words, spec: spec)
        if args.helpRequested { console.out.write(spec.helpText); return .success }
        let state = args.value(.stateDir).map { StateDirectory(path: $0) } ?? StateDirectory.standard()
        let store = FileBondStore(directory: state)
        switch args.positionals.first {
        case nil:
            return list(store, json: args.flag(.json), console)
        case "remove":
            guard args.positionals.count == 2 else { throw UsageError("bonds remove wants an ADDRESS; usage: \(spec.usage)") }
            let text = args.positionals[1]
            let address: DeviceAddress
            do {
                address = try DeviceAddress(parsing: text, defaultType: nil)
            } catch {
                throw UsageError("\(text): \(error) (rtstack bonds lists the addresses)")
            }
            guard store.remove(address) else {
                console.err.line("rtstack: no bond with \(address) in \(state.path)")
                return .failure
            }
            console.out.line("removed the bond with \(address)")
            return .success
        case let other?:
            throw UsageError("unknown bonds action '\(other)'; usage: \(spec.usage)")
        }
    }

    static func list(_ store: FileBondStore, json: Bool, _ console: Console) -> ExitCode {
        let (bonds, damaged) = store.list()
        for b in bonds {
            let p = b.pairing
            var keys: [String] = []
            if p.longTermKey != nil { keys.append("LTK") }
            if p.identityResolvingKey != nil { keys.append("IRK") }
            if p.peerSignatureKey != nil { keys.append("CSRK") }
            if p.localSignatureKey != nil { keys.append("local CSRK") }
            if json {
                var o = JSONObject()
                o.add("address", b.address.description)
                o.add("identity", p.identityAddress != nil)
                o.add("paired_address", p.peerAddress.description)
                o.add("model", p.model.name)
                o.add("secure_connections", p.secureConnections)
                o.add("security", p.securityLevel.name)
                o.add("key_size", Int(p.keySize))
                o.add("keys", keys.joined(separator: ","))
                o.add("file", store.directory.file(FileBondStore.fileName(b.address)))
                console.out.line(o.finished)
            } else {
                console.out.line("\(b.address)  \(p.identityAddress != nil ? "identity" : "address ")  \(p.model.name), "
                    + (p.secureConnections ? "LE Secure Connections" : "legacy") + ", security \(p.securityLevel.name), "
                    + "key size \(p.keySize), keys \(keys.isEmpty ? "none" : keys.joined(separator: " ")) (not shown)")
            }
        }
        for f in damaged { console.err.line("rtstack: \(f) is not a bond file rtstack can read; remove it or pair again") }
        if bonds.isEmpty && !json { console.out.line("no bonds in \(store.directory.path)") }
        return .success
    }
}
