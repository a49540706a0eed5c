#if canImport(Glibc)
import Glibc
#endif
import HostCore
import Wire

/// Bonds as one text file per peer identity in the state directory
/// (`bond-<address>-<public|random>.txt`, `BondRecordCodec`'s format, Docs/security.md),
/// mode 0600 and written atomically. Nothing here logs a record or a key: errors name the
/// file and what is wrong with it, never its content.
public final class FileBondStore {
    public let directory: StateDirectory

    public init(directory: StateDirectory) {
        self.directory = directory
    }

    static let prefix = "bond-"
    static let suffix = ".txt"

    public static func fileName(_ peer: DeviceAddress) -> String {
        prefix + String(peer.address.string.map { $0 == ":" ? "-" : $0 }) + (peer.type.isRandom ? "-random" : "-public") + suffix
    }

    /// The bond filed under `peer` (its identity address); nil when there is none. A file that
    /// does not parse throws, naming the file.
    public func bond(for peer: DeviceAddress) throws(StateError) -> BondRecord? {
        let name = Self.fileName(peer)
        guard let text = directory.read(name) else { return nil }
        do {
            return try BondRecordCodec.decode(text)
        } catch {
            throw StateError("bond file \(directory.file(name)) is damaged (\(error)); remove it with `rtstack bonds remove \(peer)` and pair again")
        }
    }

    /// Writes (or replaces) the bond under its identity address, mode 0600.
    public func store(_ bond: BondRecord) throws(StateError) {
        try directory.write(Self.fileName(bond.address), BondRecordCodec.encode(bond), mode: 0o600)
    }

    /// Removes the bond of `peer`; false when there was none.
    @discardableResult
    public func remove(_ peer: DeviceAddress) -> Bool {
        unlink(directory.file(Self.fileName(peer))) == 0
    }

    /// Every bond that parses, by address, and the files that do not.
    public func list() -> (bonds: [BondRecord], damaged: [String]) {
        var bonds: [BondRecord] = []
        var damaged: [String] = []
        for name in directory.names(prefix: Self.prefix, suffix: Self.suffix) {
            if let text = directory.read(name), let bond = try? BondRecordCodec.decode(text) {
                bonds.append(bond)
            } else {
                damaged.append(directory.file(name))
            }
        }
        return (bonds.sorted { $0.address.address < $1.address.address }, damaged)
    }

    /// The bond whose IRK resolves `address` (a resolvable private address), by `ah` (Vol 3,
    /// Part H, §2.2.2); nil for other addresses or when no IRK matches.
    public func bond(resolving address: BDAddress, crypto: some SecurityCryptography) -> BondRecord? {
        guard let parts = address.resolvablePrivateParts else { return nil }
        return list().bonds.first { bond in
            guard let irk = bond.pairing.identityResolvingKey else { return false }
            return crypto.ah(irk: irk, prand: parts.prand) == parts.hash
        }
    }
}
