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
    private var midIndex: [UInt16: MQTTPublishID] = [:]
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
            if let i = firstIndex(where: { $0.state == .waiting }) {
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
        firstIndex(where: { $0.state == .waiting }).map { entries[$0] }
    }

    mutating func markInFlight(_ id: MQTTPublishID, mid: UInt16) {
        guard let i = index(of: id), entries[i].state == .waiting else { return }
        entries[i].state = .inFlight(mid: mid)
        midIndex[mid] = id
        inFlightCount += 1
    }

    /// Removes the message the session finished under `mid`; its id, or nil for an unknown mid.
    mutating func acknowledge(mid: UInt16) -> MQTTPublishID? {
        guard let id = midIndex.removeValue(forKey: mid), let i = index(of: id) else { return nil }
        return finish(at: i)
    }

    /// Removes a message that will never be sent (refused by the session).
    mutating func remove(_ id: MQTTPublishID) {
        guard let i = index(of: id) else { return }
        if case .inFlight(let mid) = entries[i].state { midIndex[mid] = nil }
        _ = finish(at: i)
    }

    /// The connection dropped: everything in flight waits again, in its original order.
    mutating func requeueInFlight() {
        for i in head..<entries.count {
            if case .inFlight = entries[i].state { entries[i].state = .waiting }
        }
        midIndex.removeAll()
        inFlightCount = 0
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

    private func firstIndex(where predicate: (Entry) -> Bool) -> Int? {
        var i = head
        while i < entries.count {
            if predicate(entries[i]) { return i }
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
            head = 0
        }
    }
}
