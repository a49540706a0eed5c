import Foundation
import Synchronization

/// Runs `body` with a time limit. On time-out the body's task is cancelled and left behind
/// (a continuation inside the product that never resumes must fail the test, not hang it).
func withTimeout<T: Sendable>(_ seconds: Double, _ what: String,
                              _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    let race = TimeoutRace<T>()
    return try await withCheckedThrowingContinuation { c in
        race.arm(c)
        race.add(Task {
            do { race.finish(.success(try await body())) } catch { race.finish(.failure(error)) }
        })
        race.add(Task {
            try? await Task.sleep(for: .seconds(seconds))
            if !Task.isCancelled { race.finish(.failure(IntegrationFailure("timed out after \(seconds) s: \(what)"))) }
        })
    }
}

/// The first of the body and the timer to finish resumes the continuation and cancels the other.
private final class TimeoutRace<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var tasks: [Task<Void, Never>] = []
        var done = false
    }
    private let state = Mutex(State())

    func arm(_ c: CheckedContinuation<T, any Error>) { state.withLock { $0.continuation = c } }

    func add(_ t: Task<Void, Never>) {
        let cancel = state.withLock { s -> Bool in
            if s.done { return true }
            s.tasks.append(t)
            return false
        }
        if cancel { t.cancel() }
    }

    func finish(_ r: Result<T, any Error>) {
        let (c, tasks) = state.withLock { s -> (CheckedContinuation<T, any Error>?, [Task<Void, Never>]) in
            guard !s.done else { return (nil, []) }
            s.done = true
            defer { s.continuation = nil; s.tasks = [] }
            return (s.continuation, s.tasks)
        }
        guard let c else { return }
        for t in tasks { t.cancel() }
        c.resume(with: r)
    }
}

/// Seconds since `start`.
func seconds(since start: Date) -> Double { Date().timeIntervalSince(start) }
