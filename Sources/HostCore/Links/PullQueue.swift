/// A first-in first-out queue of outputs waiting to be pulled (events, connector requests, ATT
/// PDUs, kernel actions). The storage is reused: once warmed up, queuing and pulling allocate
/// nothing — the notification path relies on it.
struct PullQueue<Element> {
    private var elements: [Element] = []
    private var head = 0

    init(capacity: Int = 16) {
        elements.reserveCapacity(capacity)
    }

    var isEmpty: Bool { head == elements.count }
    var count: Int { elements.count - head }

    mutating func append(_ element: Element) {
        elements.append(element)
    }

    mutating func pop() -> Element? {
        guard head < elements.count else { return nil }
        let e = elements[head]
        head += 1
        if head == elements.count {
            elements.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 256, head * 2 >= elements.count {
            // A queue that never empties (a link writing faster than its credits come back)
            // would otherwise keep every element it ever held.
            elements.removeFirst(head)
            head = 0
        }
        return e
    }
}

extension PullQueue: Sendable where Element: Sendable {}
