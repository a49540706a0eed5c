import Wire

/// How the host secures its links (HCI backend: rtstack's own Security Manager; the kernel
/// backend's equivalents are in `KernelHostConfiguration`). Part of `HostConfiguration`.
public struct SecuritySettings: Sendable {
    /// The level every link must reach before its plan runs (`--security`; the kernel's names,
    /// Docs/security.md). At `low` nothing is asked for up front, yet a link is still
    /// encrypted when its peer is bonded, when the peer sends a Security Request, and when an
    /// ATT request needs it (`automatic`).
    public var level: SecurityLevel = .low
    /// What rtstack offers when it pairs: IO capability, bonding, Secure Connections, key
    /// size, its identity. Its `securityLevel` is set per pairing from what the link needs.
    public var pairing = PairingConfiguration()
    /// The crypto the Security Manager uses; nil: rtstack does not pair (Pairing Requests and
    /// Security Requests are answered with Pairing Not Supported, as before security existed),
    /// though it still encrypts with a bond it is given.
    public var crypto: (any SecurityCryptography)?
    /// The bonds known when the host starts (the state directory's); new ones are reported
    /// with `SecurityEvent.bondStored` for the runtime to keep.
    public var bonds: [BondRecord] = []
    /// Raise security and send an ATT request again once when the peer answers it with
    /// Insufficient Authentication, Insufficient Encryption or Encryption Key Size Too Short.
    public var automatic = true
    /// The repeated-attempts back-off, one for all links (§2.3.6 of Vol 3, Part H).
    public var throttle = PairingThrottle()
    /// `--backend kernel`: set the adapter's IO capability and make it bondable, so the kernel
    /// pairs as `pairing` says and asks rtstack (its agent) for passkeys. These are settings of
    /// the whole adapter, shared with bluetoothd: off unless security is asked for.
    public var configuresKernel = false

    public init() {}
}

/// What a link needs from security: a level and, after Encryption Key Size Too Short, the
/// full key; `fresh` asks for a new pairing even when a bond would do (`rtstack pair`).
public struct SecurityNeed: Sendable, Hashable, CustomStringConvertible {
    public var level: SecurityLevel
    public var keySize: UInt8
    public var fresh: Bool

    public init(level: SecurityLevel, keySize: UInt8 = 7, fresh: Bool = false) {
        self.level = level
        self.keySize = keySize
        self.fresh = fresh
    }

    /// What an ATT error asks for, from the link's current level and key size; nil when
    /// nothing higher exists. Insufficient Encryption wants an encrypted link; Insufficient
    /// Authentication one level more each time (medium, high, fips), as BlueZ's client raises
    /// it; Encryption Key Size Too Short a new pairing with a 16-octet key.
    public static func after(_ error: ATTErrorCode, level: SecurityLevel, keySize: UInt8) -> SecurityNeed? {
        switch error {
        case .insufficientEncryption:
            return level < .medium ? SecurityNeed(level: .medium) : nil
        case .insufficientAuthentication:
            guard level < .fips else { return nil }
            return SecurityNeed(level: level < .medium ? .medium : SecurityLevel(rawValue: level.rawValue + 1) ?? .fips)
        case .encryptionKeySizeTooShort:
            return keySize < 16 ? SecurityNeed(level: max(level, .medium), keySize: 16, fresh: true) : nil
        default:
            return nil
        }
    }

    public var description: String {
        "security \(level.name)" + (keySize > 7 ? ", key size \(keySize)" : "") + (fresh ? ", new pairing" : "")
    }
}
