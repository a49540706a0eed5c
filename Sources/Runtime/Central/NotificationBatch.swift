/// The values of one characteristic that arrived in one read from the transport, in order, in
/// one buffer: a stream of batches costs one allocation and one task wake-up per read instead
/// of per value, which is what lets the async API keep up with a fast controller
/// (Docs/performance.md). Iterating gives each value as a slice of the buffer.
public struct NotificationBatch: Sendable, Sequence {
    public private(set) var bytes: [UInt8] = []
    /// End offset of each value in `bytes`.
    public private(set) var ends: [Int] = []

    public init() {}

    public var count: Int { ends.count }
    public var isEmpty: Bool { ends.isEmpty }

    public mutating func append(_ value: ArraySlice<UInt8>) {
        bytes.append(contentsOf: value)
        ends.append(bytes.count)
    }

    public subscript(i: Int) -> ArraySlice<UInt8> {
        bytes[(i == 0 ? 0 : ends[i - 1])..<ends[i]]
    }

    public struct Iterator: IteratorProtocol {
        let batch: NotificationBatch
        var i = 0
        public mutating func next() -> ArraySlice<UInt8>? {
            guard i < batch.ends.count else { return nil }
            defer { i += 1 }
            return batch[i]
        }
    }

    public func makeIterator() -> Iterator { Iterator(batch: self) }
}

/// One `Peripheral.notificationBatches` stream on the loop thread: the batch being filled
/// during a read, and the continuation it goes to when the read is done.
final class BatchSubscriber {
    let continuation: AsyncStream<NotificationBatch>.Continuation
    /// Names this stream from other threads (the subscriber itself stays on the loop thread).
    let token: SubscriptionToken
    var pending = NotificationBatch()

    init(_ continuation: AsyncStream<NotificationBatch>.Continuation, token: SubscriptionToken) {
        self.continuation = continuation
        self.token = token
    }
}

/// The identity of one notification stream, for the job that ends it.
final class SubscriptionToken: Sendable {}

/// Takes the values out of a stream of batches one at a time, for `Peripheral.subscribe`. Only
/// the one task that iterates the resulting stream calls `next` (AsyncStream's unfolding calls
/// it for each element the consumer awaits, one after another), which is why the mutable state
/// needs no lock and the `@unchecked Sendable` is sound.
final class BatchReader: @unchecked Sendable {
    private var iterator: AsyncStream<NotificationBatch>.AsyncIterator
    private var batch = NotificationBatch()
    private var index = 0

    init(_ batches: AsyncStream<NotificationBatch>) {
        iterator = batches.makeAsyncIterator()
    }

    func next() async -> [UInt8]? {
        while index >= batch.count {
            var it = iterator
            guard let b = await it.next() else { return nil }
            iterator = it
            batch = b
            index = 0
        }
        let value = Array(batch[index])
        index += 1
        return value
    }
}
