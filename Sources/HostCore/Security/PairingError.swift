import Wire

/// Why a pairing failed, by name. Each case says what rtstack told the peer (`sentReason`,
/// in the Pairing Failed PDU it sent) where it told it anything.
public enum PairingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The peer sent Pairing Failed.
    case peerFailed(SMPPairingFailedReason)
    /// The peer's public key is not a point of P-256 (an invalid-curve attack, or a broken
    /// peer): no DHKey is computed with it (§2.3.5.6.1).
    case invalidPublicKey
    /// The peer sent back rtstack's own public key (a reflection attack).
    case reflectedPublicKey
    /// The peer uses the debug key pair, whose private key is public (§2.3.5.6.1).
    case debugPublicKey
    /// The peer's confirm value does not match its random value (wrong passkey, or an attacker).
    case confirmValueMismatch
    /// The peer's DHKey Check value is wrong.
    case dhKeyCheckMismatch
    /// The user said the numbers differ.
    case numericComparisonRejected
    /// The user gave no passkey (or one above 999999).
    case passkeyEntryFailed
    /// The two devices' capabilities cannot reach the security level asked for.
    case authenticationRequirements(String)
    /// The peer offers a key shorter than the level allows, or the controller encrypted with one.
    case encryptionKeySize(UInt8)
    /// The peer has OOB data rtstack never gave it.
    case oobNotAvailable
    /// A PDU was malformed or had a parameter out of range.
    case invalidParameters(String)
    /// A PDU the procedure does not expect now.
    case unexpectedPDU(SMPCode)
    /// During key distribution, a key PDU out of the order of §3.6.1 (`expected` was due; nil
    /// when every key agreed on had come) or of a key the peer did not agree to distribute.
    case unexpectedKey(SMPCode, expected: SMPCode?, agreed: SMPKeyDistribution)
    /// The peer sent a command rtstack does not know or does not take as central.
    case commandNotSupported(SMPCode)
    /// No SMP PDU for 30 s (§3.4): no more pairing on this link.
    case timeout
    /// The controller could not encrypt (Encryption Change with an error status).
    case encryptionFailed(HCIStatus)
    /// Too soon after failed attempts with this peer (§2.3.6); retry after `retryAt`.
    case repeatedAttempts(retryAt: HostTime)
    /// The link went down during pairing.
    case disconnected

    /// The reason carried by the Pairing Failed rtstack sent for this error; nil when it sent
    /// none (the peer failed first, timeout, disconnection).
    public var sentReason: SMPPairingFailedReason? {
        switch self {
        case .peerFailed, .timeout, .disconnected: return nil
        case .invalidPublicKey, .dhKeyCheckMismatch: return .dhKeyCheckFailed
        case .reflectedPublicKey, .invalidParameters: return .invalidParameters
        case .debugPublicKey, .authenticationRequirements: return .authenticationRequirements
        case .confirmValueMismatch: return .confirmValueFailed
        case .numericComparisonRejected: return .numericComparisonFailed
        case .passkeyEntryFailed: return .passkeyEntryFailed
        case .encryptionKeySize: return .encryptionKeySize
        case .oobNotAvailable: return .oobNotAvailable
        case .unexpectedPDU, .unexpectedKey, .encryptionFailed: return .unspecifiedReason
        case .commandNotSupported: return .commandNotSupported
        case .repeatedAttempts: return .repeatedAttempts
        }
    }

    public var description: String {
        switch self {
        case let .peerFailed(reason): return "the peer failed pairing: \(reason) — \(reason.meaning)"
        case .invalidPublicKey: return "the peer's public key is not a point on P-256 (invalid-curve key rejected)"
        case .reflectedPublicKey: return "the peer sent rtstack's own public key back"
        case .debugPublicKey: return "the peer uses the Bluetooth debug key pair (its private key is public); refused"
        case .confirmValueMismatch: return "the peer's confirm value does not match (wrong passkey, or a man in the middle)"
        case .dhKeyCheckMismatch: return "the peer's DHKey Check value does not match"
        case .numericComparisonRejected: return "the numbers shown did not match (rejected by the user)"
        case .passkeyEntryFailed: return "no valid passkey was entered"
        case let .authenticationRequirements(why): return "the security level cannot be met: \(why)"
        case let .encryptionKeySize(size): return "encryption key size \(size) is below what the security level allows"
        case .oobNotAvailable: return "the peer expects out-of-band data rtstack does not have"
        case let .invalidParameters(why): return "invalid SMP PDU: \(why)"
        case let .unexpectedPDU(code): return "unexpected \(code.name) at this point of pairing"
        case let .unexpectedKey(code, expected, agreed):
            if let key = code.distributedKey, !agreed.contains(key) {
                return "the peer sent \(code.name) (\(key.names)), a key the pairing did not agree on (the peer's keys: \(agreed.names)); a broken peer"
            }
            guard let expected else {
                return "the peer sent \(code.name) again after all its keys (\(agreed.names)); a broken peer"
            }
            return "the peer sent \(code.name) while \(expected.name) was due (Vol 3, Part H, §3.6.1 orders the keys); a broken peer"
        case let .commandNotSupported(code): return "SMP command \(code) is not supported by a central"
        case .timeout: return "no SMP PDU for 30 s (SMP timeout); reconnect to pair again"
        case let .encryptionFailed(status): return "the controller could not encrypt the link: \(status)"
        case .repeatedAttempts: return "pairing with this peer failed recently; wait before retrying"
        case .disconnected: return "the link went down during pairing"
        }
    }
}
