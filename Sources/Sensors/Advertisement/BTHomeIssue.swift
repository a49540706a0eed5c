import Wire

/// Why (part of) a BTHome advertisement could not be decoded. v2 objects carry no length, so
/// the first object that cannot be read ends the walk; the objects before it are kept.
public enum BTHomeIssue: Sendable, Hashable, CustomStringConvertible {
    /// The service data is empty: not even a device information octet.
    case empty
    /// Version bits other than 2 (v1 used other UUIDs; later versions are not known here).
    case unsupportedVersion(UInt8)
    /// An object id not in the v2 table: its length is unknown, so nothing after it is read.
    case unknownObjectID(id: UInt8, offset: Int)
    /// An object runs past the end of the payload.
    case truncatedObject(id: UInt8, offset: Int, needed: Int, available: Int)
    /// The MAC flag is set but fewer than 6 octets follow.
    case truncatedMAC(available: Int)
    /// Encrypted, and no key was given for this device; the payload is kept as sent.
    case encryptedWithoutKey
    /// Encrypted, but too short for counter and MIC (8 octets) plus at least one octet.
    case truncatedEncryptedPayload(available: Int)
    /// The key did not authenticate the payload (wrong key, or a forged or corrupted packet).
    case decryptionFailed
    /// The key is not 16 octets.
    case invalidKeyLength(Int)

    public var description: String {
        switch self {
        case .empty: return "empty BTHome service data"
        case .unsupportedVersion(let v): return "BTHome version \(v) is not supported (only 2)"
        case .unknownObjectID(let id, let offset):
            return "unknown BTHome object id " + Hex.number(id, width: 2) + " at offset \(offset); its length is unknown, so decoding stops there"
        case .truncatedObject(let id, let offset, let needed, let available):
            return "BTHome object " + Hex.number(id, width: 2) + " at offset \(offset) needs \(needed) octet(s), \(available) left"
        case .truncatedMAC(let available): return "BTHome MAC address needs 6 octets, \(available) left"
        case .encryptedWithoutKey: return "encrypted BTHome payload and no key for this device"
        case .truncatedEncryptedPayload(let available):
            return "encrypted BTHome payload of \(available) octet(s) is shorter than counter, MIC and one octet (9)"
        case .decryptionFailed: return "BTHome payload did not decrypt with the given key (MIC mismatch)"
        case .invalidKeyLength(let n): return "BTHome key must be 16 octets, got \(n)"
        }
    }

}
