import Foundation

/// A `TaskExecutor` that runs its jobs, in order, on one thread of its own.
///
/// Why: Swift's global executor on Linux has one thread per core and never adds one when a
/// job blocks, so on CI's 2 cores two tests that block (a child process waited for, a tshark
/// read) or burn CPU (a mutation sweep) hold the whole pool, and every other test's timers and
/// resumptions wait behind them: trivial tests took 60-70 s of the clock in a full run, and
/// bounds of 10 s failed. A test that runs here blocks only its own thread and shares the cores
/// with the rest through the kernel's scheduler.
public final class OwnThreadExecutor: TaskExecutor, @unchecked Sendable {
    // Sendable: `jobs`, `serving` and `closed` are read and written only with `condition`
    // locked (OwnThreadTests runs many tasks through one executor from many threads).
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var serving = false
    private var closed = false
    private let name: String

    public init(name: String) {
        self.name = name
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        let start = !serving
        serving = true
        condition.signal()
        condition.unlock()
        if start { startThread() }
    }

    /// Lets the thread end once no job is left; a job that comes after that starts another.
    public func close() {
        condition.lock()
        closed = true
        condition.signal()
        condition.unlock()
    }

    /// The name of the `OwnThreadExecutor` whose thread the caller runs on; nil on any other
    /// thread. (`Thread.current.name` cannot tell: on Linux it gives the pool's name here too.)
    public static func currentName() -> String? {
        Thread.current.threadDictionary[markKey] as? String
    }

    private static let markKey = "rtstack.OwnThreadExecutor"

    private func startThread() {
        let thread = Thread { [self] in serve() }
        thread.name = String(name.prefix(15))
        thread.stackSize = 8 << 20   // what the pool's threads have: deep decoders recurse
        thread.start()
    }

    private func serve() {
        Thread.current.threadDictionary[Self.markKey] = name
        let me = asUnownedTaskExecutor()
        while true {
            condition.lock()
            while jobs.isEmpty && !closed { condition.wait() }
            if jobs.isEmpty {
                serving = false
                condition.unlock()
                return
            }
            let batch = jobs
            jobs.removeAll(keepingCapacity: true)
            condition.unlock()
            for job in batch { job.runSynchronously(on: me) }
        }
    }
}
