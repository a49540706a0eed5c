import HostCore
import Timing

/// The adapters of the configuration and when each is opened again. An adapter that could not
/// be opened, or was lost (unplugged, its controller failed), waits `reopening`'s backoff —
/// 1 s, doubled after every failed attempt up to 30 s, back to 1 s once it opened — so that a
/// board whose dongle is gone does not spin; one a reload removed is retired and never opened
/// again. Indexes are stable (the controller's adapter indexes): a retired adapter keeps its
/// place, an added one goes at the end.
public struct AdapterRoster: Sendable {
    public enum State: Sendable, Equatable {
        case open
        /// Closed; opened again at `reopenAt`.
        case closed(reopenAt: HostTime)
        /// Being opened by the driver (`takeDue` handed it out).
        case opening
        /// Removed from the configuration.
        case retired
    }

    public struct Entry: Sendable, Equatable {
        public let name: String
        public let backend: AdapterBackend
        public internal(set) var state: State
        var backoff: Backoff
    }

    public static let reopening = Backoff(initial: HostDuration.seconds(1), maximum: HostDuration.seconds(30))

    public private(set) var entries: [Entry] = []

    public init() {}

    /// An adapter of the configuration (at the end of the list): being opened now (nil), or to
    /// be opened at `dueAt`.
    @discardableResult
    public mutating func add(name: String, backend: AdapterBackend, dueAt: HostTime? = nil) -> Int {
        entries.append(Entry(name: name, backend: backend, state: dueAt.map { .closed(reopenAt: $0) } ?? .opening,
                             backoff: Self.reopening))
        return entries.count - 1
    }

    /// Whether the adapter failed since it was last open (its opening is a return).
    public func hasFailed(_ index: Int) -> Bool {
        entries.indices.contains(index) && entries[index].backoff.consecutiveFailures > 0
    }

    /// The adapter is open: the next loss waits the shortest time again.
    public mutating func opened(_ index: Int) {
        guard entries.indices.contains(index), entries[index].state != .retired else { return }
        entries[index].state = .open
        entries[index].backoff.reset()
    }

    /// The adapter could not be opened, or was lost: it is opened again after the backoff, each
    /// failure waiting longer.
    public mutating func failed(_ index: Int, at now: HostTime) {
        guard entries.indices.contains(index), entries[index].state != .retired else { return }
        entries[index].state = .closed(reopenAt: now &+ entries[index].backoff.nextDelay())
    }

    /// Removed by a reload: never opened again.
    public mutating func retire(_ index: Int) {
        guard entries.indices.contains(index) else { return }
        entries[index].state = .retired
    }

    /// The adapters whose wait is over; each is `opening` until the driver reports `opened` or
    /// `failed`.
    public mutating func takeDue(at now: HostTime) -> [Int] {
        var due: [Int] = []
        for i in entries.indices {
            if case let .closed(t) = entries[i].state, t <= now {
                entries[i].state = .opening
                due.append(i)
            }
        }
        return due
    }

    public var nextDeadline: HostTime? {
        var d = EarliestDeadline()
        for e in entries { if case let .closed(t) = e.state { d.consider(t) } }
        return d.time
    }

    /// What a reload changes: the adapters no longer named (to retire) and the names that are
    /// new (to add), in the new list's order.
    public func changes(for names: [String]) -> (retire: [Int], add: [String]) {
        let retire = entries.indices.filter { entries[$0].state != .retired && !names.contains(entries[$0].name) }
        let add = names.filter { n in !entries.contains { $0.name == n && $0.state != .retired } }
        return (retire, add)
    }
}
