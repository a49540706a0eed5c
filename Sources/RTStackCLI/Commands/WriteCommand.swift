import HostCore
import Runtime
import Wire

/// `rtstack write ADDRESS UUID|HANDLE HEX [--no-response]`.
enum WriteCommand {
    static let spec = CommandSpec(
        name: "write",
        usage: "rtstack write ADDRESS UUID|HANDLE HEX --adapter ADAPTER [--no-response]",
        summary: "Write a characteristic (Write Request, long write when needed, or Write Command).",
        options: AdapterOptions.specs + [.init("no-response", "Write Without Response (ATT Write Command)")],
        positionals: 3...3)

    static func run(_ words: [String], _ console: Console) async throws(UsageError) -> ExitCode {
        let args = try ParsedArguments(words, spec: spec)
        if args.helpRequested { console.out.write(spec.helpText); return .success }
        let target = try TargetSpec(args.positionals[1])
        guard let value = Hex.parse(args.positionals[2]) else {
            throw UsageError("'\(args.positionals[2])' is not hex bytes (e.g. 0100 or 01:00)")
        }
        let addressText = args.positionals[0]
        return await runCentralCommand(args, console) { cmd in
            let p = try await cmd.connect(try await cmd.resolve(addressText))
            let (handle, _) = try await target.valueHandle(on: p)
            try await p.write(handle: handle, value: value, withResponse: !args.flag("no-response"))
            console.out.line("wrote \(value.count) byte(s) to \(Hex.number(handle, width: 4))")
            await p.disconnect()
            return .success
        }
    }
}
