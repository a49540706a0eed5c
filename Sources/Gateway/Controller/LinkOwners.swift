import HostCore

/// Which device each link of each adapter belongs to. Per adapter, because link ids are each
/// host's own; an adapter that is lost loses all of its links at once. What a link counts for
/// is its adapter's connection slots: placed (queued, connecting, connected) and up.
struct LinkOwners {
    private var byAdapter: [Int: [LinkID: GatewayDevice]] = [:]

    subscript(adapter: Int, link: LinkID) -> GatewayDevice? {
        get { byAdapter[adapter]?[link] }
        set { byAdapter[adapter, default: [:]][link] = newValue }
    }

    mutating func removeAll(on adapter: Int) {
        byAdapter[adapter] = nil
    }

    /// Links placed on an adapter (queued, connecting, connected).
    func placed(on adapter: Int) -> Int {
        byAdapter[adapter]?.count ?? 0
    }

    /// Links of an adapter whose connection is up.
    func up(on adapter: Int) -> Int {
        byAdapter[adapter]?.values.reduce(0) { $0 + ($1.isUp ? 1 : 0) } ?? 0
    }

    /// Links on every adapter.
    var count: Int { byAdapter.values.reduce(0) { $0 + $1.count } }
}
