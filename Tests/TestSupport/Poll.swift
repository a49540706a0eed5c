import Foundation

/// Asks `probe` every `interval` until it gives a value or `seconds` have passed, and once more
/// after the deadline. Why the last ask: on a loaded machine the waiting task may first run
/// again long after the deadline, and what arrived in the meantime must still count (a wait
/// that gave up without looking failed CI with the awaited line already in its transcript).
public func poll<T>(for seconds: Double, every interval: Duration = .milliseconds(50),
                    _ probe: () async throws -> T?) async rethrows -> T? {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline, !Task.isCancelled {
        if let value = try await probe() { return value }
        try? await Task.sleep(for: interval)
    }
    return try await probe()
}
