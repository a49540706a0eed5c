import Glibc
import Synchronization

// Read by the SIGHUP handler: lock-free atomics only (see SignalWatcher).
private let hangupWakeFD = Atomic<Int32>(-1)
private let hangupCount = Atomic<Int>(0)
private let hangupInstalled = Atomic<Bool>(false)

private func handleHangup(_ signo: Int32) {
    let savedErrno = errno
    hangupCount.wrappingAdd(1, ordering: .sequentiallyConsistent)
    wakeFromSignalHandler(hangupWakeFD.load(ordering: .sequentiallyConsistent))
    errno = savedErrno
}

/// Turns SIGHUP — "reload your configuration", as `systemctl reload` sends it — into a readable
/// descriptor for an event loop. Apart from `SignalWatcher` because a reload is no shutdown:
/// any number of them may come, and none ends the process.
public final class HangupWatcher: Sendable {
    private let wakeup: WakeupDescriptor
    private let seen = Mutex(0)
    private let previous: Mutex<sigaction?>

    /// The descriptor to poll for POLLIN.
    public var fd: Int32 { wakeup.readFD }

    private init(wakeup: WakeupDescriptor, previous: sigaction) {
        self.wakeup = wakeup
        self.previous = Mutex(previous)
    }

    deinit { uninstall() }

    /// Installs the SIGHUP handler (one watcher per process).
    public static func install() throws(SignalWatcherError) -> HangupWatcher {
        guard hangupInstalled.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged else {
            throw .alreadyInstalled
        }
        let wakeup: WakeupDescriptor
        do throws(TransportError) {
            wakeup = try WakeupDescriptor.make()
        } catch {
            hangupInstalled.store(false, ordering: .sequentiallyConsistent)
            throw .systemCall(operation: "eventfd", errno: 0)
        }
        hangupWakeFD.store(wakeup.writeFD, ordering: .sequentiallyConsistent)
        do throws(SignalWatcherError) {
            let old = try installSignalHandler(SIGHUP, named: "SIGHUP", handleHangup)
            return HangupWatcher(wakeup: wakeup, previous: old)
        } catch {
            hangupWakeFD.store(-1, ordering: .sequentiallyConsistent)
            wakeup.close()
            hangupInstalled.store(false, ordering: .sequentiallyConsistent)
            throw error
        }
    }

    /// Whether SIGHUP arrived since the last call (several in a row count as one reload).
    public func takeRequest() -> Bool {
        wakeup.drain()
        let count = hangupCount.load(ordering: .sequentiallyConsistent)
        return seen.withLock { s in
            defer { s = count }
            return count > s
        }
    }

    /// Restores the previous SIGHUP disposition and closes the descriptor. Idempotent.
    public func uninstall() {
        guard var old = previous.withLock({ p -> sigaction? in defer { p = nil }; return p }) else { return }
        _ = sigaction(SIGHUP, &old, nil)
        hangupWakeFD.store(-1, ordering: .sequentiallyConsistent)
        wakeup.close()
        hangupInstalled.store(false, ordering: .sequentiallyConsistent)
    }
}
