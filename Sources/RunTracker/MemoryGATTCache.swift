import HostCore
import Wire

/// A GATT cache held in memory, in the very text form the state directory's files hold
/// (`GATTCacheCodec`): what a replay of a warm run needs, and what a replay of a cold run
/// leaves. Going through the text keeps it as lossy or lossless as the file cache is, so a
/// replay sees the databases the recorded run read back from its files.
public final class MemoryGATTCache: GATTCacheStore {
    /// Cache text per peer, as `FileGATTCache` would write it.
    public private(set) var texts: [DeviceAddress: String] = [:]

    public init(texts: [DeviceAddress: String] = [:]) {
        self.texts = texts
    }

    /// Peers with a cached database, in address order (for stable reports).
    public var peers: [DeviceAddress] {
        texts.keys.sorted { ($0.address.string, $0.type.isRandom ? 1 : 0) < ($1.address.string, $1.type.isRandom ? 1 : 0) }
    }

    /// Like the file cache: a text that no longer parses is no database.
    public func database(for peer: DeviceAddress) -> GATTDatabase? {
        guard let text = texts[peer] else { return nil }
        return try? GATTCacheCodec.decode(text)
    }

    public func store(_ database: GATTDatabase, for peer: DeviceAddress) {
        texts[peer] = GATTCacheCodec.encode(database)
    }

    public func remove(for peer: DeviceAddress) {
        texts[peer] = nil
    }
}
