import HostCore
import Runtime
import Wire

/// `UUID|HANDLE` argument of read/write: a handle (`0x0012`, `18`) or a characteristic UUID
/// (`2A37`, full form), found through discovery.
enum TargetSpec {
    case handle(UInt16)
    case uuid(BluetoothUUID)

    init(_ text: String) throws(UsageError) {
        if text.hasPrefix("0x") || text.hasPrefix("0X"), let h = UInt16(text.dropFirst(2), radix: 16) {
            self = .handle(h)
        } else if text.count != 4, let h = UInt16(text) {
            self = .handle(h)
        } else if let u = BluetoothUUID(string: text) {
            self = .uuid(u)
        } else {
            throw UsageError("'\(text)' is neither a handle (0x0012) nor a UUID (2A37, EF680201-9B35-4933-9B10-52FFA9740042)")
        }
    }

    /// The value handle, discovering the database when a UUID was given.
    func valueHandle(on p: Peripheral) async throws -> (UInt16, GATTCharacteristic?) {
        switch self {
        case .handle(let h):
            return (h, nil)
        case .uuid(let u):
            let db = try await p.discover()
            guard let c = db.characteristic(u) else {
                throw CentralError.host(.notFound("no characteristic \(u.name.map { "\($0) (\(u.string))" } ?? u.string) on \(p.connection?.peer.description ?? "the peer")"))
            }
            return (c.valueHandle, c)
        }
    }
}
