import Synchronization
import Testing

/// `.ownThread` on a suite or a test: each test (each case of a parameterized one) runs on a
/// thread of its own (`OwnThreadExecutor`), off the two-thread global pool. For tests that
/// block (tshark and other child processes waited on synchronously) or burn CPU for seconds,
/// so that they do not hold back the timers of every other test in the run.
///
/// At most `OwnThread.width` such tests run at once; the others wait for a turn suspended,
/// holding no thread. Without that bound every tshark test of the run would start at the same
/// moment, where the pool used to let two at a time through.
public struct OwnThread: TestTrait, SuiteTrait, TestScoping {
    public static let width = 4
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
