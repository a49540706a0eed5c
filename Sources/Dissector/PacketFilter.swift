import Wire

/// `--filter` terms: packet type, connection handle, ATT opcode, peer address, adapter. Terms
/// of the same kind are alternatives; kinds combine with AND: `--filter acl --filter att=0x1b`
/// keeps notifications.
public struct PacketFilter: Sendable {
    public var types: Set<H4PacketType> = []
    /// `type=monitor`: Linux monitor frames without an HCI packet (New Index, notes …).
    public var monitorFrames = false
    public var handles: Set<UInt16> = []
    public var attOpcodes: Set<UInt8> = []
    /// Packets about these devices: their connections' traffic (handles mapped to peers from
    /// the connection events seen), their advertising reports, commands naming them.
    public var peers: Set<BDAddress> = []
    /// Adapters (`hciN`) of a Linux monitor capture.
    public var adapters: Set<UInt16> = []

    public init() {}

    public var isEmpty: Bool {
        types.isEmpty && !monitorFrames && handles.isEmpty && attOpcodes.isEmpty && peers.isEmpty && adapters.isEmpty
    }

    /// Parses one term: `acl` / `type=event,command`, `handle=0x40`, `att=0x1b` or an ATT PDU
    /// name fragment such as `att=notification`.
    public mutating func add(term: String) throws(FilterError) {
        for part in term.split(separator: ",", omittingEmptySubsequences: true) {
            try addOne(String(part))
        }
    }

    private var lastKey = "type"

    private mutating func addOne(_ raw: String) throws(FilterError) {
        var key = lastKey
        var value = raw
        if let eq = raw.firstIndex(of: "=") {
            key = String(raw[..<eq]).lowercased()
            value = String(raw[raw.index(after: eq)...])
        } else if H4PacketType.allCases.contains(where: { $0.name == raw.lowercased() }) {
            key = "type"
        }
        lastKey = key
        switch key {
        case "type":
            if value.lowercased() == "monitor" {
                monitorFrames = true
                return
            }
            guard let t = H4PacketType.allCases.first(where: { $0.name == value.lowercased() }) else {
                throw FilterError("unknown packet type '\(value)' in --filter (use command, event, acl, sco, iso, monitor)")
            }
            types.insert(t)
        case "peer":
            // The address alone: a capture may not say whether it is public or random.
            let text = value.split(separator: "/").first.map(String.init) ?? value
            guard let address = BDAddress(string: text) else {
                throw FilterError("'\(value)' is not a device address (AA:BB:CC:DD:EE:FF) in --filter peer=")
            }
            peers.insert(address)
        case "index", "adapter":
            let digits = value.lowercased().hasPrefix("hci") ? String(value.dropFirst(3)) : value
            guard let n = PacketFilter.number(digits), n < 0xFFFF else {
                throw FilterError("'\(value)' is not an adapter index (0, 1 … or hci0, hci1 …) in --filter index=")
            }
            adapters.insert(UInt16(n))
        case "handle":
            guard let h = PacketFilter.number(value), h <= 0x0EFF else {
                throw FilterError("'\(value)' is not a connection handle (0…0x0EFF) in --filter handle=")
            }
            handles.insert(UInt16(h))
        case "att":
            if let n = PacketFilter.number(value), n <= 0xFF {
                attOpcodes.insert(UInt8(n))
            } else if let named = PacketFilter.attAliases[value.lowercased()] {
                attOpcodes.formUnion(named)
            } else {
                throw FilterError("'\(value)' is not an ATT opcode in --filter att= (a number such as 0x1b, or notification, indication, read, write, error)")
            }
        default:
            throw FilterError("unknown --filter key '\(key)' (use type=, handle=, att=, peer= or index=)")
        }
    }

    /// Short names for the opcodes people filter on most.
    static let attAliases: [String: Set<UInt8>] = [
        "notification": [0x1B], "notify": [0x1B], "indication": [0x1D], "error": [0x01],
        "mtu": [0x02, 0x03], "read": [0x0A, 0x0B, 0x0C, 0x0D], "write": [0x12, 0x13, 0x52],
    ]

    static func number(_ s: String) -> UInt64? {
        if s.hasPrefix("0x") || s.hasPrefix("0X") { return UInt64(s.dropFirst(2), radix: 16) }
        return UInt64(s)
    }

    public func accepts(_ p: DissectedPacket) -> Bool {
        if !types.isEmpty || monitorFrames, !types.contains(p.type) { return false }
        if !handles.isEmpty {
            guard let h = p.connectionHandle, handles.contains(h) else { return false }
        }
        if !attOpcodes.isEmpty {
            guard let a = p.att, attOpcodes.contains(a.opcode) else { return false }
        }
        if !peers.isEmpty {
            guard let peer = p.peer, peers.contains(peer.address) else { return false }
        }
        if !adapters.isEmpty {
            guard adapters.contains(p.adapterIndex ?? 0) else { return false }
        }
        return true
    }

    /// A monitor frame without an HCI packet passes unless the filter asks for packet types,
    /// handles, ATT opcodes or peers, or names other adapters.
    public func accepts(_ n: DissectedNote) -> Bool {
        if !types.isEmpty && !monitorFrames { return false }
        if !handles.isEmpty || !attOpcodes.isEmpty || !peers.isEmpty { return false }
        if !adapters.isEmpty, !adapters.contains(n.adapterIndex) { return false }
        return true
    }
}

public struct FilterError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ d: String) { description = d }
}
