/// The connection slots the proxy offers (`connections free`): on every adapter that is up, the
/// links its controller takes — learned from a refusal, else `assumedPerAdapter` — less those the
/// gateway's own devices hold; of those, the ones the proxy's clients do not hold are free.
struct ProxySlots: Equatable {
    var free: Int
    var limit: Int
    /// The addresses of the proxy's links, as the API carries them.
    var allocated: [UInt64]

    /// Controllers say nothing of their capacity over HCI until they refuse a connection; until
    /// then each adapter offers this many, the most ESPHome's documentation advises for an ESP32
    /// (whose default is 3).
    static let assumedPerAdapter = 5

    struct Adapter {
        var up: Bool
        var learnedLimit: Int?
        var gatewayLinks: Int
        var proxyLinks: Int

        /// Links this controller takes in all.
        var capacity: Int { learnedLimit ?? ProxySlots.assumedPerAdapter }
        /// Of those, the ones the proxy may use.
        var proxyLimit: Int { up ? max(0, capacity - gatewayLinks) : 0 }
        /// Of those, the ones no link holds.
        var free: Int { up ? max(0, capacity - gatewayLinks - proxyLinks) : 0 }
        var hasRoom: Bool { free > 0 }
    }

    init(adapters: [Adapter], allocated: [UInt64]) {
        limit = adapters.reduce(0) { $0 + $1.proxyLimit }
        let used = adapters.reduce(0) { $0 + ($1.up ? $1.proxyLinks : 0) }
        free = max(0, limit - used)
        self.allocated = allocated
    }
}
