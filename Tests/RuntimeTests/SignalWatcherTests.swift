import Glibc
import Synchronization
import Testing
@testable import Runtime

/// Signal dispositions are process-wide: these tests run one at a time and use SIGUSR1/SIGUSR2
/// (never SIGINT, which would stop the test runner if a handler were missing).
///
/// Signals go to the process (`kill(getpid(), …)`), not `raise()`: Swift Testing runs tests on
/// concurrency worker threads, which block signals, so a thread-directed signal would stay
/// pending there forever. The kernel hands a process-directed one to a thread that accepts it.
@Suite(.serialized) struct SignalWatcherTests {
    @Test func firstSignalIsGracefulSecondImmediate() throws {
        let watcher = try SignalWatcher.install(signals: [SIGUSR1], exitOnSecondSignal: false)
        defer { watcher.uninstall() }
        #expect(watcher.takeRequest() == nil)
        sendToProcess(SIGUSR1)
        var p = pollfd(fd: watcher.fd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&p, 1, 10_000) == 1)
        #expect(watcher.takeRequest() == .graceful(signal: SIGUSR1))
        #expect(watcher.takeRequest() == nil)
        sendToProcess(SIGUSR1)
        #expect(watcher.wait(timeout: testTimeout) == .immediate(signal: SIGUSR1))
        #expect(watcher.wait(timeout: 1_000_000) == nil)
    }

    @Test func onlyOneWatcherAtATimeAndUninstallRestores() throws {
        let watcher = try SignalWatcher.install(signals: [SIGUSR1], exitOnSecondSignal: false)
        #expect(throws: SignalWatcherError.alreadyInstalled) {
            _ = try SignalWatcher.install(signals: [SIGUSR2])
        }
        watcher.uninstall()
        watcher.uninstall()
        var current = sigaction()
        _ = sigaction(SIGUSR1, nil, &current)
        #expect(current.__sigaction_handler.sa_handler == nil)  // SIG_DFL is a null pointer
        let again = try SignalWatcher.install(signals: [SIGUSR1], exitOnSecondSignal: false)
        again.uninstall()
    }

    @Test func brokenPipeIsIgnored() throws {
        let watcher = try SignalWatcher.install(signals: [SIGUSR1], exitOnSecondSignal: false)
        defer { watcher.uninstall() }
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        close(ends[0])
        var disposition = sigaction()
        _ = sigaction(SIGPIPE, nil, &disposition)
        #expect(unsafeBitCast(disposition.__sigaction_handler.sa_handler, to: Int.self) == 1)  // SIG_IGN is (void (*)(int))1
        var byte: UInt8 = 0
        // Without SIG_IGN this write would kill the test process.
        #expect(write(ends[1], &byte, 1) == -1)
        #expect(errno == EPIPE)
        close(ends[1])
    }

    @Test func waitReturnsASignalFromAnotherThread() throws {
        let watcher = try SignalWatcher.install(signals: [SIGUSR1], exitOnSecondSignal: false)
        defer { watcher.uninstall() }
        let sender = spawnTestThread {
            usleep(20_000)
            sendToProcess(SIGUSR1)
        }
        #expect(watcher.wait(timeout: testTimeout) == .graceful(signal: SIGUSR1))
        pthread_join(sender, nil)
    }

    @Test func loopEndsOnASignalTheDriverAccepts() throws {
        let watcher = try SignalWatcher.install(signals: [SIGUSR1], exitOnSecondSignal: false)
        defer { watcher.uninstall() }
        let (transport, peer) = SocketPairTransport.make()
        defer { close(peer) }
        let log = EventLog()
        let loop = try startRecordingLoop(transport: transport, log: log, signals: watcher)
        sendToProcess(SIGUSR1)
        #expect(finishes(loop))
        #expect(loop.outcome == .interrupted(signal: SIGUSR1))
        #expect(log.read { $0.shutdownRequests } == 1)
        #expect(log.closed == [.closed(adapter: "socketpair")])
    }

    @Test func gracefulShutdownThenSecondSignalStopsAtOnce() throws {
        let watcher = try SignalWatcher.install(signals: [SIGUSR1], exitOnSecondSignal: false)
        defer { watcher.uninstall() }
        let (transport, peer) = SocketPairTransport.make()
        defer { close(peer) }
        let log = EventLog()
        // The driver wants to wind down itself: the first signal does not end the loop.
        let loop = try startRecordingLoop(transport: transport, log: log, acceptsShutdown: false, signals: watcher)
        sendToProcess(SIGUSR1)
        #expect(eventually { log.read { $0.shutdownRequests } == 1 })
        usleep(20_000)
        #expect(!loop.isFinished)
        sendToProcess(SIGUSR1)
        #expect(finishes(loop))
        #expect(loop.outcome == .interrupted(signal: SIGUSR1))
        #expect(log.read { $0.shutdownRequests } == 1)
    }

    @Test func loopSurvivesEINTR() throws {
        // A handler without SA_RESTART makes poll() fail with EINTR on the loop thread.
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        var old = sigaction()
        #expect(sigaction(SIGUSR2, &action, &old) == 0)
        defer { _ = sigaction(SIGUSR2, &old, nil) }

        let (transport, peer) = SocketPairTransport.make()
        defer { close(peer) }
        let log = EventLog()
        let due = MonotonicClock.now() + 150 * MonotonicClock.nanosecondsPerMillisecond
        let loop = try startRecordingLoop(transport: transport, log: log, deadlines: [due])
        defer { loop.stop() }
        #expect(eventually { log.read { $0.loopThread } != nil })
        let thread = try #require(log.read { $0.loopThread })
        for _ in 0..<50 {
            #expect(pthread_kill(thread, SIGUSR2) == 0)
            usleep(1000)
        }
        #expect(eventually { log.read { $0.fired.count } == 1 })
        #expect((log.read { $0.fired.first?.at } ?? 0) >= due)
        // And it still serves I/O and jobs.
        #expect(writeAll(peer, [0x04]))
        #expect(eventually { log.received == [0x04] })
        #expect(!loop.isFinished)
    }
}

/// A process-directed signal (see the suite comment).
func sendToProcess(_ signo: Int32) {
    _ = kill(getpid(), signo)
}
