#if canImport(Glibc)
import Glibc
#endif

/// Entry point of the `rtstack` command: picks the subcommand and turns every failure into a
/// message on stderr and a documented exit status (see `ExitCode`).
public enum RTStackCLI {
    public static let version = "0.1.0"

    /// Subcommands in the order `--help` lists them.
    typealias Run = @Sendable ([String], Console) async throws(UsageError) -> ExitCode

    static let commands: [(spec: CommandSpec, run: Run)] = [
        (SessionCommand.spec, { (a, c) throws(UsageError) in try SessionCommand.run(a, c) }),
        (ScanCommand.spec, ScanCommand.run),
        (InfoCommand.spec, InfoCommand.run),
        (GattCommand.spec, GattCommand.run),
        (ReadCommand.spec, ReadCommand.run),
        (WriteCommand.spec, WriteCommand.run),
        (SubscribeCommand.spec, SubscribeCommand.run),
        (PairCommand.spec, PairCommand.run),
        (BondsCommand.spec, BondsCommand.run),
        (DecodeCommand.spec, { (a, c) throws(UsageError) in try DecodeCommand.run(a, c) }),
        (MonitorCommand.spec, { (a, c) throws(UsageError) in try MonitorCommand.run(a, c) }),
        (AdaptersCommand.spec, AdaptersCommand.run),
        (GatewayServiceCommand.spec, { (a, c) throws(UsageError) in try GatewayServiceCommand.run(a, c) }),
        (StatusCommand.spec, StatusCommand.run),
    ]

    static let topSpec = CommandSpec(
        name: "rtstack",
        usage: "rtstack [COMMAND] [OPTIONS]",
        summary: "A Bluetooth Low Energy central for Linux boards without BlueZ.",
        options: [])

    public static func main(_ arguments: [String]) async -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        return await run(arguments, console: Console(out: .standardOutput, err: .standardError)).rawValue
    }

    /// Runs one command line with its output on `console`; tests call this in-process.
    public static func run(_ arguments: [String], console: Console) async -> ExitCode {
        let code: ExitCode
        do {
            code = try await dispatch(arguments, console)
        } catch {
            console.out.flush()
            console.err.line("rtstack: \(error.message)")
            console.err.flush()
            return .usage
        }
        console.out.flush()
        console.err.flush()
        return code
    }

    static func dispatch(_ arguments: [String], _ console: Console) async throws(UsageError) -> ExitCode {
        guard let first = arguments.first else {
            throw UsageError("no command given; try 'rtstack --help'")
        }
        if first == "--help" || first == "-h" || first == "help" {
            if arguments.count > 1, let c = commands.first(where: { $0.spec.name == arguments[1] }) {
                console.out.write(c.spec.helpText)
            } else {
                console.out.write(helpText)
            }
            return .success
        }
        if first == "--version" {
            console.out.line("rtstack \(version)")
            return .success
        }
        // Options first: the subcommand may come after them (`rtstack --adapter hci0 scan` is
        // `rtstack scan --adapter hci0`); with none, the run session (`rtstack --adapter hci0`).
        if first.hasPrefix("--") {
            guard let reordered = commandAfterOptions(arguments) else {
                return try SessionCommand.run(arguments, console)
            }
            return try await dispatch(reordered, console)
        }
        guard let c = commands.first(where: { $0.spec.name == first }) else {
            throw UsageError("unknown command '\(first)'; commands: \(commands.map(\.spec.name).joined(separator: ", ")) (see 'rtstack --help')")
        }
        return try await c.run(Array(arguments.dropFirst()), console)
    }

    /// The words with the first subcommand name that stands where an option's value cannot
    /// moved to the front; nil when there is none. An option takes the next word as its value
    /// when any command declares it with one (`--adapter hci0`), unless written `--name=value`.
    static func commandAfterOptions(_ words: [String]) -> [String]? {
        let valued = Set(commands.flatMap { $0.spec.options }.filter { $0.valueName != nil }.map(\.name))
        var i = 0
        while i < words.count {
            let w = words[i]
            if w == "--" { return nil }
            if w.hasPrefix("--") {
                let name = String(w.dropFirst(2))
                if name.firstIndex(of: "=") == nil, valued.contains(name) { i += 1 }
            } else if commands.contains(where: { $0.spec.name == w }) {
                return [w] + words[..<i] + words[(i + 1)...]
            } else {
                return nil
            }
            i += 1
        }
        return nil
    }

    static var helpText: String {
        var s = "usage: rtstack --adapter ADAPTER [OPTIONS]     the run session\n"
        s += "       rtstack [OPTIONS] COMMAND [OPTIONS]   (options may come before or after the command)\n\n\(topSpec.summary)\n\ncommands:\n"
        let width = commands.map(\.spec.name.count).max() ?? 0
        for c in commands {
            s += "  " + c.spec.name + String(repeating: " ", count: width - c.spec.name.count + 2) + c.spec.summary + "\n"
        }
        s += "\n'rtstack COMMAND --help' describes one command.\n"
        s += "exit status: 0 done, 1 failed, 2 bad command line, 3 adapter unavailable, 4 input unreadable\n"
        return s
    }
}
