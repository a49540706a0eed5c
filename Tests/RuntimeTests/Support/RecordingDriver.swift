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

/// A driver over one transport that records everything, fires a fixed list of deadlines, and
/// optionally echoes: the loop's contract seen from a driver, without a host.
final class RecordingDriver: EventLoopDriver {
    let context: EventLoopContext<RecordingDriver>
    let transport: any HCITransport
    let log: EventLog
    private var deadlines: [UInt64]
    let echo: Bool
    let acceptsShutdown: Bool
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    /// Driver-owned state, touched only on the loop thread (no lock).
    var counter = 0

    init(context: EventLoopContext<RecordingDriver>, transport: any HCITransport, log: EventLog, deadlines: [UInt64] = [],
         echo: Bool = false, acceptsShutdown: Bool = true) {
        self.context = context
        self.transport = transport
        self.log = log
        self.deadlines = deadlines.sorted()
        self.echo = echo
        self.acceptsShutdown = acceptsShutdown
        log.update { $0.loopThread = pthread_self() }
    }

    deinit { buffer.deallocate() }

    func collectDescriptors(into list: inout [WatchedDescriptor]) {
        let events = Int16(POLLIN) | (transport.hasPendingWrites ? Int16(POLLOUT) : 0)
        list.append(WatchedDescriptor(fd: transport.fd, events: events, token: 7))
    }

    func descriptorReady(_ token: Int, events: Int16, at now: UInt64) {
        let events = Int32(events)
        if events & POLLOUT != 0 {
            do throws(TransportError) { try transport.flushPendingWrites() } catch { return context.fail(error) }
        }
        guard events & (POLLIN | POLLHUP | POLLERR) != 0 else { return }
        let count: Int
        do throws(TransportError) { count = try transport.read(into: buffer) } catch { return context.fail(error) }
        if count == 0 {
            if events & POLLIN == 0 { context.fail(.endOfStream(adapter: transport.name)) }
            return
        }
        let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
        log.update {
            $0.received.append(contentsOf: bytes)
            $0.receiveCalls.append(Array(bytes))
        }
        if echo { write(bytes) }
    }

    /// Writes through the transport; a failure that ends it ends the loop.
    func write(_ bytes: UnsafeRawBufferPointer) {
        do throws(TransportError) {
            try transport.write(bytes)
        } catch {
            log.update { $0.writeErrors.append(error) }
            if error.endsTransport { context.fail(error) }
        }
    }

    func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { write($0) }
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

    func loopEnding(_ outcome: EventLoopOutcome) {
        let reason: TransportError
        if case .transportClosed(let e) = outcome { reason = e } else { reason = .closed(adapter: transport.name) }
        log.update { $0.closed.append(reason) }
        transport.close()
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
    try EventLoop<RecordingDriver>.start(name: "test-loop", signals: signals) { context in
        RecordingDriver(context: context, transport: transport, log: log, deadlines: deadlines, echo: echo,
                        acceptsShutdown: acceptsShutdown)
    }
}

/// Waits (bounded) for the loop to end by itself, then joins; on timeout stops it so a broken
/// test fails instead of hanging the run.
func finishes<D>(_ loop: EventLoop<D>) -> Bool {
    let ended = eventually { loop.isFinished }
    if ended { loop.join() } else { loop.stop() }
    return ended
}
