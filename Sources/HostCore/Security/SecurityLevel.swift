/// How much a link is protected, in the four levels the Linux kernel names (BT_SECURITY_LOW
/// … BT_SECURITY_FIPS in <bluetooth/bluetooth.h>), which map onto LE security mode 1 levels
/// 1–4 (Core Spec v5.4 Vol 3, Part C, §10.2.1).
public enum SecurityLevel: Int, Sendable, Hashable, Comparable, CaseIterable {
    /// Mode 1 level 1: no encryption.
    case low = 1
    /// Mode 1 level 2: encrypted with an unauthenticated key (Just Works).
    case medium = 2
    /// Mode 1 level 3: encrypted with an authenticated key (Passkey Entry, Numeric Comparison).
    case high = 3
    /// Mode 1 level 4: authenticated LE Secure Connections pairing with a 128-bit key.
    case fips = 4

    public var name: String {
        switch self {
        case .low: return "low"
        case .medium: return "medium"
        case .high: return "high"
        case .fips: return "fips"
        }
    }

    public init?(name: String) {
        guard let level = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = level
    }

    /// The level a link encrypted with a key of these properties has.
    public static func of(authenticated: Bool, secureConnections: Bool, keySize: UInt8) -> SecurityLevel {
        if authenticated && secureConnections && keySize == 16 { return .fips }
        return authenticated ? .high : .medium
    }

    /// What the level asks of pairing: MITM protection from high up, Secure Connections and
    /// the full key size at fips.
    public var requiresMITM: Bool { self >= .high }
    public var requiresSecureConnections: Bool { self == .fips }
    public var minimumKeySize: UInt8 { self == .fips ? 16 : 7 }

    public static func < (l: SecurityLevel, r: SecurityLevel) -> Bool { l.rawValue < r.rawValue }
}
