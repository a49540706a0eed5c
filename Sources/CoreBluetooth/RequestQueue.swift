/// The GATT requests of one connection, run one after the other in the order the app made
/// them, as iOS does (a write followed by a read reads what was written).
final class RequestQueue: Sendable {
    private let jobs: AsyncStream<@Sendable () async -> Void>.Continuation

    init() {
        let (stream, continuation) = AsyncStream<@Sendable () async -> Void>.makeStream()
        jobs = continuation
        Task {
            for await job in stream { await job() }
        }
    }

    func enqueue(_ job: @escaping @Sendable () async -> Void) {
        jobs.yield(job)
    }

    /// Runs what is queued, then ends.
    func close() {
        jobs.finish()
    }
}
