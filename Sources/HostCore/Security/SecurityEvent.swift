import Wire

/// What a link's security has to say to the application (`HostEvent.security`). None of
/// these shows a key: bonds and pairing results describe themselves redacted.
public enum SecurityEvent: Sendable {
    /// Pairing began (rtstack's wish, the peer's Security Request, or an ATT error).
    case pairingStarted(SecurityNeed)
    /// The user must act: type or show a passkey, compare numbers. Answer with
    /// `Host.answerPairing`; unanswered, the pairing fails after the SMP timeout (30 s).
    case prompt(PairingPrompt)
    /// The link is encrypted: after pairing, or with a bond's key on reconnection.
    case encrypted(level: SecurityLevel, keySize: UInt8, withBond: Bool)
    /// A pairing completed (the keys are in the result, redacted in its description).
    case paired(PairingResult)
    /// A bond to keep: the runtime stores it (Runtime's `FileBondStore`).
    case bondStored(BondRecord)
    /// A bond that no longer holds (the peer lost it: PIN or Key Missing); the runtime removes it.
    case bondRemoved(DeviceAddress)
    /// Pairing or encryption failed; the link goes on or is closed as its need says.
    case failed(SecurityFailure)
}

/// What the user is asked during pairing.
public enum PairingPrompt: Sendable, Hashable, CustomStringConvertible {
    /// Passkey Entry, rtstack's user types the six digits the peer shows (or agrees on).
    case enterPasskey
    /// Passkey Entry, rtstack shows this passkey; the peer's user types it.
    case displayPasskey(UInt32)
    /// Numeric Comparison: both sides show this number; the user confirms they match.
    case confirmNumber(UInt32)

    public var description: String {
        switch self {
        case .enterPasskey: return "enter the passkey the peer shows"
        case let .displayPasskey(n): return "type \(Self.sixDigits(n)) on the peer"
        case let .confirmNumber(n): return "confirm that the peer shows \(Self.sixDigits(n))"
        }
    }

    public static func sixDigits(_ n: UInt32) -> String {
        let s = String(n)
        return String(repeating: "0", count: max(0, 6 - s.count)) + s
    }
}

/// The user's answer to a `PairingPrompt`.
public enum PairingAnswer: Sendable, Hashable {
    case passkey(UInt32)
    /// No passkey will come: the pairing fails with Passkey Entry Failed.
    case rejectPasskey
    case numbersMatch(Bool)
}

/// Why security could not be had, by name.
public enum SecurityFailure: Error, Sendable, Hashable, CustomStringConvertible {
    case pairing(PairingError)
    /// The controller could not encrypt (Encryption Change or Command Status with this status).
    case encryption(HCIStatus)
    /// Encrypting with the bond's key failed with PIN or Key Missing: the peer no longer has
    /// the bond (it was reset, or paired with someone else). The bond is removed.
    case keyMissing
    /// The link was encrypted with a key shorter than needed.
    case keySize(UInt8, needed: UInt8)
    /// Nothing can reach the level: why.
    case unavailable(String)
    /// The kernel's pairing failed (`--backend kernel`), with the management status it gave.
    case kernel(ManagementStatus)

    public var description: String {
        switch self {
        case let .pairing(e): return "pairing failed: \(e)"
        case let .encryption(status): return "encryption failed: \(status)"
        case .keyMissing: return "the peer no longer has the bond (PIN or Key Missing); the bond was removed, pair again"
        case let .keySize(size, needed): return "the link is encrypted with a \(size)-octet key, \(needed) needed"
        case let .unavailable(why): return "security cannot be raised: \(why)"
        case let .kernel(status): return "the kernel's pairing failed: \(status)"
        }
    }
}
