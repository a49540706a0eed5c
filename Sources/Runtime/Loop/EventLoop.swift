import Glibc
import Synchronization

/// One thread that owns one driver — and through it every descriptor of one adapter — and the
/// thread-safe handle to it.
///
/// ## Threading model
/// - `start` creates a pthread and, on that thread, builds the driver with `makeDriver` (which
///   owns what it was given: an opened transport, sockets). From then on the driver and the
///   `EventLoopContext` live on the loop thread only; the compiler enforces it (neither is
///   `Sendable`, and `start` takes the factory as `sending`).
/// - The loop thread sleeps in `poll()` on the driver's descriptors (any number, collected each
///   turn), a wake-up eventfd, and optionally a `SignalWatcher`; the timeout comes from
///   `driver.nextDeadline` (monotonic clock, rounded up to whole milliseconds so a deadline never
///   fires early). EINTR just starts another turn. The thread runs with an empty signal mask (it
///   does not inherit a blocked mask from, say, a Swift concurrency thread), so a Ctrl-C can
///   always be handled on it.
/// - Other threads talk to the loop only through this handle: `submit` a job (queued under a
///   mutex, the eventfd wakes the loop, the job runs on the loop thread with the driver), or
///   `stop()`. The handle is `Sendable` because its state is a `Mutex` and two descriptors.
///
/// ## Lifetime
/// The loop runs until `stop()`, `EventLoopContext.stop()` or `fail(_:)`, or a signal. At the
/// end, on the loop thread: `driver.loopEnding(outcome)`, then every job that was accepted but
/// not yet run is run, so a job accepted by `submit` always runs exactly once. Jobs submitted
/// after that are refused (`submit` returns false).
public final class EventLoop<Driver: EventLoopDriver>: Sendable {
    /// Work for the loop thread. It receives the driver, which only exists on that thread.
    public typealias Job = @Sendable (Driver) -> Void

    public let name: String

    struct State {
        var jobs: [Job] = []
        var stopRequested = false
        var finished = false
        var loopThread: pthread_t?
        var outcome: EventLoopOutcome?
    }

    let state: Mutex<State>
    /// The pthread to join; taken (set to nil) by the one caller that joins it.
    private let joinHandle: Mutex<pthread_t?>
    let wakeup: WakeupDescriptor

    /// The loop thread as a `TaskExecutor`, for tasks that must react with the least latency
    /// (see `LoopExecutor`: such a task blocks the loop's I/O while it runs).
    public let executor: LoopExecutor

    private init(name: String, wakeup: WakeupDescriptor) {
        self.name = name
        self.wakeup = wakeup
        self.executor = LoopExecutor(wakeup: wakeup)
        self.state = Mutex(State())
        self.joinHandle = Mutex(nil)
    }

    deinit {
        // The loop thread holds a reference while it runs, so here it has finished (or is in
        // its last instructions, possibly this very deinit): detach instead of joining.
        joinHandle.withLock { handle in
            if let thread = handle { pthread_detach(thread) }
            handle = nil
        }
        wakeup.close()
    }

    /// Starts the loop thread.
    ///
    /// - Parameters:
    ///   - name: thread name (shown by `top -H`, at most 15 bytes used) and label.
    ///   - signals: a watcher whose SIGINT/SIGTERM end this loop (see `EventLoopDriver.shutdownRequested`).
    ///     One watcher serves one loop: its descriptor is drained by whoever reads it.
    ///   - makeDriver: runs first thing on the loop thread; the driver may keep the context and
    ///     owns whatever the closure captured (a transport, sockets): they never leave the thread.
    /// - Throws: if the wake-up descriptor or the thread cannot be created.
    public static func start(
        name: String = "rtstack-loop",
        signals: SignalWatcher? = nil,
        driver makeDriver: sending @escaping (EventLoopContext<Driver>) -> Driver
    ) throws(TransportError) -> EventLoop<Driver> {
        let wakeup = try WakeupDescriptor.make()
        let loop = EventLoop(name: name, wakeup: wakeup)
        let runner = LoopRunner(loop: loop, signals: signals, makeDriver: makeDriver)
        let spawned = LoopThread.spawn(name: name, runner.run)
        guard let thread = spawned.thread else {
            runner.abandon()
            throw .systemCall(operation: "pthread_create", errno: spawned.error)
        }
        loop.joinHandle.withLock { $0 = thread }
        return loop
    }

    // MARK: Any thread

    /// Queues `job` to run on the loop thread with the driver, and wakes the loop.
    ///
    /// Thread-safe; never blocks on the loop (only on a short mutex). Jobs run in submission
    /// order. Returns false, without running the job, once the loop has finished.
    @discardableResult
    public func submit(_ job: @escaping Job) -> Bool {
        // Wake only when the queue goes from empty to non-empty: the loop drains the eventfd
        // *before* taking the queue, so a job added after the take finds an empty queue and
        // wakes again; one added before the take is picked up by that take.
        let outcome: Bool? = state.withLock { s in
            if s.finished { return nil }
            let wasEmpty = s.jobs.isEmpty
            s.jobs.append(job)
            return wasEmpty
        }
        guard let needsWake = outcome else { return false }
        if needsWake { wakeup.wake() }
        return true
    }

    /// `submit` for work that does not need the driver.
    @discardableResult
    public func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
        submit { (_: Driver) in job() }
    }

    /// Asks the loop to end and waits until its thread has exited. Thread-safe and idempotent;
    /// every caller returns after the thread is gone. Called on the loop thread itself (from a
    /// job), it only asks: the loop ends after the current job, and nobody is joined.
    public func stop() {
        let onLoopThread = state.withLock { s -> Bool in
            s.stopRequested = true
            return s.loopThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
        }
        wakeup.wake()
        if !onLoopThread { join() }
    }

    /// Waits until the loop thread has exited, without asking it to stop (e.g. the main thread
    /// waiting for a session to end on its own). Returns at once on the loop thread.
    public func join() {
        if isLoopThread { return }
        joinHandle.withLock { handle in
            guard let thread = handle else { return }
            _ = pthread_join(thread, nil)
            handle = nil
        }
    }

    /// Why the loop ended; nil while it runs.
    public var outcome: EventLoopOutcome? { state.withLock { $0.outcome } }

    /// Whether the loop has finished (outcome set, jobs refused).
    public var isFinished: Bool { state.withLock { $0.finished } }

    /// Whether the caller runs on this loop's thread (for assertions in drivers and jobs).
    public var isLoopThread: Bool {
        state.withLock { s in s.loopThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    // MARK: Loop thread (used by LoopRunner)

    func recordLoopThread() {
        state.withLock { $0.loopThread = pthread_self() }
        executor.recordLoopThread()
    }

    /// Moves queued jobs into `batch` (which must be empty) and reports a pending stop. The two
    /// arrays swap storage, so steady traffic does not allocate.
    func takeJobs(into batch: inout [Job]) -> Bool {
        state.withLock { s in
            swap(&s.jobs, &batch)
            return s.stopRequested
        }
    }

    /// Marks the loop finished (no more jobs accepted) and hands back what is still queued.
    func finish(_ outcome: EventLoopOutcome) -> [Job] {
        state.withLock { s in
            s.finished = true
            s.outcome = outcome
            let rest = s.jobs
            s.jobs = []
            return rest
        }
    }
}
