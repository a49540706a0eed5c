import Wire

extension SecurityFailure {
    /// The failure and its remedy, on one line (logs and notices).
    public var explanation: String { "\(description); \(remedy)" }

    /// What the user can do about the failure: the cause alone does not say it (the code of a
    /// peer's Pairing Failed names no remedy). Every case has one, so a new case does not
    /// compile without it. Advice that depends on how rtstack was started (its IO capability,
    /// a terminal) is the front end's to add.
    public var remedy: String {
        switch self {
        case let .pairing(error):
            return error.remedy
        case .encryption:
            return PairingError.refusedKey
        case .keySize:
            return "pair again (rtstack pair ADDRESS); a controller that caps the key size below 16 cannot reach the level"
        case .keyMissing:
            return "pair again with rtstack pair ADDRESS (the peer kept no bond, so the old keys are of no use)"
        case .unavailable:
            return "ask for less (a lower --security), or reconnect: a link whose pairing timed out pairs again only once it is new"
        case .kernel:
            return "pair again; if the kernel keeps refusing, remove its bond with the peer (btmgmt unpair ADDRESS) and check "
                + "that bluetoothd is not pairing with the peer at the same time"
        }
    }
}

extension PairingError {
    /// What to do after this pairing failure; exhaustive, like `SecurityFailure.remedy`.
    public var remedy: String {
        switch self {
        case let .peerFailed(reason):
            return Self.remedy(forPeerReason: reason)
        case .invalidPublicKey, .reflectedPublicKey, .debugPublicKey:
            return "do not pair with this device: its key exchange is broken or hostile; if it is yours, update its firmware"
        case .confirmValueMismatch:
            return "the passkey typed was not the one shown: pair again and check the six digits"
        case .dhKeyCheckMismatch:
            return "pair again; if it fails the same way, the peer is broken or another device interferes: pair with no other device near"
        case .numericComparisonRejected:
            return "pair again and confirm only when both sides show the same six digits"
        case .passkeyEntryFailed:
            return "give the passkey: at the terminal prompt, or with --passkey N (--passkey - reads it from stdin)"
        case .authenticationRequirements:
            return "ask for less (a lower --security), or let rtstack authenticate: --passkey, --confirm-numbers or --io-capability"
        case .encryptionKeySize:
            return "the peer cannot give a key long enough for the level asked: ask for less (a lower --security), or update the peer"
        case .oobNotAvailable:
            return "rtstack has no out-of-band data to give: turn out-of-band pairing off on the peer (its documentation says how)"
        case .invalidParameters, .unexpectedPDU, .unexpectedKey, .commandNotSupported:
            return "a defect in the peer's pairing: pair again; if it keeps failing, record it with --capture FILE and report it"
        case .timeout:
            return "the peer stopped answering during pairing; if it asks its user to confirm or type, do so within 30 s"
        case .encryptionFailed:
            return Self.refusedKey
        case .repeatedAttempts:
            return "wait a few seconds before pairing with this peer again"
        case .disconnected:
            return "keep the peer in range and awake, and pair again"
        }
    }

    /// An encryption refused by the peer or its link layer.
    static let refusedKey = "the peer or its link layer refused the key: reconnect; if it keeps failing, the peer may have lost "
        + "the bond (rtstack bonds remove ADDRESS, then rtstack pair ADDRESS)"

    /// The common causes behind a peer's Pairing Failed reason and what to try.
    static func remedy(forPeerReason reason: SMPPairingFailedReason) -> String {
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
        case .oobNotAvailable:
            return "the peer wants out-of-band data rtstack does not have: turn out-of-band pairing off on the peer"
        case .invalidParameters, .commandNotSupported, .dhKeyCheckFailed:
            return "the peer found rtstack's pairing messages wrong: pair again; if it keeps failing, record it with "
                + "--capture FILE and report it"
        default:
            return "pair again; the peer's own log says more about its reason"
        }
    }
}
