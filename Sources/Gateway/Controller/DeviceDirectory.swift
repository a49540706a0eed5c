import Wire

/// Every device the gateway keeps, in the order found (so that whatever goes over all of them
/// goes in the same order on every run), by its id (its topic level) and by its address; and
/// the names advertisers gave, which often come in a scan response of their own.
struct DeviceDirectory {
    private(set) var all: [GatewayDevice] = []
    private var byID: [String: GatewayDevice] = [:]
    private var byAddress: [BDAddress: GatewayDevice] = [:]
    private var names: [BDAddress: String] = [:]

    subscript(id id: String) -> GatewayDevice? { byID[id] }

    subscript(address address: BDAddress) -> GatewayDevice? { byAddress[address] }

    mutating func add(_ d: GatewayDevice) {
        all.append(d)
        byID[d.id] = d
        if let a = d.address?.address ?? d.fixedAddress { byAddress[a] = d }
    }

    mutating func remove(_ d: GatewayDevice) {
        all.removeAll { $0 === d }
        byID[d.id] = nil
        if let a = d.address?.address ?? d.fixedAddress { byAddress[a] = nil }
    }

    /// How many devices an entry took.
    func count(ofEntry entry: Int) -> Int {
        all.reduce(0) { $0 + ($1.entry == entry ? 1 : 0) }
    }

    /// Keeps the name an advertisement gave (if any) and answers the one known for the address.
    mutating func name(of address: BDAddress, heard: String?) -> String? {
        if let heard { names[address] = heard }
        return names[address]
    }
}
