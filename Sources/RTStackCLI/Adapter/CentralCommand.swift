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

    /// A wrong ADDRESS is a usage error before the adapter is opened (a bare address, whose
    /// type a scan learns, is right).
    static func check(address text: String) throws(UsageError) {
        do {
            _ = try DeviceAddress(parsing: text, defaultType: nil)
        } catch {
            guard case .missingType = error, BDAddress(string: text) != nil else {
                throw UsageError("\(text): \(error); ADDRESS is AA:BB:CC:DD:EE:FF, with /public or /random when its type is known")
            }
        }
    }

    /// `AA:BB:CC:DD:EE:FF/random` as given, or without a type: learned from a scan (≤ 5 s).
    func resolve(_ text: String) async throws -> DeviceAddress {
        do {
            return try DeviceAddress(parsing: text, defaultType: nil)
        } catch {
            guard case .missingType = error, let bare = BDAddress(string: text) else {
                try Self.check(address: text)
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
            throw CommandFailure(cause: "\(text) was not seen advertising within 5 s, so its address type is not known",
                                 remedy: "check that it is on, in range and advertising (rtstack scan shows what advertises), "
                                    + "or give its type (\(text)/public or \(text)/random) to connect without a scan")
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
            // A connection that timed out names the address itself.
            var context: String? = "connecting to \(address)"
            if case CentralError.host(.connectTimeout) = error { context = nil }
            FailureReport(error, security: options.securityOptions, context: context).print(console)
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
        if let f = error as? Failure { return f.code }
        let report = FailureReport(error, security: security)
        report.print(console)
        return report.code
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
        console.err.line("rtstack: \(AdapterAdvice.text(for: failure))")
        code = .adapter
    }
    await cmd.close()
    console.out.flush()
    console.err.flush()
    return code
}
