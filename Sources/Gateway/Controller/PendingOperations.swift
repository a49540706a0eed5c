import HostCore
import Wire

/// Whom a GATT operation in flight answers.
enum PendingOperation {
    /// A command from MQTT: the reply goes to `<device>/reply`.
    case mqtt(GatewayCommand, device: String, characteristic: BluetoothUUID?)
    /// A control client's request.
    case control(client: Int, request: ControlRequest, device: String, characteristic: BluetoothUUID?)
    /// A read the configuration asks for after each connection (published as measurements).
    case configuredRead(device: String, characteristic: BluetoothUUID)
    /// A registration the gateway made for itself or a control client.
    case subscription(device: String, characteristic: BluetoothUUID)
}

/// The GATT operations in flight on each adapter and whom each answers. Per adapter, because
/// operation ids are each host's own, and an adapter that is lost fails all of its operations
/// at once.
struct PendingOperations {
    private var byAdapter: [Int: [OperationID: PendingOperation]] = [:]

    mutating func add(_ op: OperationID, on adapter: Int, _ pending: PendingOperation) {
        byAdapter[adapter, default: [:]][op] = pending
    }

    /// The operation completed: whom to answer (nil: not one of the gateway's).
    mutating func complete(_ op: OperationID, on adapter: Int) -> PendingOperation? {
        byAdapter[adapter]?.removeValue(forKey: op)
    }

    /// Everything in flight on a lost adapter, in the order it was asked.
    mutating func removeAll(on adapter: Int) -> [PendingOperation] {
        guard let ops = byAdapter.removeValue(forKey: adapter) else { return [] }
        return ops.sorted { $0.key.rawValue < $1.key.rawValue }.map(\.value)
    }
}
