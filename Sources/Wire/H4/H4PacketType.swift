/// HCI packet indicator of the UART transport (Core Spec Vol 4, Part A, §2).
public enum H4PacketType: UInt8, Sendable, Hashable, CaseIterable {
    case command = 0x01
    case acl = 0x02
    case sco = 0x03
    case event = 0x04
    case iso = 0x05

    public var name: String {
        switch self {
        case .command: return "command"
        case .acl: return "acl"
        case .sco: return "sco"
        case .event: return "event"
        case .iso: return "iso"
        }
    }

    /// Direction implied by the type where there is only one (commands go down, events come up).
    public var impliedDirection: Direction? {
        switch self {
        case .command: return .hostToController
        case .event: return .controllerToHost
        default: return nil
        }
    }
}
