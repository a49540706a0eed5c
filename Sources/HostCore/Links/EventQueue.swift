/// The host's events, waiting to be pulled (`Host.pollEvent`). Values of notifications are
/// slices of the input packet, so the driver pulls after every input, before it reuses the
/// buffer; the storage is reused, so queuing allocates nothing once warmed up.
struct EventQueue {
    private var events: [HostEvent] = []
    private var head = 0

    init() {
        events.reserveCapacity(64)
    }

    var isEmpty: Bool { head == events.count }

    mutating func append(_ event: HostEvent) {
        events.append(event)
    }

    mutating func pop() -> HostEvent? {
        guard head < events.count else { return nil }
        let e = events[head]
        head += 1
        if head == events.count {
            events.removeAll(keepingCapacity: true)
            head = 0
        }
        return e
    }
}
