import Glibc
import Synchronization
import Testing
import Wire
@testable import Runtime

/// What a `DescriptorRecordingDriver` saw, readable from the test thread.
private final class DescriptorLog: Sendable {
    struct Entries {
        var reads: [(token: Int, bytes: [UInt8])] = []
        var deadlineCalls = 0
        var dropped: [Int] = []
    }
    let entries = Mutex(Entries())
    func read<T: Sendable>(_ body: (Entries) -> T) -> T { entries.withLock { body($0) } }
}

/// A driver that watches the read ends of some socketpairs (any number: the kernel backend's
/// management socket plus a socket per link) and records what it reads.
private final class DescriptorRecordingDriver: EventLoopDriver {
    let context: EventLoopContext<DescriptorRecordingDriver>
    let log: DescriptorLog
    var fds: [Int32]
    var deadline: UInt64?
    /// Keeps its deadline when set (a driver that is always due).
    let stuckDeadline: Bool
    let finishAfterReads: Int?

    init(context: EventLoopContext<DescriptorRecordingDriver>, log: DescriptorLog, fds: [Int32], deadline: UInt64? = nil,
         stuckDeadline: Bool = false, finishAfterReads: Int? = nil) {
        self.context = context
        self.log = log
        self.fds = fds
        self.deadline = deadline
        self.stuckDeadline = stuckDeadline
        self.finishAfterReads = finishAfterReads
    }

    func collectDescriptors(into list: inout [WatchedDescriptor]) {
        for (i, fd) in fds.enumerated() where fd >= 0 { list.append(WatchedDescriptor(fd: fd, events: Int16(POLLIN), token: i)) }
    }

    func descriptorReady(_ token: Int, events: Int16, at now: UInt64) {
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = buffer.withUnsafeMutableBytes { recv(fds[token], $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if n <= 0 {
            fds[token] = -1  // gone: no longer watched
            log.entries.withLock { $0.dropped.append(token) }
            return
        }
        let count = log.entries.withLock { e -> Int in
            e.reads.append((token, Array(buffer[0..<n])))
            return e.reads.count
        }
        if let f = finishAfterReads, count >= f { context.stop() }
    }

    var nextDeadline: UInt64? { deadline }

    func deadlineReached(at now: UInt64) {
        log.entries.withLock { $0.deadlineCalls += 1 }
        if !stuckDeadline { deadline = nil }
    }

    func loopEnding(_ outcome: EventLoopOutcome) {}
}

private func pair() -> (Int32, Int32) {
    var fds: [Int32] = [-1, -1]
    _ = socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds)
    return (fds[0], fds[1])
}

/// The one event loop with several descriptors, as the kernel backend uses it.
@Suite struct EventLoopDescriptorTests {
    @Test func readsEveryWatchedDescriptorWithItsTokenAndKeepsPacketBoundaries() throws {
        let a = pair(), b = pair()
        defer { for fd in [a.0, a.1, b.0, b.1] { close(fd) } }
        let log = DescriptorLog()
        _ = [UInt8]([1, 2, 3]).withUnsafeBytes { send(b.1, $0.baseAddress, $0.count, 0) }
        _ = [UInt8]([4]).withUnsafeBytes { send(a.1, $0.baseAddress, $0.count, 0) }
        _ = [UInt8]([5, 6]).withUnsafeBytes { send(b.1, $0.baseAddress, $0.count, 0) }
        let fds = [a.0, b.0]
        let loop = try EventLoop<DescriptorRecordingDriver>.start { context in
            DescriptorRecordingDriver(context: context, log: log, fds: fds, finishAfterReads: 3)
        }
        #expect(finishes(loop))
        #expect(loop.outcome == .stopped)
        let reads = log.read { $0.reads.map { ($0.token, $0.bytes) } }
        #expect(reads.count == 3)
        #expect(reads.filter { $0.0 == 0 }.map(\.1) == [[4]])
        #expect(reads.filter { $0.0 == 1 }.map(\.1) == [[1, 2, 3], [5, 6]])
    }

    @Test func deadlinesFireAndStopFromAnotherThreadEndsTheLoop() throws {
        let a = pair()
        defer { close(a.0); close(a.1) }
        let log = DescriptorLog()
        let fds = [a.0]
        let due = MonotonicClock.now() + 20_000_000
        let started = MonotonicClock.now()
        let loop = try EventLoop<DescriptorRecordingDriver>.start { context in
            DescriptorRecordingDriver(context: context, log: log, fds: fds, deadline: due)
        }
        #expect(eventually { log.read { $0.deadlineCalls } == 1 })
        usleep(100_000)
        loop.stop()
        #expect(loop.outcome == .stopped)
        #expect(log.read { $0.deadlineCalls } == 1)
        #expect(MonotonicClock.now() - started >= 100_000_000)
        #expect(log.read { $0.reads.isEmpty })
    }

    @Test func aDescriptorThatHangsUpIsReportedOnce() throws {
        let a = pair(), b = pair()
        defer { close(a.0); close(b.0); close(b.1) }
        let log = DescriptorLog()
        close(a.1)  // peer gone: POLLHUP, read 0, the driver drops it
        _ = [UInt8]([9]).withUnsafeBytes { send(b.1, $0.baseAddress, $0.count, 0) }
        let fds = [a.0, b.0]
        let loop = try EventLoop<DescriptorRecordingDriver>.start { context in
            DescriptorRecordingDriver(context: context, log: log, fds: fds, finishAfterReads: 1)
        }
        #expect(finishes(loop))
        #expect(log.read { $0.reads.map(\.bytes) } == [[9]])
        #expect(log.read { $0.dropped } == [0])
    }

    @Test func aDriverAlwaysDueDoesNotStarveItsDescriptors() throws {
        let a = pair()
        defer { close(a.0); close(a.1) }
        let log = DescriptorLog()
        _ = [UInt8]([7]).withUnsafeBytes { send(a.1, $0.baseAddress, $0.count, 0) }
        let fds = [a.0]
        let loop = try EventLoop<DescriptorRecordingDriver>.start { context in
            DescriptorRecordingDriver(context: context, log: log, fds: fds, deadline: 0, stuckDeadline: true, finishAfterReads: 1)
        }
        #expect(finishes(loop))
        #expect(log.read { $0.reads.map(\.bytes) } == [[7]])
        #expect(log.read { $0.deadlineCalls } >= 1)
    }
}
