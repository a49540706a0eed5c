#if canImport(Glibc)
import Glibc
#endif
import HostCore
import Runtime
import Wire

/// Shared steps of the commands built on the async API (`scan`, `info`, `gatt`, `read`,
/// `write`, `subscribe`): open the adapter with Ctrl-C handling, resolve an address's type,
/// connect, end on `--duration`.
struct CentralCommand {
    let central: Central
    let options: AdapterOptions
    let console: Console

    /// A failure already explained to the user; carries the exit status.
    struct Failure: Error {
        var code: ExitCode
    }

    static func open(_ args: ParsedArguments, console: Console,
                     prepare: (inout AdapterOptions) -> Void = { _ in }) async throws -> CentralCommand {
        var options: AdapterOptions
        do {
            options = try AdapterOptions(args)
        } catch {
            throw error
        }
        prepare(&options)
        let sinks = try options.sinks(console: console)
        let signals = try? SignalWatcher.install()
        do {
            let central = try await Central.open(options.adapter, backend: options.backend,
                                                 configuration: options.hostConfiguration(), security: options.security,
                                                 agent: options.securityOptions.agent(console), bondStore: options.bondStore,
                                                 sinks: sinks, signals: signals, notice: console.notice)
            return CentralCommand(central: central, options: options, console: console)
        } catch {
            console.err.line("rtstack: \(AdapterAdvice.text(for: error))")
            throw Failure(code: .adapter)
        }
    }

    /// Ends the streams after `seconds` (the `--duration` option).
    func endStreams(after seconds: Double?) {
        guard let s = seconds else { return }
        let central = self.central
        Task {
            try? await Task.sleep(nanoseconds: UInt64(s * 1e9))
            central.endStreams()
        }
    }

    /// `AA:BB:CC:DD:EE:FF/random` as given, or without a type: learned from a scan (≤ 5 s).
    func resolve(_ text: String) async throws -> DeviceAddress {
        do {
            return try DeviceAddress(parsing: text, defaultType: nil)
        } catch {
            guard case .missingType = error, let bare = BDAddress(string: text) else {
                throw UsageError("\(text): \(error)")
            }
            let stream = central.scan()
            let central = self.central
            let timer = Task {
                try? await Task.sleep(nanoseconds: 5_000_000_000)
                central.endStreams()
            }
            defer { timer.cancel() }
            for await adv in stream where adv.address.address == bare {
                return adv.address
            }
            console.err.line("rtstack: \(text) was not seen advertising within 5 s; give its type (\(text)/public or /random) or check that it advertises")
            throw Failure(code: .failure)
        }
    }

    /// Connects with a plan that does what `needs` asks (discovery on by default).
    func connect(_ address: DeviceAddress, discover: Bool = false, timeout: Double = 10) async throws -> Peripheral {
        var plan = LinkPlan()
        plan.discover = discover
        plan.connectTimeout = UInt64(timeout * 1e9)
        do {
            return try await central.connect(to: address, plan: plan)
        } catch {
            console.err.line("rtstack: connecting to \(address): \(error)")
            if case CentralError.host(let h) = error, let hint = SecurityAdvice.hint(for: h, security: options.securityOptions) {
                console.err.line("  " + hint)
            }
            throw Failure(code: .failure)
        }
    }

    /// Disconnects everything and stops the loop.
    func close() async {
        await central.close()
    }

    /// Turns an error thrown by a command body into its message and exit status.
    /// `security`: how rtstack was run, for the advice on security errors (nil before the
    /// options were read).
    static func report(_ error: any Error, console: Console, security: SecurityOptions? = nil) -> ExitCode {
        switch error {
        case let f as Failure: return f.code
        case let u as UsageError:
            console.err.line("rtstack: \(u.message)")
            return .usage
        case let c as CentralError:
            console.err.line("rtstack: \(AdapterAdvice.text(for: c))")
            if case .host(let h) = c, let hint = hint(for: h) ?? SecurityAdvice.hint(for: h, security: security) {
                console.err.line("  " + hint)
            }
            switch c {
            case .adapter, .unavailable: return .adapter
            case .host(.adapter): return .adapter
            default: break
            }
            return .failure
        default:
            console.err.line("rtstack: \(error)")
            return .failure
        }
    }

    static func hint(for e: HostError) -> String? {
        switch e {
        case .connectTimeout: return "is the device on, advertising and in range? (rtstack scan shows what is advertising)"
        case .unsupportedByPeer(let s) where s.containsText("Read Multiple Variable Length"):
            return "leave out --no-fallback to read the handles one by one, use --fixed, or --variable to send the request anyway"
        case .att where e.attErrorCode == .requestNotSupported:
            switch e.attRequestOpcode {
            case .readMultipleVariableRequest?:
                return "the peer does not support Read Multiple Variable Length (a server need not unless it supports EATT): leave out --no-fallback to read the handles one by one, or use --fixed"
            case .readMultipleRequest?:
                return "the peer does not support Read Multiple: read the handles one at a time"
            case .prepareWriteRequest?:
                return "the peer does not support prepared writes (long and reliable writes): write a value that fits one Write Request"
            default:
                return nil
            }
        default: return nil
        }
    }
}

/// Runs an async command body with the common error handling.
func runCentralCommand(_ args: ParsedArguments, _ console: Console, prepare: (inout AdapterOptions) -> Void = { _ in },
                       _ body: (CentralCommand) async throws -> ExitCode) async -> ExitCode {
    let cmd: CentralCommand
    do {
        cmd = try await CentralCommand.open(args, console: console, prepare: prepare)
    } catch {
        return CentralCommand.report(error, console: console)
    }
    var code: ExitCode
    do {
        code = try await body(cmd)
    } catch {
        code = CentralCommand.report(error, console: console, security: cmd.options.securityOptions)
    }
    // Streams also end when the adapter is lost: that is no success, whatever the body made of it.
    if let failure = cmd.central.failure, code != .adapter {
        console.err.line("rtstack: \(failure.description)")
        code = .adapter
    }
    await cmd.close()
    console.out.flush()
    console.err.flush()
    return code
}
