import HostCore

/// Which adapter takes a proxy client's link. Home Assistant sees the gateway as one proxy with
/// the slots of all its adapters added up, so a link goes where it leaves the most behind: of
/// the adapters that are up with a free slot, those that heard the device lately (all of them
/// when none did: a client may connect to an address it knows without a scan); of those, the
/// one with the most free slots; then the one that heard it loudest; then the first.
///
/// Unlike the gateway's own devices (`PlacementPolicy`, signal first), free slots come first:
/// the client asked for this link now, and every adapter that hears the device can carry it.
enum ProxyPlacement {
    struct Candidate: Equatable {
        var adapter: Int
        /// Slots left on it (`ProxySlots.Adapter.free`): 0 when it is down or full.
        var free: Int
        /// The device's RSSI there, when heard within `PlacementPolicy.recent`.
        var rssi: Int8?
    }

    static func choose(_ candidates: [Candidate]) -> Int? {
        let open = candidates.filter { $0.free > 0 }
        let hearing = open.filter { $0.rssi != nil }
        return (hearing.isEmpty ? open : hearing).min { a, b in
            if a.free != b.free { return a.free > b.free }
            if a.rssi != b.rssi { return (a.rssi ?? Int8.min) > (b.rssi ?? Int8.min) }
            return a.adapter < b.adapter
        }?.adapter
    }
}
