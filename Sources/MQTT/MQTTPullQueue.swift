/// The MQTT target's one queue of pulled outputs (the client's events, a session's outputs):
/// appended during a call, pulled by the owner after it. HostCore's `PullQueue` is the same
/// idea above this target, which sits beside HostCore and depends on none of it.
struct MQTTPullQueue<Element> {
    private var elements: [Element] = []
    private var head = 0

    var isEmpty: Bool { head == elements.count }

    mutating func append(_ element: Element) { elements.append(element) }

    /// The oldest element; nil when all were pulled (and the storage is kept for the next ones).
    mutating func pop() -> Element? {
        guard head < elements.count else {
            if head > 0 { elements.removeAll(keepingCapacity: true); head = 0 }
            return nil
        }
        defer { head += 1 }
        return elements[head]
    }
}
