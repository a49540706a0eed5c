import Wire

/// What the pairing procedure has to say, pulled with `PairingInitiator.pollEvent()`.
public enum PairingEvent: Sendable, Hashable {
    /// The peripheral sent a Security Request while no pairing ran. The host decides: encrypt
    /// with the bond's LTK when it has one that meets `requirements`, else `start` pairing.
    case securityRequested(SMPAuthenticationRequirements)
    /// Passkey Entry with rtstack typing: answer with `enterPasskey` (the number the peer
    /// shows, or one the user also types on the peer), or `rejectPasskey`.
    case passkeyRequested
    /// Passkey Entry with rtstack displaying: show this number (six digits, zero padded) to
    /// the user who types it on the peer.
    case displayPasskey(UInt32)
    /// Numeric Comparison: show this number (six digits); answer `confirmNumericComparison`.
    case confirmNumber(UInt32)
    /// The peer's user pressed a key while typing the passkey (§3.5.8).
    case peerKeypress(SMPKeypressNotificationType)
    /// The host must encrypt the link now: HCI LE Enable Encryption with this key (an STK in
    /// legacy pairing, the LTK in Secure Connections), then report `encryptionChanged`.
    case startEncryption(LinkEncryptionKey)
    /// Pairing is complete (keys distributed both ways).
    case paired(PairingResult)
    /// Pairing failed; the procedure is over (`PairingError.sentReason` says what the peer
    /// was told).
    case failed(PairingError)
}
