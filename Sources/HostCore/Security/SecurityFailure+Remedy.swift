import Wire

extension SecurityFailure {
    /// The failure and, where there is one, its remedy, on one line (logs and notices).
    public var explanation: String { remedy.map { "\(description); \($0)" } ?? description }

    /// What the user can do about the failure, where the cause alone does not say it (the
    /// code of a peer's Pairing Failed names no remedy). Advice that depends on how rtstack
    /// was started (its IO capability, a terminal) is the front end's to add.
    public var remedy: String? {
        switch self {
        case let .pairing(.peerFailed(reason)):
            return PairingError.remedy(forPeerReason: reason)
        case .pairing(.repeatedAttempts):
            return "wait a few seconds before pairing with this peer again"
        case .pairing(.confirmValueMismatch):
            return "the passkey typed was not the one shown: pair again and check the six digits"
        case .pairing(.timeout):
            return "the peer stopped answering during pairing; if it asks its user to confirm or type, do so within 30 s"
        case .pairing(.encryptionFailed), .encryption:
            return "the peer or its link layer refused the key: reconnect; if it keeps failing, the peer may have lost "
                + "the bond (rtstack bonds remove ADDRESS, then rtstack pair ADDRESS)"
        case .keySize:
            return "pair again (rtstack pair ADDRESS); a controller that caps the key size below 16 cannot reach the level"
        default:
            return nil
        }
    }
}

extension PairingError {
    /// The common causes behind a peer's Pairing Failed reason and what to try.
    static func remedy(forPeerReason reason: SMPPairingFailedReason) -> String? {
        switch reason {
        case .unspecifiedReason, .pairingNotSupported:
            return "the peer refused without saying why. Common causes: it keeps a single bond and already has one "
                + "(remove that bond on the peer, often by a reset or a button held at power-on, then pair again); "
                + "it is not in pairing mode; it refuses rtstack's IO capability or security level (its own log says which)"
        case .authenticationRequirements:
            return "the peer wants more than rtstack offered: an authenticated (MITM) pairing, which needs a passkey or "
                + "numeric comparison, or LE Secure Connections"
        case .passkeyEntryFailed:
            return "the passkey was not entered on the peer in time, or entry was cancelled: pair again and type it"
        case .confirmValueFailed:
            return "the passkeys differed: pair again and type exactly the six digits shown"
        case .numericComparisonFailed:
            return "the numbers were rejected on the peer: pair again and accept them on both sides if they match"
        case .repeatedAttempts:
            return "the peer throttles after failed attempts: wait a minute before pairing again"
        case .encryptionKeySize, .keyRejected:
            return "the peer wants a longer key than was offered: leave the key size at 16"
        default:
            return nil
        }
    }
}
