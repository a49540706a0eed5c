import Glibc
import Testing
import Wire
@testable import Runtime

/// A driver that watches the read ends of some socketpairs and records what it reads.
private final class DescriptorRecordingDriver: MultiDescriptorDriver {
    var fds: [Int32]
    var reads: [(token: Int, bytes: [UInt8])] = []
    var deadline: UInt64?
    var deadlineCalls = 0
    var finishAfterReads: Int?
    var isFinished = false
    var shutdownAnswer = true
    var shutdowns = 0

    init(fds: [Int32]) { self.fds = fds }

    func collectDescriptors(into list: inout [WatchedDescriptor]) {
        for (i, fd) in fds.enumerated() where fd >= 0 { list.append(WatchedDescriptor(fd: fd, events: Int16(POLLIN), token: i)) }
    }

    func descriptorReady(_ token: Int, events: Int16, at now: UInt64) {
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = buffer.withUnsafeMutableBytes { recv(fds[token], $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if n <= 0 {
            fds[token] = -1  // gone: no longer watched
            return
        }
        reads.append((token, Array(buffer[0..<n])))
        if let f = finishAfterReads, reads.count >= f { isFinished = true }
    }

    var nextDeadline: UInt64? { deadline }

    /// Keeps its deadline when set (a driver that is always due).
    var stuckDeadline = false

    func deadlineReached(at now: UInt64) {
        deadlineCalls += 1
        if !stuckDeadline { deadline = nil }
    }

    func shutdownRequested(at now: UInt64) -> Bool {
        shutdowns += 1
        return shutdownAnswer
    }
}

private func pair() -> (Int32, Int32) {
    var fds: [Int32] = [-1, -1]
    _ = socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds)
    return (fds[0], fds[1])
}

@Suite struct MultiDescriptorLoopTests {
    @Test func readsEveryWatchedDescriptorWithItsTokenAndKeepsPacketBoundaries() throws {
        let a = pair(), b = pair()
        defer { for fd in [a.0, a.1, b.0, b.1] { close(fd) } }
        let driver = DescriptorRecordingDriver(fds: [a.0, b.0])
        driver.finishAfterReads = 3
        _ = [UInt8]([1, 2, 3]).withUnsafeBytes { send(b.1, $0.baseAddress, $0.count, 0) }
        _ = [UInt8]([4]).withUnsafeBytes { send(a.1, $0.baseAddress, $0.count, 0) }
        _ = [UInt8]([5, 6]).withUnsafeBytes { send(b.1, $0.baseAddress, $0.count, 0) }
        let loop = try MultiDescriptorLoop()
        #expect(loop.run(driver, signals: nil) == .stopped)
        #expect(driver.reads.count == 3)
        #expect(driver.reads.filter { $0.token == 0 }.map(\.bytes) == [[4]])
        #expect(driver.reads.filter { $0.token == 1 }.map(\.bytes) == [[1, 2, 3], [5, 6]])
    }

    @Test func deadlinesFireAndStopFromAnotherThreadEndsTheLoop() async throws {
        let a = pair()
        defer { close(a.0); close(a.1) }
        let driver = DescriptorRecordingDriver(fds: [a.0])
        driver.deadline = MonotonicClock.now() + 20_000_000
        let loop = try MultiDescriptorLoop()
        let stopper = Task.detached {
            try? await Task.sleep(nanoseconds: 150_000_000)
            loop.stop()
        }
        let started = MonotonicClock.now()
        #expect(loop.run(driver, signals: nil) == .stopped)
        await stopper.value
        #expect(driver.deadlineCalls == 1)
        #expect(MonotonicClock.now() - started >= 100_000_000)
        #expect(driver.reads.isEmpty)
    }

    @Test func aDescriptorThatHangsUpIsReportedOnce() throws {
        let a = pair(), b = pair()
        defer { close(a.0); close(b.0); close(b.1) }
        let driver = DescriptorRecordingDriver(fds: [a.0, b.0])
        driver.finishAfterReads = 1
        close(a.1)  // peer gone: POLLHUP, read 0, the driver drops it
        _ = [UInt8]([9]).withUnsafeBytes { send(b.1, $0.baseAddress, $0.count, 0) }
        let loop = try MultiDescriptorLoop()
        #expect(loop.run(driver, signals: nil) == .stopped)
        #expect(driver.fds[0] == -1)
        #expect(driver.reads.map(\.bytes) == [[9]])
    }

    @Test func aDriverAlwaysDueDoesNotStarveItsDescriptors() throws {
        let a = pair()
        defer { close(a.0); close(a.1) }
        let driver = DescriptorRecordingDriver(fds: [a.0])
        driver.deadline = 0
        driver.stuckDeadline = true
        driver.finishAfterReads = 1
        _ = [UInt8]([7]).withUnsafeBytes { send(a.1, $0.baseAddress, $0.count, 0) }
        let loop = try MultiDescriptorLoop()
        #expect(loop.run(driver, signals: nil) == .stopped)
        #expect(driver.reads.map(\.bytes) == [[7]])
        #expect(driver.deadlineCalls >= 1)
    }
}
