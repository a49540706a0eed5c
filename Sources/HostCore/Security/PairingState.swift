import Wire

/// Where a pairing stands. One enum whose cases carry their data; `PairingInitiator`'s
/// transition functions are the diagram of Docs/security.md:
///
/// ```
/// idle ─start─► awaitingResponse ─┬─ legacy ─► legacyAwaitingPasskey? ─► legacyAwaitingConfirm ─► legacyAwaitingRandom ─┐
///                                 └─ SC ─► scAwaitingPublicKey ─► scAwaitingPasskey? ─► scAwaitingConfirm ⇄ scAwaitingRandom
///                                           (20 rounds for Passkey Entry) ─► scAwaitingNumberConfirmation? ─► scAwaitingDHKeyCheck ─┤
///   awaitingEncryption ◄──────────────────────────────────────────────────────────────────────────────────────────────────┘
///        └─ Encryption Change ─► distributingKeys (peer's keys as they come; key size checked) ─► paired
/// any state ─ Pairing Failed / bad PDU / timeout / user says no ─► failed
/// ```
enum PairingState: Sendable {
    case idle
    case awaitingResponse(request: SMPPairingFeatures, preq: [UInt8])
    case legacyAwaitingPasskey(PairingNegotiation)
    case legacyAwaitingConfirm(PairingNegotiation, LegacyExchange)
    case legacyAwaitingRandom(PairingNegotiation, LegacyExchange, sconfirm: UInt128)
    case scAwaitingPublicKey(PairingNegotiation, local: P256KeyPair)
    case scAwaitingPasskey(PairingNegotiation, SecureConnectionsKeys)
    /// Waiting for the peer's Pairing Confirm (Cb, or Cbi of round `round.index`).
    case scAwaitingConfirm(PairingNegotiation, SecureConnectionsKeys, ConfirmRound)
    /// Na / Nai sent, waiting for the peer's Pairing Random.
    case scAwaitingRandom(PairingNegotiation, SecureConnectionsKeys, ConfirmRound, peerConfirm: UInt128)
    case scAwaitingNumberConfirmation(PairingNegotiation, SecureConnectionsKeys, StageTwo)
    case scAwaitingDHKeyCheck(PairingNegotiation, ltk: UInt128, expected: UInt128)
    case awaitingEncryption(PairingNegotiation, LinkEncryptionKey)
    case distributingKeys(PairingNegotiation, ReceivedKeys)
    case paired(PairingResult)
    case failed(PairingError)

    var name: String {
        switch self {
        case .idle: return "idle"
        case .awaitingResponse: return "awaiting Pairing Response"
        case .legacyAwaitingPasskey, .scAwaitingPasskey: return "awaiting passkey"
        case .legacyAwaitingConfirm, .scAwaitingConfirm: return "awaiting Pairing Confirm"
        case .legacyAwaitingRandom, .scAwaitingRandom: return "awaiting Pairing Random"
        case .scAwaitingPublicKey: return "awaiting Pairing Public Key"
        case .scAwaitingNumberConfirmation: return "awaiting numeric comparison"
        case .scAwaitingDHKeyCheck: return "awaiting Pairing DHKey Check"
        case .awaitingEncryption: return "awaiting encryption"
        case .distributingKeys: return "distributing keys"
        case .paired: return "paired"
        case .failed: return "failed"
        }
    }

    /// Between Pairing Request and the last key: the SMP timer runs.
    var isInProgress: Bool {
        switch self {
        case .idle, .paired, .failed: return false
        default: return true
        }
    }
}

/// Phase 1 as agreed: both PDUs as sent, the model, key size and keys to distribute.
struct PairingNegotiation: Sendable {
    var request: SMPPairingFeatures
    var response: SMPPairingFeatures
    /// The 7 PDU bytes (c1's preq / pres).
    var preq: [UInt8]
    var pres: [UInt8]
    var secureConnections: Bool
    var model: AssociationModel
    var keySize: UInt8
    var initiatorKeys: SMPKeyDistribution
    var responderKeys: SMPKeyDistribution
    var bonding: Bool
    /// The passkey of Passkey Entry once known (ra = rb); 0 otherwise.
    var passkey: UInt32 = 0
}

/// Legacy phase 2: TK and our Mrand.
struct LegacyExchange: Sendable {
    var tk: UInt128
    var mrand: UInt128
}

/// Both public keys and the DHKey.
struct SecureConnectionsKeys: Sendable {
    var local: P256KeyPair
    var peer: SMPPublicKey
    var dhKey: [UInt8]
}

/// One commitment round of authentication stage 1: the single round of Just Works /
/// Numeric Comparison, or round `index` (0–19) of Passkey Entry.
struct ConfirmRound: Sendable {
    var index: Int
    /// Na / Nai.
    var na: UInt128
}

/// Authentication stage 2's inputs, once both nonces are known.
struct StageTwo: Sendable {
    var na: UInt128
    var nb: UInt128
}

/// Keys the responder has distributed so far (and the LTK to keep).
struct ReceivedKeys: Sendable {
    var result: PairingResult
    var ltk: UInt128?
    var centralIdentification: (ediv: UInt16, rand: UInt64)?
    var irk: UInt128?
    var identity: SMPIdentityAddress?
    var csrk: UInt128?
    /// The controller's key size is known and enough; until then rtstack keeps the peer's
    /// keys but sends none of its own.
    var keySizeChecked = false
}
