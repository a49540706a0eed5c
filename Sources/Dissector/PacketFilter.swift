import Wire

/// `--filter` terms: packet type, connection handle, ATT opcode. Terms of the same kind are
/// alternatives; kinds combine with AND: `--filter acl --filter att=0x1b` keeps notifications.
public struct PacketFilter: Sendable {
    public var types: Set<H4PacketType> = []
    public var handles: Set<UInt16> = []
    public var attOpcodes: Set<UInt8> = []

    public init() {}

    public var isEmpty: Bool { types.isEmpty && handles.isEmpty && attOpcodes.isEmpty }

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
            guard let t = H4PacketType.allCases.first(where: { $0.name == value.lowercased() }) else {
                throw FilterError("unknown packet type '\(value)' in --filter (use command, event, acl, sco, iso)")
            }
            types.insert(t)
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
            throw FilterError("unknown --filter key '\(key)' (use type=, handle= or att=)")
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
        if !types.isEmpty, !types.contains(p.type) { return false }
        if !handles.isEmpty {
            guard let h = p.connectionHandle, handles.contains(h) else { return false }
        }
        if !attOpcodes.isEmpty {
            guard let a = p.att, attOpcodes.contains(a.opcode) else { return false }
        }
        return true
    }
}

public struct FilterError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ d: String) { description = d }
}
