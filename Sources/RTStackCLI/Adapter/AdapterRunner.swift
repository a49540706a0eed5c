import HostCore
import Runtime
import Synchronization

/// Runs one application on the adapter's loop thread and waits for it to end: opens the
/// transport (errors name the cause and exit 3), installs the Ctrl-C handling, joins.
enum AdapterRunner {
    /// `makeApplication` runs on the loop thread, so the application belongs to it alone.
    static func run(options: AdapterOptions, sinks: [any PacketSinkFactory], console: Console, result: ResultBox,
                    makeApplication: @escaping @Sendable () -> HostApplication) {
        let transport: any HCITransport
        do {
            transport = try options.adapter.openTransport()
        } catch {
            console.err.line("rtstack: \(error.description)")
            result.set(.adapter)
            return
        }
        let signals = try? SignalWatcher.install()
        let configuration = options.hostConfiguration()
        let loop: EventLoop<HostDriver>
        do {
            loop = try EventLoop<HostDriver>.start(transport: transport, signals: signals) { context in
                HostDriver(context: context, configuration: configuration, tap: PacketTap.make(sinks),
                           application: makeApplication(), at: MonotonicClock.now())
            }
        } catch {
            console.err.line("rtstack: \(error.description)")
            result.set(.adapter)
            return
        }
        loop.join()
        signals?.uninstall()
        console.out.flush()
        console.err.flush()
    }
}

/// Runs one application on `--backend kernel`, on the calling thread, with Ctrl-C handling.
enum KernelRunner {
    static func run(index: UInt16, options: AdapterOptions, sinks: [any PacketSinkFactory], console: Console,
                    result: ResultBox, makeApplication: () -> KernelApplication) {
        let signals = try? SignalWatcher.install()
        do {
            _ = try KernelBackend.run(index: index, security: options.security, sinks: sinks, signals: signals,
                                      makeApplication: makeApplication)
        } catch {
            console.err.line("rtstack: \(error.description)")
            result.set(.adapter)
        }
        signals?.uninstall()
        console.out.flush()
        console.err.flush()
    }
}

/// The exit status an application decides on the loop thread, read by the main thread after
/// the loop has ended.
final class ResultBox: Sendable {
    private let code = Mutex(ExitCode.success)
    func set(_ c: ExitCode) { code.withLock { $0 = c } }
    var value: ExitCode { code.withLock { $0 } }
}
