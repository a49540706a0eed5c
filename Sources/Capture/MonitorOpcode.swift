import Wire

/// Opcode of a Linux monitor frame: what the kernel's HCI monitor channel
/// (HCI_CHANNEL_MONITOR, include/net/bluetooth/hci_mon.h) sends and what btsnoop datalink 2001
/// stores in a record's flags (BlueZ doc/btsnoop-protocol). A raw value: newer kernels add
/// opcodes, which pass through as unknown.
public struct MonitorOpcode: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    public static let newIndex = MonitorOpcode(0)
    public static let deleteIndex = MonitorOpcode(1)
    public static let commandPacket = MonitorOpcode(2)
    public static let eventPacket = MonitorOpcode(3)
    public static let aclTXPacket = MonitorOpcode(4)
    public static let aclRXPacket = MonitorOpcode(5)
    public static let scoTXPacket = MonitorOpcode(6)
    public static let scoRXPacket = MonitorOpcode(7)
    public static let openIndex = MonitorOpcode(8)
    public static let closeIndex = MonitorOpcode(9)
    public static let indexInfo = MonitorOpcode(10)
    public static let vendorDiagnostic = MonitorOpcode(11)
    public static let systemNote = MonitorOpcode(12)
    public static let userLogging = MonitorOpcode(13)
    public static let controlOpen = MonitorOpcode(14)
    public static let controlClose = MonitorOpcode(15)
    public static let controlCommand = MonitorOpcode(16)
    public static let controlEvent = MonitorOpcode(17)
    public static let isoTXPacket = MonitorOpcode(18)
    public static let isoRXPacket = MonitorOpcode(19)

    /// The HCI packet type and direction of the opcodes that carry one.
    public var hciPacket: (type: H4PacketType, direction: Direction)? {
        BtsnoopFormat.monitorPacket(opcode: rawValue)
    }

    /// The opcode that carries an HCI packet of `type` going `direction`.
    public static func carrying(_ type: H4PacketType, _ direction: Direction) -> MonitorOpcode {
        let toController = direction == .hostToController
        switch type {
        case .command: return .commandPacket
        case .event: return .eventPacket
        case .acl: return toController ? .aclTXPacket : .aclRXPacket
        case .sco: return toController ? .scoTXPacket : .scoRXPacket
        case .iso: return toController ? .isoTXPacket : .isoRXPacket
        }
    }

    public var name: String {
        switch rawValue {
        case 20: return "Driver TX Packet"
        case 21: return "Driver RX Packet"
        case 22: return "Socket TX Packet"
        case 23: return "Socket RX Packet"
        default:
            let name = BtsnoopFormat.monitorOpcodeName(rawValue)
            return name == "unknown opcode" ? "Monitor opcode \(rawValue)" : name
        }
    }
}

extension MonitorOpcode: CustomStringConvertible {
    public var description: String { name }
}
