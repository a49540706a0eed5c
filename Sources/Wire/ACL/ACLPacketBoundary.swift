/// Packet_Boundary_Flag of an HCI ACL Data packet (Core Spec v5.4 Vol 4, Part E, §5.4.2).
///
/// It tells the reassembler whether a packet starts an L2CAP PDU or continues one; all four
/// two-bit values are defined, so decoding it cannot fail.
public enum ACLPacketBoundary: UInt8, Sendable, Hashable, CaseIterable {
    /// First packet of a non-automatically-flushable L2CAP PDU (what an LE host sends).
    case firstNonFlushable = 0b00
    /// Continuing fragment of an L2CAP PDU.
    case continuing = 0b01
    /// First packet of an automatically flushable L2CAP PDU (what controllers send up).
    case firstFlushable = 0b10
    /// A complete L2CAP PDU, automatically flushable.
    case complete = 0b11

    /// From the two flag bits (the upper bits of `bits` are ignored).
    public init(bits: UInt16) {
        switch bits & 0b11 {
        case 0b00: self = .firstNonFlushable
        case 0b01: self = .continuing
        case 0b10: self = .firstFlushable
        default: self = .complete
        }
    }

    /// Whether the packet begins an L2CAP PDU (everything but a continuation does).
    public var isStart: Bool { self != .continuing }

    public var name: String {
        switch self {
        case .firstNonFlushable: return "first non-flushable"
        case .continuing: return "continuing"
        case .firstFlushable: return "first flushable"
        case .complete: return "complete"
        }
    }
}
