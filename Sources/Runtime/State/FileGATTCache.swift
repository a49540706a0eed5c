import HostCore
import Wire

/// GATT caches as one text file per peer in the state directory (`gatt-<address>.txt`), in
/// `GATTCacheCodec`'s format, written atomically. A file that no longer parses is ignored and
/// rediscovery replaces it.
public final class FileGATTCache {
    public let directory: StateDirectory

    public init(directory: StateDirectory) {
        self.directory = directory
    }

    static func fileName(_ peer: DeviceAddress) -> String {
        "gatt-" + peer.address.string.replacingColons() + (peer.type.isRandom ? "-random" : "-public") + ".txt"
    }

    public func database(for peer: DeviceAddress) -> GATTDatabase? {
        guard let text = directory.read(Self.fileName(peer)) else { return nil }
        return try? GATTCacheCodec.decode(text)
    }

    public func store(_ database: GATTDatabase, for peer: DeviceAddress) throws(StateError) {
        try directory.write(Self.fileName(peer), GATTCacheCodec.encode(database))
    }

    public func remove(for peer: DeviceAddress) {
        directory.remove(Self.fileName(peer))
    }
}

extension String {
    fileprivate func replacingColons() -> String {
        String(self.map { $0 == ":" ? "-" : $0 })
    }
}
