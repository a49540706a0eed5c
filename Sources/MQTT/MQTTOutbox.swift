/// The client's bounded queue: every message from `publish` until the broker acknowledged it
/// (QoS 1) or it was written (QoS 0). Messages wait while the broker is away; at most
/// `inFlightLimit` are handed to the connection's session at once; when the connection drops, the ones
/// handed but not acknowledged go back to waiting, ahead of the rest and in their order, and are
/// sent again on the next connection (at-least-once: the broker may see one twice).
///
/// When `limit` messages are held, a new one drops the oldest *waiting* one: a gateway's
/// newest readings are worth more than its oldest. Drops are counted.
struct MQTTOutbox {
    enum State: Equatable {
        case waiting
        /// Handed to the session under this packet identifier.
        case inFlight(mid: UInt16)
        case done
    }

    struct Entry {
        var id: MQTTPublishID
        var message: MQTTMessage
        var state: State
    }

    let limit: Int
    private var entries: [Entry] = []
    private var head = 0
    /// No entry in `head..<waitingFrom` waits: the search for the oldest waiting message starts
    /// here instead of walking every in-flight one again for each publish.
    private var waitingFrom = 0
    /// Entries not done.
    private(set) var count = 0
    private(set) var inFlightCount = 0
    /// Dropped since the last `takeDropped()`, and in total.
    private(set) var droppedSinceReport = 0
    private(set) var droppedTotal = 0

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    var waitingCount: Int { count - inFlightCount }

    /// Adds a message; returns the id of the message dropped to make room, if any (the new one
    /// itself when every held message is in flight).
    mutating func enqueue(_ message: MQTTMessage, id: MQTTPublishID) -> MQTTPublishID? {
        var dropped: MQTTPublishID?
        if count >= limit {
            if let i = firstWaiting() {
                dropped = entries[i].id
                entries[i].state = .done
                count -= 1
            } else {
                droppedSinceReport += 1
                droppedTotal += 1
                return id
            }
            droppedSinceReport += 1
            droppedTotal += 1
        }
        entries.append(Entry(id: id, message: message, state: .waiting))
        count += 1
        compactFront()
        return dropped
    }

    /// The oldest waiting message, if any (not removed).
    func nextWaiting() -> Entry? {
        firstWaiting().map { entries[$0] }
    }

    mutating func markInFlight(_ id: MQTTPublishID, mid: UInt16) {
        guard let i = index(of: id), entries[i].state == .waiting else { return }
        if firstWaiting() == i { waitingFrom = i + 1 }
        entries[i].state = .inFlight(mid: mid)
        inFlightCount += 1
    }

    /// Removes the message the session finished under `mid`; its id, or nil for an unknown mid.
    ///
    /// Found by walking the in-flight entries from the oldest, not through an index by mid: a
    /// broker acknowledges in order (§4.6), so the first one is almost always it, and the walk
    /// ends after the last in-flight entry (at most `inFlightLimit`) for an unknown mid.
    mutating func acknowledge(mid: UInt16) -> MQTTPublishID? {
        var i = head, seen = 0
        while seen < inFlightCount && i < entries.count {
            if case .inFlight(let m) = entries[i].state {
                if m == mid { return finish(at: i) }
                seen += 1
            }
            i += 1
        }
        return nil
    }

    /// Removes a message that will never be sent (refused by the session).
    mutating func remove(_ id: MQTTPublishID) {
        guard let i = index(of: id) else { return }
        _ = finish(at: i)
    }

    /// The connection dropped: everything in flight waits again, in its original order.
    mutating func requeueInFlight() {
        for i in head..<entries.count {
            if case .inFlight = entries[i].state { entries[i].state = .waiting }
        }
        inFlightCount = 0
        waitingFrom = head
    }

    /// The drop count since the last report, reset.
    mutating func takeDropped() -> Int {
        defer { droppedSinceReport = 0 }
        return droppedSinceReport
    }

    private mutating func finish(at i: Int) -> MQTTPublishID {
        let id = entries[i].id
        if case .inFlight = entries[i].state { inFlightCount -= 1 }
        entries[i].state = .done
        count -= 1
        compactFront()
        return id
    }

    private func firstWaiting() -> Int? {
        var i = max(head, waitingFrom)
        while i < entries.count {
            if entries[i].state == .waiting { return i }
            i += 1
        }
        return nil
    }

    /// Ids only grow, so the entries are sorted and a binary search finds one.
    private func index(of id: MQTTPublishID) -> Int? {
        var lo = head, hi = entries.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if entries[mid].id < id { lo = mid + 1 } else { hi = mid }
        }
        return lo < entries.count && entries[lo].id == id && entries[lo].state != .done ? lo : nil
    }

    private mutating func compactFront() {
        while head < entries.count && entries[head].state == .done { head += 1 }
        if head > 64 && head * 2 > entries.count {
            entries.removeFirst(head)
            waitingFrom = max(0, waitingFrom - head)
            head = 0
        }
    }
}
