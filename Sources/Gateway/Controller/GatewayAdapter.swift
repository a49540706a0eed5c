import HostCore
import Wire

/// One adapter as the gateway sees it: its host while it is open, whether it is up, and the
/// connection slots learned for its controller.
final class GatewayAdapter {
    enum Phase: Equatable {
        /// Opened; the controller is being brought up.
        case starting
        case up
        /// Lost or failed (with why); the driver opens it again later.
        case down(String)
    }

    let index: Int
    let name: String
    let backend: String
    var host: (any Host)?
    var phase: Phase = .down("not opened yet")
    var info: ControllerInfo?
    /// Links as central this controller takes at most, once learned: from LE Supported States
    /// (1 when it cannot initiate while central) or from a refusal (Connection Limit Exceeded
    /// 0x09, Memory Capacity Exceeded 0x07) with that many links up.
    var slotLimit: Int?
    /// How the limit was learned, for the adapter status.
    var slotReason: String?
    /// The scan the gateway asked of its host.
    var scanning = false
    /// The status last published.
    var lastStatus: AdapterStatusReport?

    init(index: Int, name: String, backend: String) {
        self.index = index
        self.name = name
        self.backend = backend
    }

    var isUp: Bool { phase == .up && host != nil }

    /// Forgets what was learned of the controller (it was lost: the next one may differ).
    func reset() {
        host = nil
        info = nil
        slotLimit = nil
        slotReason = nil
        scanning = false
    }
}

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
