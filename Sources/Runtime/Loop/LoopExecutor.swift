import Glibc
import Synchronization

/// An event loop's thread as a Swift `TaskExecutor`: a task that prefers it
/// (`Task(executorPreference:)`, `TaskGroup.addTask(executorPreference:)`,
/// `withTaskExecutorPreference`) runs its nonisolated code on the loop thread itself.
///
/// Why: latency. A consumer on the global concurrent pool pays a cross-thread wake-up for every
/// notification that finds it waiting (Docs/performance.md, target (e)). When the consumer runs
/// here instead, the loop's yield to its stream makes the task's continuation a job in this
/// queue, on the same thread, and the loop runs it right after the read it is processing, before
/// it sleeps again: no thread hop, no futex, no context switch.
///
/// The price: such a task shares the thread with the adapter's I/O. While it runs, no bytes are
/// read, no write is flushed and no timer fires, so it must not block (no `sleep`, no blocking
/// system call, no waiting on a lock held elsewhere) and should hand long computations to
/// another executor. Actor-isolated code it calls still runs on the actor (a default actor
/// called from such a task runs here too, as Swift does for any task executor).
///
/// ## Threading
/// `enqueue` is thread-safe: the job goes into a mutex-protected queue; from another thread
/// the first job of an empty queue also writes the loop's wake-up eventfd, so a sleeping loop
/// wakes; from the loop thread nothing is written, because the loop drains the queue before
/// it sleeps. The loop takes the whole queue once per turn (after the turn's reads, timers and
/// submitted jobs, before `poll`), swapping arrays, so steady traffic allocates nothing. A job
/// enqueued by a job that is running goes to the next turn; the loop then polls without
/// waiting, so I/O still gets its turn between two rounds of jobs.
///
/// ## Shutdown
/// When the loop ends, after the driver's `transportClosed` (which, for `Central`, finishes
/// every stream and fails every pending call) and after the last submitted jobs, the jobs still
/// queued here are run on the loop thread, once each (and what they enqueue, for a bounded
/// number of rounds): a task waiting on a stream sees the stream end and finishes. From then on the executor forwards every job to the global
/// concurrent executor, so a task that outlives its loop keeps running (off the loop thread)
/// rather than being dropped. A dropped job would be a task that never completes and whatever
/// awaits it would hang, which is why nothing is ever dropped. Tasks retain the executor
/// they prefer, so it stays valid however long they live; the loop's descriptors are touched
/// only under the queue's lock and only before the end is marked, so a late `enqueue` never
/// writes a closed descriptor.
public final class LoopExecutor: TaskExecutor, Sendable {
    struct State {
        var jobs: [UnownedJob] = []
        var loopThread: pthread_t?
        var finished = false
    }

    private let state = Mutex(State())
    private let wakeup: WakeupDescriptor

    init(wakeup: WakeupDescriptor) {
        self.wakeup = wakeup
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        let queued = state.withLock { s -> Bool in
            if s.finished { return false }
            let wasEmpty = s.jobs.isEmpty
            s.jobs.append(unowned)
            // Same ordering argument as `EventLoop.submit`: the loop drains the eventfd before
            // it takes this queue, so waking on the empty → non-empty step loses no job. Woken
            // under the lock so the end (`finish`, which takes the lock) cannot close the
            // descriptor in between.
            if wasEmpty, !(s.loopThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false) {
                wakeup.wake()
            }
            return true
        }
        if !queued {
            // The loop has ended: keep the task alive on the pool instead of dropping it.
            globalConcurrentExecutor.enqueue(unowned)
        }
    }

    /// Whether the caller runs on the loop thread (the executor's code, once it runs).
    public var isLoopThread: Bool {
        state.withLock { s in s.loopThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    // MARK: Loop thread (used by LoopRunner)

    func recordLoopThread() {
        state.withLock { $0.loopThread = pthread_self() }
    }

    /// Runs the jobs queued so far (not those they enqueue) with `batch` as the swap buffer
    /// (empty on entry and on return). Returns whether any ran (the driver's deadline may have
    /// moved) and whether jobs are queued for the next turn.
    func runQueued(_ batch: inout [UnownedJob]) -> (ran: Bool, more: Bool) {
        state.withLock { s in swap(&s.jobs, &batch) }
        if batch.isEmpty { return (false, false) }
        let me = asUnownedTaskExecutor()
        for job in batch { job.runSynchronously(on: me) }
        batch.removeAll(keepingCapacity: true)
        return (true, state.withLock { !$0.jobs.isEmpty })
    }

    /// The loop's end: runs what is queued, and what those jobs enqueue, for a bounded number
    /// of rounds (a task that keeps yielding must not keep the thread from exiting); then marks
    /// the executor finished and hands anything still queued to the global executor.
    func finish() {
        var batch: [UnownedJob] = []
        let me = asUnownedTaskExecutor()
        for _ in 0..<Self.finishRounds {
            state.withLock { s in swap(&s.jobs, &batch) }
            if batch.isEmpty { break }
            for job in batch { job.runSynchronously(on: me) }
            batch.removeAll(keepingCapacity: true)
        }
        let rest = state.withLock { s -> [UnownedJob] in
            s.finished = true
            let rest = s.jobs
            s.jobs = []
            return rest
        }
        for job in rest { globalConcurrentExecutor.enqueue(job) }
    }

    static var finishRounds: Int { 64 }
}
