import Glibc
import Synchronization
@testable import Runtime

/// What a `RecordingDriver` saw, readable from the test thread.
final class EventLog: Sendable {
    struct Entries {
        var received: [UInt8] = []
        var receiveCalls: [[UInt8]] = []
        var fired: [(deadline: UInt64, at: UInt64)] = []
        var closed: [TransportError] = []
        var shutdownRequests = 0
        var loopThread: pthread_t?
        var jobsRun = 0
        var jobsOffLoopThread = 0
        var perSubmitter: [Int: [Int]] = [:]
        var writeErrors: [TransportError] = []
    }

    let entries = Mutex(Entries())

    func read<T: Sendable>(_ body: (Entries) -> T) -> T {
        entries.withLock { body($0) }
    }

    func update(_ body: (inout Entries) -> Void) {
        entries.withLock { body(&$0) }
    }

    var received: [UInt8] { read { $0.received } }
    var closed: [TransportError] { read { $0.closed } }
    var jobsRun: Int { read { $0.jobsRun } }
}

/// A driver that records everything, fires a fixed list of deadlines, and optionally echoes.
final class RecordingDriver: EventLoopDriver {
    let context: EventLoopContext<RecordingDriver>
    let log: EventLog
    private var deadlines: [UInt64]
    let echo: Bool
    let acceptsShutdown: Bool
    /// Driver-owned state, touched only on the loop thread (no lock).
    var counter = 0

    init(context: EventLoopContext<RecordingDriver>, log: EventLog, deadlines: [UInt64] = [],
         echo: Bool = false, acceptsShutdown: Bool = true) {
        self.context = context
        self.log = log
        self.deadlines = deadlines.sorted()
        self.echo = echo
        self.acceptsShutdown = acceptsShutdown
        log.update { $0.loopThread = pthread_self() }
    }

    func received(_ bytes: UnsafeRawBufferPointer, at now: UInt64) {
        log.update {
            $0.received.append(contentsOf: bytes)
            $0.receiveCalls.append(Array(bytes))
        }
        if echo {
            do throws(TransportError) {
                try context.write(bytes)
            } catch {
                log.update { $0.writeErrors.append(error) }
            }
        }
    }

    func deadlineReached(at now: UInt64) {
        while let first = deadlines.first, first <= now {
            deadlines.removeFirst()
            log.update { $0.fired.append((first, now)) }
        }
    }

    var nextDeadline: UInt64? { deadlines.first }

    func addDeadline(_ deadline: UInt64) {
        deadlines.append(deadline)
        deadlines.sort()
    }

    func transportClosed(_ error: TransportError) {
        log.update { $0.closed.append(error) }
    }

    func shutdownRequested(at now: UInt64) -> Bool {
        log.update { $0.shutdownRequests += 1 }
        return acceptsShutdown
    }

    /// Records a job run and whether it ran on the loop thread.
    func noteJob(submitter: Int = -1, sequence: Int = -1) {
        counter += 1
        let onLoop = context.loop.isLoopThread
        log.update {
            $0.jobsRun += 1
            if !onLoop { $0.jobsOffLoopThread += 1 }
            if submitter >= 0 { $0.perSubmitter[submitter, default: []].append(sequence) }
        }
    }
}

/// Starts a loop with a `RecordingDriver` over `transport`.
func startRecordingLoop(
    transport: sending any HCITransport,
    log: EventLog,
    deadlines: [UInt64] = [],
    echo: Bool = false,
    acceptsShutdown: Bool = true,
    signals: SignalWatcher? = nil
) throws -> EventLoop<RecordingDriver> {
    try EventLoop<RecordingDriver>.start(name: "test-loop", transport: transport, signals: signals) { context in
        RecordingDriver(context: context, log: log, deadlines: deadlines, echo: echo, acceptsShutdown: acceptsShutdown)
    }
}

/// Waits (bounded) for the loop to end by itself, then joins; on timeout stops it so a broken
/// test fails instead of hanging the run.
func finishes<D>(_ loop: EventLoop<D>) -> Bool {
    let ended = eventually { loop.isFinished }
    if ended { loop.join() } else { loop.stop() }
    return ended
}
