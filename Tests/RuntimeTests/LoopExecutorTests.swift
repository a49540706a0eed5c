import Glibc
import Synchronization
import Testing
@testable import Runtime

/// A driver that hands every read to an `AsyncStream`, as `CentralBridge` hands notification
/// batches to `Peripheral.notificationBatches`, and ends the stream when the transport closes.
final class StreamingDriver: EventLoopDriver {
    let continuation: AsyncStream<[UInt8]>.Continuation
    let transport: any HCITransport
    private var buffer = [UInt8](repeating: 0, count: 4096)

    init(_ continuation: AsyncStream<[UInt8]>.Continuation, transport: any HCITransport) {
        self.continuation = continuation
        self.transport = transport
    }

    func collectDescriptors(into list: inout [WatchedDescriptor]) {
        list.append(WatchedDescriptor(fd: transport.fd, events: Int16(POLLIN), token: 0))
    }

    func descriptorReady(_ token: Int, events: Int16, at now: UInt64) {
        let n = buffer.withUnsafeMutableBytes { raw in (try? transport.read(into: raw)) ?? 0 }
        if n > 0 { continuation.yield(Array(buffer[0..<n])) }
    }

    func deadlineReached(at now: UInt64) {}
    var nextDeadline: UInt64? { nil }
    func loopEnding(_ outcome: EventLoopOutcome) {
        continuation.finish()
        transport.close()
    }
}

/// What a consuming task saw: the bytes in arrival order, and whether each step ran on the loop thread.
final class ConsumerLog: Sendable {
    struct Entries {
        var bytes: [UInt8] = []
        var offLoopThread = 0
        var steps = 0
        var ended = false
    }
    private let entries = Mutex(Entries())
    func update(_ body: (inout Entries) -> Void) { entries.withLock { body(&$0) } }
    func read<T: Sendable>(_ body: (Entries) -> T) -> T { entries.withLock { body($0) } }
}

/// Whether each task ran on the loop thread; a class so escaping closures can share it.
final class Results: Sendable {
    let list = Mutex<[Bool]>([])
}

@Suite struct LoopExecutorTests {
    @Test func jobsEnqueuedFromOtherThreadsRunOnTheLoopThread() async throws {
        let (transport, peer) = SocketPairTransport.make()
        defer { close(peer) }
        let log = EventLog()
        let loop = try startRecordingLoop(transport: transport, log: log)
        defer { loop.stop() }
        #expect(!loop.executor.isLoopThread)
        let ran = Results()
        // Tasks started from threads of their own: each start is an `enqueue` from another
        // thread, which must wake the sleeping loop. (Plain threads, not pool tasks: under the
        // full suite other tests may hold the 2-thread pool for many seconds.)
        let starters = (0..<20).map { _ in
            spawnTestThread {
                Task(executorPreference: loop.executor) {
                    let here = loop.isLoopThread && loop.executor.isLoopThread
                    ran.list.withLock { $0.append(here) }
                }
            }
        }
        for t in starters { pthread_join(t, nil) }
        // `#require`: if the loop never ran them, end here (the deferred stop runs the queued
        // jobs) rather than hang in the await below.
        try #require(await eventuallyAsync { ran.list.withLock { $0.count } == 20 })
        #expect(ran.list.withLock { $0 } == Array(repeating: true, count: 20))

        // `withTaskExecutorPreference`: the body hops onto the loop thread and back.
        let inside = await withTaskExecutorPreference(loop.executor) { loop.isLoopThread }
        #expect(inside)
        #expect(!loop.isLoopThread)
    }

    @Test func taskOnTheLoopExecutorSeesEveryReadInOrderOnTheLoopThread() async throws {
        let (transport, peer) = SocketPairTransport.make()
        defer { close(peer) }
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream()
        let loop = try EventLoop<StreamingDriver>.start(name: "test-loop") { _ in
            StreamingDriver(continuation, transport: transport)
        }
        defer { loop.stop() }
        let consumer = ConsumerLog()
        let count = 250
        Task(executorPreference: loop.executor) {
            for await chunk in stream {
                let onLoop = loop.isLoopThread
                consumer.update {
                    $0.bytes += chunk
                    $0.steps += 1
                    if !onLoop { $0.offLoopThread += 1 }
                }
                if consumer.read({ $0.bytes.count }) >= count { break }
            }
            consumer.update { $0.ended = true }
        }
        // One write at a time, each waiting until the consumer has it, so most reads find the
        // task waiting and resume it (the path the executor is for).
        for i in 0..<count {
            #expect(writeAll(peer, [UInt8(truncatingIfNeeded: i)]))
            if i % 10 == 0 { _ = await eventuallyAsync { consumer.read { $0.bytes.count } > i } }
        }
        #expect(await eventuallyAsync { consumer.read { $0.ended } })
        #expect(consumer.read { $0.bytes } == (0..<count).map { UInt8(truncatingIfNeeded: $0) })
        #expect(consumer.read { $0.offLoopThread } == 0)
        #expect(consumer.read { $0.steps } > 0)
    }

    @Test func stoppingTheLoopEndsAWaitingTaskAndLaterJobsStillRun() async throws {
        let (transport, peer) = SocketPairTransport.make()
        defer { close(peer) }
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream()
        let loop = try EventLoop<StreamingDriver>.start(name: "test-loop") { _ in
            StreamingDriver(continuation, transport: transport)
        }
        let consumer = ConsumerLog()
        Task(executorPreference: loop.executor) {
            consumer.update { $0.steps += 1 }
            for await chunk in stream { consumer.update { $0.bytes += chunk } }
            // The stream ended in `transportClosed`; this runs in the executor's final round.
            let onLoop = loop.isLoopThread
            consumer.update {
                if !onLoop { $0.offLoopThread += 1 }
                $0.ended = true
            }
        }
        // The task is waiting on the stream when the loop stops.
        #expect(await eventuallyAsync { consumer.read { $0.steps } == 1 })
        usleep(20_000)
        #expect(!consumer.read { $0.ended })
        loop.stop()
        #expect(consumer.read { $0.ended })
        #expect(consumer.read { $0.offLoopThread } == 0)

        // After the end, a task preferring the executor is not dropped: it runs on the pool.
        let late = await Task(executorPreference: loop.executor) { (41 + 1, loop.isLoopThread) }.value
        #expect(late.0 == 42)
        #expect(!late.1)
    }
}
