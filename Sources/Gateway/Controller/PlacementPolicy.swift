import HostCore

/// Which adapter takes a device: one that is up with a free connection slot; of those, the one
/// that heard the device best lately; then the one with the fewest links; then the first.
enum PlacementPolicy {
    struct Candidate: Equatable {
        var adapter: Int
        var up: Bool
        /// Links placed on it (queued, connecting or connected).
        var used: Int
        var limit: Int?
        /// The device's RSSI there, when heard within `recent`.
        var rssi: Int8?

        var hasFreeSlot: Bool { limit.map { used < $0 } ?? true }
    }

    /// How long a sighting counts for placement.
    static let recent: HostTime = HostDuration.seconds(30)

    static func choose(_ candidates: [Candidate], excluding: Set<Int> = []) -> Int? {
        let usable = candidates.filter { $0.up && $0.hasFreeSlot && !excluding.contains($0.adapter) }
        return usable.min { a, b in
            switch (a.rssi, b.rssi) {
            case let (x?, y?) where x != y: return x > y
            case (.some, nil): return true
            case (nil, .some): return false
            default: return a.used != b.used ? a.used < b.used : a.adapter < b.adapter
            }
        }?.adapter
    }
}
