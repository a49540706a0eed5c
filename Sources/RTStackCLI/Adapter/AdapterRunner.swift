import HostCore
import Runtime
import Synchronization

/// Runs one application on the adapter's loop thread, on either backend, and waits for it to
/// end: opens the adapter (errors name the cause and exit 3), installs the Ctrl-C handling, joins.
enum AdapterRunner {
    /// `makeApplication` runs on the loop thread, so the application belongs to it alone.
    static func run(options: AdapterOptions, sinks: [any PacketSinkFactory], console: Console, result: ResultBox,
                    makeApplication: @escaping @Sendable () -> HostApplication) {
        let io: any AdapterIO
        do {
            io = try options.adapter.open(backend: options.backend, configuration: options.hostConfiguration(),
                                          security: options.security, sinks: sinks, notice: console.notice)
        } catch {
            console.err.line("rtstack: \(AdapterAdvice.text(for: error))")
            result.set(.adapter)
            return
        }
        let signals = try? SignalWatcher.install()
        let loop: EventLoop<AdapterDriver>
        let state = options.state
        do {
            loop = try EventLoop<AdapterDriver>.start(signals: signals) { context in
                AdapterDriver(context: context, io: io, application: makeApplication(),
                              bondStore: FileBondStore(directory: state), at: MonotonicClock.now())
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

/// The exit status an application decides on the loop thread, read by the main thread after
/// the loop has ended.
final class ResultBox: Sendable {
    private let code = Mutex(ExitCode.success)
    func set(_ c: ExitCode) { code.withLock { $0 = c } }
    var value: ExitCode { code.withLock { $0 } }
}
