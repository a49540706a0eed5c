/// The state of a manager, with Apple's raw values (CoreBluetooth's `CBManagerState`), so code
/// that stores or compares raw values behaves the same.
public enum CBManagerState: Int, Sendable {
    case unknown = 0
    case resetting = 1
    /// No adapter: `RTSTACK_ADAPTER` names nothing that exists (or the kernel has no Bluetooth).
    case unsupported = 2
    /// The process may not use the adapter (no CAP_NET_ADMIN/CAP_NET_RAW); the log says what to do.
    case unauthorized = 3
    /// The adapter is there but down, blocked, held by another program, or was lost.
    case poweredOff = 4
    case poweredOn = 5
}
