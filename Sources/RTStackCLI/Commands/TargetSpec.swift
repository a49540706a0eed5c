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

    /// `A,B,C`: several targets (`rtstack read` with Read Multiple).
    static func list(_ text: String) throws(UsageError) -> [TargetSpec] {
        var out: [TargetSpec] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard !part.isEmpty else { throw UsageError("'\(text)': an empty item in the list of handles") }
            out.append(try TargetSpec(String(part)))
        }
        return out
    }

    /// The value handle, discovering the database when a UUID was given.
    func valueHandle(on p: Peripheral) async throws -> (UInt16, GATTCharacteristic?) {
        try await Self.valueHandles([self], on: p)[0]
    }

    /// The value handles of several targets, discovering the database once if any is a UUID
    /// (which also names the characteristics of the handles given as numbers).
    static func valueHandles(_ targets: [TargetSpec], on p: Peripheral) async throws -> [(UInt16, GATTCharacteristic?)] {
        let needsDatabase = targets.contains { if case .uuid = $0 { return true } else { return false } }
        let db: GATTDatabase? = needsDatabase ? try await p.discover() : nil
        var out: [(UInt16, GATTCharacteristic?)] = []
        for target in targets {
            switch target {
            case .handle(let h):
                out.append((h, db?.characteristic(valueHandle: h)))
            case .uuid(let u):
                guard let db else { throw CentralError.host(.notFound("no database")) }
                guard let c = db.characteristic(u) else {
                    throw CharacteristicAdvice.missing(u, in: db, peer: p.connection?.peer.description ?? "ADDRESS")
                }
                out.append((c.valueHandle, c))
            }
        }
        return out
    }
}
