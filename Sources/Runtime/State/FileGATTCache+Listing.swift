import Glibc
import HostCore
import Wire

/// Every peer's cached database in one state directory, for tools that read the cache without
/// a peer in mind (`rtstack decode --gatt-cache`, `rtstack monitor`).
extension FileGATTCache {
    /// One cached database with the peer it belongs to, or the file that would not read.
    public struct Entry: Sendable {
        public var peer: DeviceAddress
        public var database: GATTDatabase
    }

    /// The peer a cache file name stands for (`gatt-AA-BB-CC-DD-EE-FF-random.txt`), nil for
    /// any other name.
    static func peer(fromFileName name: String) -> DeviceAddress? {
        guard name.hasPrefix("gatt-"), name.hasSuffix(".txt") else { return nil }
        let stem = name.dropFirst(5).dropLast(4)
        let type: LEAddressType
        let addressPart: Substring
        if stem.hasSuffix("-random") {
            type = .randomDevice
            addressPart = stem.dropLast(7)
        } else if stem.hasSuffix("-public") {
            type = .publicDevice
            addressPart = stem.dropLast(7)
        } else {
            return nil
        }
        guard let address = BDAddress(string: addressPart.replacing("-", with: ":")) else { return nil }
        return DeviceAddress(address, type: type)
    }

    /// Every database in the directory, and the names of the cache files that did not parse.
    /// Nil when the directory cannot be read (absent, not a directory, no permission).
    public func all() -> (entries: [Entry], unreadable: [String])? {
        guard let dir = opendir(directory.path) else { return nil }
        defer { closedir(dir) }
        var entries: [Entry] = []
        var unreadable: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let peer = Self.peer(fromFileName: name) else { continue }
            if let database = database(for: peer) {
                entries.append(Entry(peer: peer, database: database))
            } else {
                unreadable.append(name)
            }
        }
        entries.sort { $0.peer.description < $1.peer.description }
        return (entries, unreadable.sorted())
    }
}

extension Substring {
    fileprivate func replacing(_ target: Character, with replacement: Character) -> String {
        String(self.map { $0 == target ? replacement : $0 })
    }
}
