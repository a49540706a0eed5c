import HostCore
import Wire

/// Runs a `PairingInitiator` against a `ScriptedResponder` the way a host would: PDUs both
/// ways, "encryption changed" when asked to encrypt, then the responder's keys; the user's
/// answers come from `agent`.
struct PairingHarness {
    var initiator: PairingInitiator
    var responder: ScriptedResponder
    var now: HostTime = 1_000
    /// Every PDU the initiator sent, in order.
    var sent: [SMPPDU] = []
    var events: [PairingEvent] = []
    /// The key size the controller reports after encrypting.
    var controllerKeySize: UInt8?
    /// The controller's key size comes after the peer's keys (a Read Encryption Key Size
    /// answered late); false: with Encryption Change (v2).
    var keySizeAfterKeys = false
    /// The events and PDUs the initiator had before the key size came (with `keySizeAfterKeys`).
    var sentBeforeKeySize: [SMPCode] = []
    var stateBeforeKeySize = ""
    var encryptedWith: LinkEncryptionKey?

    static let initiatorAddress = DeviceAddress(BDAddress(string: "56:12:37:37:BF:CE")!, type: .publicDevice)
    static let responderAddress = DeviceAddress(BDAddress(string: "A7:13:70:2D:CF:C1")!, type: .publicDevice)

    init(configuration: PairingConfiguration, responder features: SMPPairingFeatures, script: [[UInt8]] = [],
         local: DeviceAddress = Self.initiatorAddress, peer: DeviceAddress = Self.responderAddress) {
        initiator = PairingInitiator(configuration: configuration, localAddress: local, peerAddress: peer,
                                     crypto: ScriptedCrypto(script: script))
        responder = ScriptedResponder(features: features, address: peer, initiatorAddress: local)
    }

    /// What the user does when asked: by default, the right thing.
    enum Agent {
        case honest
        /// Types this passkey whatever the peer shows.
        case typesPasskey(UInt32)
        case rejectsNumbers
        case rejectsPasskey
        /// Answers nothing.
        case absent
    }

    mutating func run(agent: Agent = .honest) {
        initiator.start(at: now)
        pump(agent: agent)
    }

    mutating func pump(agent: Agent = .honest) {
        var busy = true
        while busy {
            busy = false
            // Events first: a passkey rtstack displays is typed on the peer before the peer
            // answers the confirm value that goes with it.
            while let event = initiator.pollEvent() {
                busy = true
                events.append(event)
                handle(event, agent: agent)
            }
            // One PDU at a time, then the events it caused.
            if let pdu = initiator.pollTransmit() {
                busy = true
                sent.append(pdu)
                now += 1_000_000
                for answer in responder.receive(pdu) {
                    initiator.receive(answer.encoded[...], at: now)
                }
            }
        }
    }

    private mutating func handle(_ event: PairingEvent, agent: Agent) {
        switch event {
        case let .startEncryption(key):
            encryptedWith = key
            let size = controllerKeySize ?? key.keySize
            initiator.encryptionChanged(keySize: keySizeAfterKeys ? nil : size, at: now)
            if let request = responder.request {
                let keys = responder.features.responderKeyDistribution.intersection(request.responderKeyDistribution)
                for pdu in responder.keysToDistribute(keys) { initiator.receive(pdu.encoded[...], at: now) }
            }
            guard keySizeAfterKeys else { return }
            var early: [SMPCode] = []
            while let pdu = initiator.pollTransmit() { sent.append(pdu); early.append(pdu.code) }
            sentBeforeKeySize = early
            stateBeforeKeySize = initiator.stateName
            initiator.encryptionKeySizeRead(size, at: now)
        case let .displayPasskey(passkey):
            // The peer's user types what rtstack shows.
            responder.passkey = passkey
        case .passkeyRequested:
            switch agent {
            case .honest: initiator.enterPasskey(responder.passkey, at: now)
            case let .typesPasskey(p): initiator.enterPasskey(p, at: now)
            case .rejectsPasskey: initiator.rejectPasskey(at: now)
            case .rejectsNumbers, .absent: break
            }
        case .confirmNumber:
            switch agent {
            case .rejectsNumbers: initiator.confirmNumericComparison(false, at: now)
            case .absent: break
            default: initiator.confirmNumericComparison(true, at: now)
            }
        default:
            break
        }
    }

    var result: PairingResult? { initiator.result }
    var error: PairingError? { initiator.error }
    var sentCodes: [SMPCode] { sent.map(\.code) }
    /// The reason of the last Pairing Failed rtstack sent.
    var sentFailure: SMPPairingFailedReason? {
        for pdu in sent.reversed() { if case let .pairingFailed(reason) = pdu { return reason } }
        return nil
    }
}

/// Pairing Response features, shortly.
func responseFeatures(_ io: SMPIOCapability, _ authReq: SMPAuthenticationRequirements = [.bonding, .secureConnections],
                      keySize: UInt8 = 16, initiatorKeys: SMPKeyDistribution = [.identityKey, .signingKey],
                      responderKeys: SMPKeyDistribution = [.encryptionKey, .identityKey, .signingKey],
                      oob: SMPOOBDataFlag = .notPresent) -> SMPPairingFeatures {
    SMPPairingFeatures(ioCapability: io, oobDataFlag: oob, authenticationRequirements: authReq, maximumEncryptionKeySize: keySize,
                       initiatorKeyDistribution: initiatorKeys, responderKeyDistribution: responderKeys)
}
