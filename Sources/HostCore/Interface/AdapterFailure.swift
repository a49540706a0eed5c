import Wire

/// Why an adapter the kernel keeps (`--backend kernel`) cannot be used, as a cause the caller
/// can act on; the CLI turns each into advice (the fix belongs to the user's world, not to the
/// host core).
public enum AdapterFailure: Sendable, Equatable, CustomStringConvertible {
    /// A management command was refused for lack of CAP_NET_ADMIN.
    case permissionDenied(ManagementOpcode)
    /// rfkill blocks the adapter, so the kernel cannot power it.
    case rfkillBlocked
    /// No adapter with that index (or a user channel holds it).
    case noSuchAdapter
    /// Another program is changing the adapter.
    case busy(ManagementOpcode)
    case lowEnergyUnsupported
    /// A bring-up command failed with this status.
    case commandFailed(ManagementOpcode, ManagementStatus)
    /// A command got no answer from the management interface.
    case noAnswer(ManagementOpcode)
    /// Low Energy or power stayed off after the command that should have turned it on.
    case settingDidNotTake(ManagementOpcode)
    /// Powered off (by bluetoothd, btmgmt, rfkill) and not back within the wait.
    case poweredOff
    /// Removed (unplugged, or taken by a user channel) and not back within the wait.
    case removed
    /// A management event or answer that does not decode.
    case malformed(String)

    public var description: String {
        switch self {
        case let .permissionDenied(op): return "\(op.name) failed: \(ManagementStatus.permissionDenied)"
        case .rfkillBlocked: return "the adapter is blocked by rfkill"
        case .noSuchAdapter: return "no such adapter (or a user channel holds it)"
        case let .busy(op): return "\(op.name) failed: \(ManagementStatus.busy)"
        case .lowEnergyUnsupported: return "the adapter does not support Bluetooth Low Energy"
        case let .commandFailed(op, status): return "\(op.name) failed: \(status)"
        case let .noAnswer(op): return "\(op.name) got no answer from the kernel's management interface"
        case let .settingDidNotTake(op): return "the setting stays off after \(op.name)"
        case .poweredOff: return "the adapter was powered off and did not come back"
        case .removed: return "the adapter was removed and did not come back"
        case let .malformed(s): return "the management interface sent something malformed: \(s)"
        }
    }

    /// The management status of a failed command, as a cause.
    static func from(_ opcode: ManagementOpcode, _ status: ManagementStatus) -> AdapterFailure {
        switch status {
        case .permissionDenied: return .permissionDenied(opcode)
        case .rfKilled: return .rfkillBlocked
        case .invalidIndex: return .noSuchAdapter
        case .busy: return .busy(opcode)
        default: return .commandFailed(opcode, status)
        }
    }
}
