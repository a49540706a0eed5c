import Synchronization
import Testing

/// `.ownThread` on a suite or a test: each test (each case of a parameterized one) runs on a
/// thread of its own (`OwnThreadExecutor`), off the two-thread global pool. For tests that
/// block (tshark and other child processes waited on synchronously) or burn CPU for seconds,
/// so that they do not hold back the timers of every other test in the run.
///
/// One such test runs at a time; the others wait for their turn suspended, holding no thread.
/// Without that bound every tshark test of the run would start at the same moment; with four
/// at once (the first try) a full run had four tsharks beside the pool's threads on 2 cores,
/// and Bumble worlds started then were not ready within 60 s.
public struct OwnThread: TestTrait, SuiteTrait, TestScoping {
    public static let width = 1
    static let turns = Turns(width: width)

    public var isRecursive: Bool { true }

    /// Whether the current task already runs under the trait (given twice, on a suite and on
    /// one of its tests): then it takes no second turn, which could wait forever.
    @TaskLocal static var inside = false

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        if test.isSuite || Self.inside { return try await function() }
        await Self.turns.take()
        defer { Self.turns.give() }
        let executor = OwnThreadExecutor(name: test.name)
        defer { executor.close() }
        try await Self.$inside.withValue(true) {
            try await withTaskExecutorPreference(executor) { try await function() }
        }
    }
}

extension Trait where Self == OwnThread {
    public static var ownThread: Self { OwnThread() }
}

/// A counting semaphore whose waiters suspend (first come, first served).
final class Turns: Sendable {
    private struct State {
        var free: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Mutex<State>

    init(width: Int) {
        state = Mutex(State(free: width))
    }

    func take() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let now = state.withLock { s -> Bool in
                if s.free > 0 {
                    s.free -= 1
                    return true
                }
                s.waiting.append(c)
                return false
            }
            if now { c.resume() }
        }
    }

    /// Hands the turn to the first waiter, or frees it.
    func give() {
        let next = state.withLock { s -> CheckedContinuation<Void, Never>? in
            if s.waiting.isEmpty {
                s.free += 1
                return nil
            }
            return s.waiting.removeFirst()
        }
        next?.resume()
    }
}
