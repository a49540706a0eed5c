/// Which control clients want the values of which characteristic: device id → value handle →
/// clients. The device's link holds one registration for all of them (the CCCD is written for
/// the first and back to 0 when the last is gone), so the set is what decides.
struct ControlSubscriptions {
    private var clients: [String: [UInt16: Set<Int>]] = [:]

    /// The clients subscribed to a value handle of a device (empty: none).
    func clients(of device: String, handle: UInt16) -> Set<Int> {
        // Asked for every notification; with no control client subscribed (the usual case) the
        // device id is not even hashed.
        if clients.isEmpty { return [] }
        return clients[device]?[handle] ?? []
    }

    /// The value handles some client wants of a device (registered again on each connection).
    func handles(of device: String) -> [UInt16] {
        clients[device].map { Array($0.keys).sorted() } ?? []
    }

    /// What one client is subscribed to.
    func subscriptions(of client: Int) -> [(device: String, handle: UInt16)] {
        var out: [(String, UInt16)] = []
        for (device, handles) in clients.sorted(by: { $0.key < $1.key }) {
            for (handle, set) in handles.sorted(by: { $0.key < $1.key }) where set.contains(client) { out.append((device, handle)) }
        }
        return out
    }

    mutating func add(_ client: Int, device: String, handle: UInt16) {
        clients[device, default: [:]][handle, default: []].insert(client)
    }

    /// Removes one client's subscription; true when no client is left on the handle (the
    /// registration on the link can end).
    mutating func remove(_ client: Int, device: String, handle: UInt16) -> Bool {
        clients[device]?[handle]?.remove(client)
        guard clients[device]?[handle]?.isEmpty ?? true else { return false }
        clients[device]?[handle] = nil
        return true
    }

    /// The device is gone (a reload removed it): nobody is subscribed to it any more.
    mutating func forget(device: String) {
        clients[device] = nil
    }
}
