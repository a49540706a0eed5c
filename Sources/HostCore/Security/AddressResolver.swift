import Wire

/// Recognises bonded peers behind their resolvable private addresses (Core Spec v5.4 Vol 6,
/// Part B, §1.3.2.2; `ah`, Vol 3, Part H, §2.2.2): an advertiser's RPA is tried against the IRK
/// of each bond once per address (a peer keeps an RPA for minutes, and reports come many
/// times a second), and the address each bonded identity was last seen with is kept, to
/// connect to it.
struct AddressResolver {
    /// RPA → the identity it resolves to (nil: none of the bonds).
    private var resolved: [BDAddress: DeviceAddress?] = [:]
    /// Identity → the address it advertised with last (an RPA, or the identity itself).
    private(set) var lastSeen: [DeviceAddress: DeviceAddress] = [:]
    /// Identities sent to the controller's resolving list, in use once it enables resolution.
    var listed: Set<DeviceAddress> = []
    /// Identities the controller resolves itself (its resolving list is in use).
    var controllerResolves: Set<DeviceAddress> = []
    /// Entries kept at most (a busy place has many phones rotating their addresses).
    static let capacity = 512

    /// The identity behind `address`, when it is an RPA of a bonded peer with an IRK.
    mutating func identity(of address: DeviceAddress, bonds: BondTable, crypto: (any SecurityCryptography)?)
        -> DeviceAddress? {
        guard address.type == .randomDevice, let parts = address.address.resolvablePrivateParts, let crypto else { return nil }
        let identity: DeviceAddress?
        if let known = resolved[address.address] {
            identity = known
        } else {
            identity = bonds.bonds.first { b in
                guard let irk = b.pairing.identityResolvingKey else { return false }
                return crypto.ah(irk: irk, prand: parts.prand) == parts.hash
            }?.address
            if resolved.count >= Self.capacity { resolved.removeAll(keepingCapacity: true) }
            resolved[address.address] = identity
        }
        if let identity { lastSeen[identity] = address }
        return identity
    }

    /// `identity` advertised with its own address.
    mutating func seen(_ identity: DeviceAddress) {
        lastSeen[identity] = identity
    }

    /// The address `identity` was seen with is no use any more.
    mutating func forget(_ identity: DeviceAddress) {
        lastSeen[identity] = nil
    }

    /// A bond was added or removed: what was resolved before may resolve otherwise now.
    mutating func bondsChanged() {
        resolved.removeAll(keepingCapacity: true)
    }
}
