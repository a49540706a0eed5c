import Glibc

/// A pthread running one closure. Not Foundation's `Thread`: we keep Foundation out of the
/// binary (size, start time). The loop, the replay feeder and the CLI's terminal reader run on
/// these.
public enum LoopThread {
    /// Carries the closure through `pthread_create`'s `void *` argument.
    private final class Entry {
        let name: String
        let body: () -> Void
        init(name: String, body: @escaping () -> Void) {
            self.name = name
            self.body = body
        }

        func run() {
            // A new thread inherits its creator's signal mask, and Swift concurrency and
            // dispatch worker threads block signals. Start from an empty mask so the loop
            // behaves the same whoever started it: a process-directed SIGINT can always be
            // handled here (poll then returns EINTR, which the loop treats as a no-op turn).
            var none = sigset_t()
            sigemptyset(&none)
            _ = pthread_sigmask(SIG_SETMASK, &none, nil)
            if let setName = LinuxOnlyCalls.setThreadName {
                // Linux limits thread names to 15 bytes plus NUL.
                _ = setName(pthread_self(), String(decoding: Array(name.utf8.prefix(15)), as: UTF8.self))
            }
            body()
        }
    }

    /// Starts a joinable thread. The closure crosses to the new thread through a raw pointer,
    /// outside the compiler's view: callers pass only state the new thread will own alone (the
    /// loop's transport and driver factory arrive as `sending`; the rest is `Sendable`).
    /// Returns the thread, or the `pthread_create` error number.
    static func spawn(name: String, _ body: @escaping () -> Void) -> (thread: pthread_t?, error: Int32) {
        let entry = Unmanaged.passRetained(Entry(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        let rc = pthread_create(&thread, nil, { raw in
            guard let raw else { return nil }
            Unmanaged<Entry>.fromOpaque(raw).takeRetainedValue().run()
            return nil
        }, entry)
        guard rc == 0 else {
            Unmanaged<Entry>.fromOpaque(entry).release()
            return (nil, rc)
        }
        return (thread, 0)
    }

    /// Starts a detached thread for work that blocks (a read of the terminal) and that nobody
    /// joins; `body` is `Sendable`, as it shares state with its caller. False when no thread
    /// could be made.
    public static func detach(name: String, _ body: @escaping @Sendable () -> Void) -> Bool {
        let (thread, _) = spawn(name: name, body)
        guard let thread else { return false }
        pthread_detach(thread)
        return true
    }
}
