/// The user's answers (rtstack's agent: `--passkey`, a terminal prompt, or the Swift API's
/// agent object).
extension PairingInitiator {
    /// The passkey for Passkey Entry (0–999999), after `PairingEvent.passkeyRequested`. A
    /// larger number fails the pairing with Passkey Entry Failed. Ignored at any other time.
    public mutating func enterPasskey(_ passkey: UInt32, at now: HostTime) {
        switch state {
        case var .legacyAwaitingPasskey(negotiation):
            guard passkey <= 999_999 else { return fail(.passkeyEntryFailed, at: now) }
            negotiation.passkey = passkey
            legacySendConfirm(negotiation, tk: UInt128(passkey), at: now)
        case .scAwaitingPasskey(var negotiation, let keys):
            guard passkey <= 999_999 else { return fail(.passkeyEntryFailed, at: now) }
            negotiation.passkey = passkey
            sendPasskeyConfirm(negotiation, keys, round: 0, at: now)
        default:
            break
        }
    }

    /// The user will not (or cannot) enter a passkey: Pairing Failed, Passkey Entry Failed.
    public mutating func rejectPasskey(at now: HostTime) {
        switch state {
        case .legacyAwaitingPasskey, .scAwaitingPasskey: fail(.passkeyEntryFailed, at: now)
        default: break
        }
    }

    /// The user's answer to `PairingEvent.confirmNumber`: the numbers match (go on) or not
    /// (Pairing Failed, Numeric Comparison Failed).
    public mutating func confirmNumericComparison(_ numbersMatch: Bool, at now: HostTime) {
        guard case let .scAwaitingNumberConfirmation(negotiation, keys, stage) = state else { return }
        if numbersMatch {
            sendDHKeyCheck(negotiation, keys, stage, at: now)
        } else {
            fail(.numericComparisonRejected, at: now)
        }
    }
}
