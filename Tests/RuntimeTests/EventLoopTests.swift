import Glibc
import Synchronization
import Testing
import HostCore
import Wire
@testable import Runtime

@Suite struct EventLoopTests {
    @Test func deadlinesFireInOrderAndNeverEarly() throws {
        let (transport, peer) = SocketPairTransport.make()
        defer { close(peer) }
        let log = EventLog()
        let start = MonotonicClock.now()
        let ms = MonotonicClock.nanosecondsPerMillisecond
        // Given out of order on purpose; two share a deadline.
        let deadlines = [start + 60 * ms, start + 5 * ms, start + 30 * ms, start + 30 * ms, start + 1, start + 90 * ms]
        let loop = try startRecordingLoop(transport: transport, log: log, deadlines: deadlines)
        defer { loop.stop() }
        #expect(eventually { log.read { $0.fired.count } == deadlines.count })
        let fired = log.read { $0.fired }
        #expect(fired.map(\.deadline) == deadlines.sorted())
        for (deadline, at) in fired {
            #expect(at >= deadline, "fired \(deadline - at) ns early")
        }
        #expect(zip(fired, fired.dropFirst()).allSatisfy { $0.at <= $1.at })
    }

    @Test func pollTimeoutRoundsUpSoDeadlinesAreNotEarly() {
        #expect(PollTimeout.milliseconds(until: nil, now: 5) == -1)
        #expect(PollTimeout.milliseconds(until: 5, now: 5) == 0)
        #expect(PollTimeout.milliseconds(until: 4, now: 5) == 0)
        #expect(PollTimeout.milliseconds(until: 6, now: 5) == 1)
        #expect(PollTimeout.milliseconds(until: 2_000_000, now: 0) == 2)
        #expect(PollTimeout.milliseconds(until: 2_000_001, now: 0) == 3)
        #expect(PollTimeout.milliseconds(until: .max, now: 0) == Int32.max)
    }

    @Test func deadlineAddedByAJobIsHonoured() throws {
        let (transport, peer) = SocketPairTransport.make()
        defer { close(peer) }
        let log = EventLog()
        let loop = try startRecordingLoop(transport: transport, log: log)
        defer { loop.stop() }
        let due = MonotonicClock.now() + 20 * MonotonicClock.nanosecondsPerMillisecond
        // The loop is asleep with no timeout: the job must make it recompute its poll timeout.
        #expect(loop.submit { driver in driver.addDeadline(due) })
        #expect(eventually { log.read { $0.fired.count } == 1 })
        let fired = log.read { $0.fired }
        #expect(fired.first?.deadline == due)
        #expect((fired.first?.at ?? 0) >= due)
    }

    @Test func submittedJobsRunOnTheLoopThread() throws {
        let (transport, peer) = SocketPairTransport.make()
        defer { close(peer) }
        let log = EventLog()
        let loop = try startRecordingLoop(transport: transport, log: log)
        defer { loop.stop() }
        #expect(!loop.isLoopThread)
        let sawLoopThread = Mutex<[Bool]>([])
        let otherThread = pthread_self()
        for _ in 0..<10 {
            loop.submit { driver in
                driver.noteJob()
                let here = pthread_self()
                sawLoopThread.withLock {
                    $0.append(pthread_equal(here, otherThread) == 0 && driver.context.loop.isLoopThread)
                }
            }
        }
        // The plain form, without the driver.
        let plainRan = Mutex(false)
        loop.submit { plainRan.withLock { $0 = loop.isLoopThread } }
        #expect(eventually { log.jobsRun == 10 && plainRan.withLock { $0 } })
        #expect(sawLoopThread.withLock { $0 } == Array(repeating: true, count: 10))
        #expect(log.read { $0.jobsOffLoopThread } == 0)
        let loopThread = log.read { $0.loopThread }
        #expect(loopThread.map { pthread_equal($0, pthread_self()) == 0 } == true)
    }

    @Test func manyWakesFromManyThreadsLoseNoJob() throws {
        let (transport, peer) = SocketPairTransport.make()
        defer { close(peer) }
        let log = EventLog()
        let loop = try startRecordingLoop(transport: transport, log: log)
        let submitters = 4
        let perSubmitter = 20_000
        let threads = (0..<submitters).map { index in
            spawnTestThread {
                for sequence in 0..<perSubmitter {
                    loop.submit { driver in driver.noteJob(submitter: index, sequence: sequence) }
                    if sequence % 1000 == 0 { sched_yield() }
                }
            }
        }
        threads.forEach { pthread_join($0, nil) }
        #expect(eventually { log.jobsRun == submitters * perSubmitter })
        loop.stop()
        #expect(log.jobsRun == submitters * perSubmitter)
        // Each submitter's jobs ran in its submission order.
        let order = log.read { $0.perSubmitter }
        for index in 0..<submitters {
            #expect(order[index] == Array(0..<perSubmitter))
        }
    }

    @Test func stopJoinsIsIdempotentAndThreadSafe() throws {
        let (transport, peer) = SocketPairTransport.make()
        defer { close(peer) }
        let log = EventLog()
        let loop = try startRecordingLoop(transport: transport, log: log)
        #expect(loop.outcome == nil && !loop.isFinished)
        let stoppers = (0..<4).map { _ in spawnTestThread { loop.stop() } }
        loop.stop()
        // Every stop returned only after the thread exited, so the results are already there.
        #expect(loop.isFinished)
        #expect(loop.outcome == .stopped)
        #expect(log.closed == [.closed(adapter: "socketpair")])
        stoppers.forEach { pthread_join($0, nil) }
        loop.stop()
        #expect(finishes(loop))
        #expect(log.closed.count == 1)
        // The transport was closed: the peer sees end of stream.
        var byte: UInt8 = 0
        #expect(Glibc.read(peer, &byte, 1) == 0)
    }

    @Test func acceptedJobsRunExactlyOnceEvenWhenStopped() throws {
        let (transport, peer) = SocketPairTransport.make()
        defer { close(peer) }
        let log = EventLog()
        let loop = try startRecordingLoop(transport: transport, log: log)
        // Block the loop inside a job so the following submissions are still queued at stop().
        let release = Mutex(false)
        loop.submit { driver in
            while !release.withLock({ $0 }) { usleep(100) }
        }
        var accepted = 0
        for _ in 0..<100 where loop.submit({ driver in driver.noteJob() }) { accepted += 1 }
        let stopper = spawnTestThread { loop.stop() }
        usleep(10_000)
        release.withLock { $0 = true }
        pthread_join(stopper, nil)
        #expect(accepted == 100)
        #expect(log.jobsRun == 100)
        #expect(loop.submit { driver in driver.noteJob() } == false)
        #expect(log.jobsRun == 100)
    }

    @Test func stopFromInsideAJobDoesNotDeadlock() throws {
        let (transport, peer) = SocketPairTransport.make()
        defer { close(peer) }
        let log = EventLog()
        let loop = try startRecordingLoop(transport: transport, log: log)
        loop.submit { driver in driver.context.loop.stop() }
        #expect(finishes(loop))
        #expect(loop.outcome == .stopped)
    }

    @Test func contextStopFromACallbackEndsTheLoop() throws {
        let (transport, peer) = SocketPairTransport.make()
        defer { close(peer) }
        let log = EventLog()
        let loop = try startRecordingLoop(transport: transport, log: log)
        loop.submit { driver in driver.context.stop() }
        #expect(finishes(loop))
        #expect(loop.outcome == .stopped)
        #expect(log.closed == [.closed(adapter: "socketpair")])
    }

    @Test func packetFramingDeliversOnePacketPerCall() throws {
        let (transport, peer) = SocketPairTransport.make(framing: .packets)
        defer { close(peer) }
        let log = EventLog()
        let loop = try startRecordingLoop(transport: transport, log: log)
        defer { loop.stop() }
        // Command Complete (Vol 4, Part E, §7.7.14) and Number Of Completed Packets (§7.7.19).
        let packets: [[UInt8]] = [
            [0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00],
            [0x04, 0x13, 0x05, 0x01, 0x40, 0x00, 0x01, 0x00],
        ]
        for packet in packets { _ = packet.withUnsafeBytes { send(peer, $0.baseAddress, $0.count, 0) } }
        #expect(eventually { log.read { $0.receiveCalls.count } == 2 })
        #expect(log.read { $0.receiveCalls } == packets)
    }

    @Test func theHCIBackendWritesH4PacketsWithTheIndicatorByte() throws {
        let (transport, peer) = SocketPairTransport.make()
        defer { close(peer) }
        let io = HCITransportIO(transport: transport, configuration: HostConfiguration(ownAddress: .publicAddress),
                                tap: PacketTap(wallClockMicros: 0, monotonicNanos: 0))
        let loop = try EventLoop<AdapterDriver>.start(name: "test-loop") { context in
            AdapterDriver(context: context, io: io, application: IdleApplication(), at: MonotonicClock.now())
        }
        defer { loop.stop() }
        // The host starts with HCI_Reset (Vol 4, Part E, §7.3.2): opcode 0x0C03, no parameters.
        #expect(readBytes(peer, count: 4) == [0x01, 0x03, 0x0C, 0x00])
    }

    @Test func writesQueuedOnTheLoopAreFlushedOnPollOut() throws {
        let (transport, peer) = SocketPairTransport.make(queueLimit: 8 << 20)
        defer { close(peer) }
        let log = EventLog()
        let loop = try startRecordingLoop(transport: transport, log: log)
        defer { loop.stop() }
        let payload = (0..<(2 << 20)).map { UInt8(truncatingIfNeeded: $0 >> 3) }
        // nil until the loop has written: the peer reads only then, so a reader draining the
        // socket while the write runs cannot let all 2 MiB through at once.
        let queued = Mutex<Bool?>(nil)
        loop.submit { driver in
            driver.write(payload)
            queued.withLock { $0 = driver.transport.hasPendingWrites }
        }
        while queued.withLock({ $0 }) == nil { usleep(1_000) }
        let received = readBytes(peer, count: payload.count)
        #expect(queued.withLock { $0 } == true)
        #expect(received == payload)
    }

    @Test func peerCloseGivesEndOfStreamOnce() throws {
        let (transport, peer) = SocketPairTransport.make()
        let log = EventLog()
        let loop = try startRecordingLoop(transport: transport, log: log)
        close(peer)
        #expect(finishes(loop))
        #expect(log.closed == [.endOfStream(adapter: "socketpair")])
        #expect(loop.outcome == .transportClosed(.endOfStream(adapter: "socketpair")))
        #expect(loop.submit { _ in } == false)
    }

    @Test func writeAfterPeerResetEndsTheLoop() throws {
        let (transport, peer) = SocketPairTransport.make()
        let log = EventLog()
        let loop = try startRecordingLoop(transport: transport, log: log)
        // Shut the peer down for reading only: our writes then fail with EPIPE, not EOF.
        _ = shutdown(peer, Int32(SHUT_RD))
        defer { close(peer) }
        loop.submit { driver in
            driver.write([0x01, 0x03, 0x0C, 0x00])
        }
        #expect(finishes(loop))
        #expect(log.read { $0.writeErrors } == [.connectionReset(adapter: "socketpair")])
        #expect(log.closed == [.connectionReset(adapter: "socketpair")])
    }
}

/// Configuration that is not `Sendable` (like a host core built before the loop starts).
final class NonSendableSetup {
    var deadlines: [UInt64] = []
}

@Suite struct EventLoopOwnershipTests {
    @Test func nonSendableStateMovesIntoTheLoopThroughTheFactory() throws {
        let (transport, peer) = SocketPairTransport.make()
        defer { close(peer) }
        let log = EventLog()
        let setup = NonSendableSetup()
        setup.deadlines = [MonotonicClock.now()]
        // `driver:` is a `sending` closure: it may capture `setup` because nothing here uses
        // `setup` afterwards; the compiler would reject a later use.
        let loop = try EventLoop<RecordingDriver>.start { context in
            RecordingDriver(context: context, transport: transport, log: log, deadlines: setup.deadlines)
        }
        defer { loop.stop() }
        #expect(eventually { log.read { $0.fired.count } == 1 })
    }
}

/// An application that does nothing (for loop tests of the adapter driver).
final class IdleApplication: HostApplication {
    func attach(_ driver: AdapterDriver, at now: HostTime) {}
    func hostEvent(_ event: HostEvent, at now: HostTime) {}
    var nextDeadline: HostTime? { nil }
    func deadlineReached(at now: HostTime) {}
    func adapterClosed(_ error: TransportError) {}
    func shutdownRequested(at now: HostTime) -> Bool { true }
}

/// A plain pthread for "from another thread" tests.
func spawnTestThread(_ body: @escaping @Sendable () -> Void) -> pthread_t {
    final class Box { let body: @Sendable () -> Void; init(_ b: @escaping @Sendable () -> Void) { body = b } }
    var thread = pthread_t()
    let rc = pthread_create(&thread, nil, { raw in
        Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().body()
        return nil
    }, Unmanaged.passRetained(Box(body)).toOpaque())
    precondition(rc == 0)
    return thread
}
