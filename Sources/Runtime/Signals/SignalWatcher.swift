import Glibc
import Synchronization

// State the C signal handler reads. Only lock-free atomics: a handler may interrupt any code,
// including a thread holding a lock, so it must not take one. They are touched in `install`
// before the handler is registered, so their lazy initialisation never runs inside it.
private let handlerWakeFD = Atomic<Int32>(-1)
private let handlerSignalCount = Atomic<Int>(0)
private let handlerLastSignal = Atomic<Int32>(0)
private let handlerExitsOnRepeat = Atomic<Bool>(true)
private let watcherInstalled = Atomic<Bool>(false)

/// The signal handler: count, remember which signal, poke the wake-up descriptor. Only
/// async-signal-safe calls (`write`, `_exit`); `errno` is preserved for the interrupted code.
private func handleShutdownSignal(_ signo: Int32) {
    let savedErrno = errno
    let count = handlerSignalCount.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue
    handlerLastSignal.store(signo, ordering: .sequentiallyConsistent)
    if count >= 2 && handlerExitsOnRepeat.load(ordering: .sequentiallyConsistent) {
        // Second Ctrl-C: the user wants out even if the loop is stuck. 128+N is the shell's
        // convention for "killed by signal N".
        _exit(128 + signo)
    }
    wakeFromSignalHandler(handlerWakeFD.load(ordering: .sequentiallyConsistent))
    errno = savedErrno
}

/// Turns SIGINT/SIGTERM into a readable descriptor, so a session ends through its event loop
/// (disconnect, flush captures) instead of dying mid-write.
///
/// A self-pipe in spirit: a `sigaction` handler writes to an eventfd (or pipe). We do not use
/// `signalfd`, which only works if the signals are blocked in *every* thread, including
/// threads the Swift runtime or a test runner started before us; a handler works on any thread.
///
/// First signal → `ShutdownRequest.graceful`; second → `.immediate`, or, with
/// `exitOnSecondSignal` (the default, for the CLI), the handler ends the process at once with
/// `_exit(128 + signal)` because a loop that did not react to the first might be stuck.
///
/// Signal handlers are process-wide, so only one watcher can be installed at a time. One
/// watcher serves one reader: `takeRequest` drains the descriptor. With several adapters, pass
/// it to one loop (whose driver forwards the request to the others) or wait on it in the main
/// thread with `wait(timeout:)`.
public final class SignalWatcher: Sendable {
    public let signals: [Int32]
    private let wakeup: WakeupDescriptor
    private let delivered: Mutex<Int>
    /// The dispositions we replaced, restored by `uninstall`; nil once uninstalled.
    private let previous: Mutex<[(Int32, sigaction)]?>

    /// The descriptor to poll for POLLIN.
    public var fd: Int32 { wakeup.readFD }

    private init(signals: [Int32], wakeup: WakeupDescriptor, previous: [(Int32, sigaction)]) {
        self.signals = signals
        self.wakeup = wakeup
        self.delivered = Mutex(0)
        self.previous = Mutex(previous)
    }

    deinit { uninstall() }

    /// Installs handlers for `signals` and ignores SIGPIPE (see `ignoreBrokenPipe`).
    public static func install(
        signals: [Int32] = [SIGINT, SIGTERM],
        exitOnSecondSignal: Bool = true
    ) throws(SignalWatcherError) -> SignalWatcher {
        guard watcherInstalled.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged else {
            throw .alreadyInstalled
        }
        let wakeup: WakeupDescriptor
        do throws(TransportError) {
            wakeup = try WakeupDescriptor.make()
        } catch {
            watcherInstalled.store(false, ordering: .sequentiallyConsistent)
            if case .systemCall(let operation, let code) = error { throw .systemCall(operation: operation, errno: code) }
            throw .systemCall(operation: "eventfd", errno: 0)
        }
        handlerSignalCount.store(0, ordering: .sequentiallyConsistent)
        handlerLastSignal.store(0, ordering: .sequentiallyConsistent)
        handlerExitsOnRepeat.store(exitOnSecondSignal, ordering: .sequentiallyConsistent)
        handlerWakeFD.store(wakeup.writeFD, ordering: .sequentiallyConsistent)

        ignoreBrokenPipe()
        var replaced: [(Int32, sigaction)] = []
        for signo in signals {
            do throws(SignalWatcherError) {
                replaced.append((signo, try installSignalHandler(signo, named: "\(signo)", handleShutdownSignal)))
            } catch {
                for (restored, oldAction) in replaced {
                    var oldAction = oldAction
                    _ = sigaction(restored, &oldAction, nil)
                }
                handlerWakeFD.store(-1, ordering: .sequentiallyConsistent)
                wakeup.close()
                watcherInstalled.store(false, ordering: .sequentiallyConsistent)
                throw error
            }
        }
        return SignalWatcher(signals: signals, wakeup: wakeup, previous: replaced)
    }

    /// Consumes pending signals: nil if none arrived since the last call, else `.graceful` for
    /// the first signal of the process and `.immediate` once two or more have arrived.
    public func takeRequest() -> ShutdownRequest? {
        wakeup.drain()
        let count = handlerSignalCount.load(ordering: .sequentiallyConsistent)
        let signo = handlerLastSignal.load(ordering: .sequentiallyConsistent)
        return delivered.withLock { seen -> ShutdownRequest? in
            guard count > seen else { return nil }
            seen = count
            return count >= 2 ? .immediate(signal: signo) : .graceful(signal: signo)
        }
    }

    /// Blocks the calling thread until a signal arrives or `timeout` nanoseconds pass
    /// (nil: no limit). For a main thread that has nothing else to do.
    public func wait(timeout: UInt64? = nil) -> ShutdownRequest? {
        let deadline = timeout.map { MonotonicClock.now() &+ $0 }
        while true {
            if let request = takeRequest() { return request }
            let now = MonotonicClock.now()
            if let deadline, now >= deadline { return nil }
            var p = pollfd(fd: wakeup.readFD, events: Int16(POLLIN), revents: 0)
            _ = poll(&p, 1, PollTimeout.milliseconds(until: deadline, now: now))
        }
    }

    /// Restores the previous handlers and closes the descriptor. Idempotent.
    public func uninstall() {
        guard let replaced = previous.withLock({ p -> [(Int32, sigaction)]? in
            let old = p
            p = nil
            return old
        }) else { return }
        for (signo, oldAction) in replaced.reversed() {
            var oldAction = oldAction
            _ = sigaction(signo, &oldAction, nil)
        }
        handlerWakeFD.store(-1, ordering: .sequentiallyConsistent)
        wakeup.close()
        watcherInstalled.store(false, ordering: .sequentiallyConsistent)
    }

    /// Makes writes to a closed socket or pipe fail with EPIPE instead of killing the process.
    /// Sockets already use MSG_NOSIGNAL; this covers pipes (e.g. `rtstack … | head`).
    public static func ignoreBrokenPipe() {
        _ = signal(SIGPIPE, SIG_IGN)
    }
}

/// Why a `SignalWatcher` could not be installed.
public enum SignalWatcherError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Another watcher is installed; signal handlers are process-wide.
    case alreadyInstalled
    case systemCall(operation: String, errno: Int32)

    public var description: String {
        switch self {
        case .alreadyInstalled:
            return "a SignalWatcher is already installed in this process (signal handlers are process-wide)"
        case .systemCall(let operation, let code):
            return "\(operation) failed: \(describeErrno(code))"
        }
    }
}
