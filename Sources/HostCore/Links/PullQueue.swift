/// A first-in first-out queue of outputs waiting to be pulled (events, connector requests, ATT
/// PDUs, kernel actions, a link's ACL packets, SMP PDUs): a ring buffer whose slots are emptied as they
/// are pulled, so a pulled value holds the only reference to what it carries (a notification's
/// slice of the input buffer) and the storage is reused — once warmed up, queuing and pulling
/// allocate nothing, which the notification path relies on. The one queue of every pulled
/// output in rtstack above the MQTT client (the hosts', a link's security and pairing, the run
/// session's); the MQTT target sits below HostCore and keeps its own.
public struct PullQueue<Element> {
    private var slots: [Element?]
    private var head = 0
    public private(set) var count = 0

    public init(capacity: Int = 16) {
        var n = 1
        while n < max(capacity, 1) { n <<= 1 }
        slots = Array(repeating: nil, count: n)
    }

    public var isEmpty: Bool { count == 0 }

    public mutating func append(_ element: Element) {
        if count == slots.count { grow() }
        slots[(head &+ count) & (slots.count &- 1)] = element
        count &+= 1
    }

    public mutating func pop() -> Element? {
        guard count > 0 else { return nil }
        var taken: Element?
        swap(&taken, &slots[head])
        head = (head &+ 1) & (slots.count &- 1)
        count &-= 1
        return taken
    }

    /// Drops everything waiting (what was queued is void: the link it was for went down).
    public mutating func removeAll() {
        while pop() != nil {}
    }

    /// Doubles the ring, keeping the order (the only allocation, and only until warmed up).
    private mutating func grow() {
        var bigger: [Element?] = Array(repeating: nil, count: slots.count * 2)
        for i in 0..<count {
            swap(&bigger[i], &slots[(head &+ i) & (slots.count &- 1)])
        }
        slots = bigger
        head = 0
    }
}

extension PullQueue: Sendable where Element: Sendable {}
