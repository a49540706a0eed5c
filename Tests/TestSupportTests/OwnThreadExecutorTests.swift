import Foundation
import Synchronization
import Testing
@testable import TestSupport

// Not `.ownThread` on the suite: its tests would then wait for turns behind every tshark test
// of the run, inside their time limits (the first full run failed them so).
@Suite("OwnThreadExecutor: a test that blocks holds its own thread, not the global pool")
struct OwnThreadExecutorTests {
    final class Flag: Sendable {
        let value = Mutex(false)
    }

    final class Counter: Sendable {
        let value = Mutex(0)
    }

    static func threadName() -> String? { OwnThreadExecutor.currentName() }

    /// Counts itself started, then blocks the calling thread until `flag` is set or `seconds` have passed; whether it was set.
    static func block(_ started: Counter, until flag: Flag, seconds: Double) -> Bool {
        started.value.withLock { $0 += 1 }
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if flag.value.withLock({ $0 }) { return true }
            usleep(1_000)
        }
        return false
    }

    @Test("Two blocked jobs on executors of their own leave the pool free: a pool task runs while they block",
          .timeLimit(.minutes(10)))
    func blockedJobsLeaveThePoolFree() async {
        let started = Counter()
        let ran = Flag()
        // Two blockers: on CI's two cores they would hold the whole pool if they ran on it, and
        // neither this task nor the pool task below could run before they gave up.
        async let a = withTaskExecutorPreference(OwnThreadExecutor(name: "blocker-a")) { Self.block(started, until: ran, seconds: 30) }
        async let b = withTaskExecutorPreference(OwnThreadExecutor(name: "blocker-b")) { Self.block(started, until: ran, seconds: 30) }
        // Cancelled (its time limit), Task.sleep returns at once: without the check this loop
        // spun a pool thread for the rest of the first full run.
        while started.value.withLock({ $0 }) < 2, !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
        await Task.detached { ran.value.withLock { $0 = true } }.value
        let (sawA, sawB) = await (a, b)
        #expect(sawA && sawB, "a blocker waited the full 30 s: the pool task could not run while it blocked")
    }

    @Test("Jobs, those of child tasks too, run on the executor's thread", .timeLimit(.minutes(10)))
    func jobsRunOnItsThread() async {
        let executor = OwnThreadExecutor(name: "ordered")
        defer { executor.close() }
        let names = await withTaskExecutorPreference(executor) {
            await withTaskGroup(of: String?.self) { group in
                for _ in 0..<20 { group.addTask { Self.threadName() } }
                return await group.reduce(into: [String?]()) { $0.append($1) }
            }
        }
        #expect(names.count == 20 && names.allSatisfy { $0 == "ordered" }, "\(names)")
    }

    @Test("A job that comes after close still runs (on a new thread)", .timeLimit(.minutes(10)))
    func aJobAfterCloseRuns() async {
        let executor = OwnThreadExecutor(name: "closed")
        #expect(await withTaskExecutorPreference(executor) { 1 } == 1)
        executor.close()
        try? await Task.sleep(for: .milliseconds(20))   // time for the first thread to end
        #expect(await withTaskExecutorPreference(executor) { Self.threadName() } == "closed")
        executor.close()
    }

    @Test("The trait runs the test's body on a thread of its own", .ownThread)
    func theTraitMovesTheBody() {
        let name = Self.threadName()
        #expect(name == "theTraitMovesTheBody()", "\(name ?? "nil")")
    }

    @Test("Turns lets at most its width through at once, and every waiter gets its turn", .timeLimit(.minutes(10)))
    func turnsBoundTheTestsRunningAtOnce() async {
        let turns = Turns(width: 2)
        let running = Counter()
        let most = Counter()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    await turns.take()
                    let now = running.value.withLock { $0 += 1; return $0 }
                    most.value.withLock { $0 = max($0, now) }
                    try? await Task.sleep(for: .milliseconds(10))
                    running.value.withLock { $0 -= 1 }
                    turns.give()
                }
            }
        }
        #expect(most.value.withLock { $0 } == 2)
        #expect(running.value.withLock { $0 } == 0)
    }

    @Test("The trait given on a suite and again on its test takes one turn, not two", .ownThread)
    func theTraitTwiceTakesOneTurn() {
        #expect(Self.threadName() == "theTraitTwiceT" + "akesOneTurn()")
    }
}
