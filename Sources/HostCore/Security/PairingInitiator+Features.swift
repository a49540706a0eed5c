import Wire

/// Phase 1: the Pairing Response is checked against the request and the configuration, and
/// decides legacy or Secure Connections, the model, the key size and the keys.
extension PairingInitiator {
    mutating func negotiate(request: SMPPairingFeatures, preq: [UInt8], response: SMPPairingFeatures, pres: [UInt8],
                            at now: HostTime) {
        if response.ioCapability.isReserved {
            return fail(.invalidParameters("Pairing Response IO Capability \(response.ioCapability) is reserved"), at: now)
        }
        if response.oobDataFlag.isReserved {
            return fail(.invalidParameters("Pairing Response OOB Data Flag \(response.oobDataFlag) is reserved"), at: now)
        }
        guard SMPPairingFeatures.keySizeRange.contains(response.maximumEncryptionKeySize) else {
            return fail(.invalidParameters("Pairing Response Maximum Encryption Key Size \(response.maximumEncryptionKeySize) is outside 7–16"), at: now)
        }
        let sc = request.authenticationRequirements.contains(.secureConnections)
            && response.authenticationRequirements.contains(.secureConnections)
        if configuration.requiresSecureConnections && !sc {
            return fail(.authenticationRequirements("the peer does not support LE Secure Connections"), at: now)
        }
        // In Secure Connections the peer's flag says it holds OOB data from rtstack, which
        // rtstack never gave (§2.3.5.1); in legacy pairing OOB needs both flags set.
        if sc && response.oobDataFlag == .present {
            return fail(.oobNotAvailable, at: now)
        }
        let mitm = request.authenticationRequirements.contains(.mitm) || response.authenticationRequirements.contains(.mitm)
        let model = AssociationModel.select(initiator: request.ioCapability, responder: response.ioCapability,
                                            secureConnections: sc, mitmRequested: mitm)
        if configuration.securityLevel.requiresMITM && !model.isAuthenticated {
            return fail(.authenticationRequirements(
                "\(request.ioCapability.name) with the peer's \(response.ioCapability.name) allows only Just Works, and security \(configuration.securityLevel.name) needs an authenticated key"), at: now)
        }
        let keySize = min(request.maximumEncryptionKeySize, response.maximumEncryptionKeySize)
        if keySize < configuration.securityLevel.minimumKeySize {
            return fail(.encryptionKeySize(keySize), at: now)
        }
        // The responder may only narrow the key distribution; in Secure Connections EncKey is
        // ignored (both sides derive the LTK), and LinkKey (BR/EDR) is never used here.
        var initiatorKeys = request.initiatorKeyDistribution.intersection(response.initiatorKeyDistribution)
        var responderKeys = request.responderKeyDistribution.intersection(response.responderKeyDistribution)
        initiatorKeys.remove(.linkKey)
        responderKeys.remove(.linkKey)
        if sc {
            initiatorKeys.remove(.encryptionKey)
            responderKeys.remove(.encryptionKey)
        }
        let negotiation = PairingNegotiation(
            request: request, response: response, preq: preq, pres: pres, secureConnections: sc, model: model,
            keySize: keySize, initiatorKeys: initiatorKeys, responderKeys: responderKeys,
            bonding: request.authenticationRequirements.bondingFlags == 1 && response.authenticationRequirements.bondingFlags == 1)
        if sc {
            let local = crypto.generateKeyPair()
            state = .scAwaitingPublicKey(negotiation, local: local)
            send(.pairingPublicKey(local.publicKey), at: now)
        } else {
            legacyBegin(negotiation, at: now)
        }
    }

    /// A passkey for rtstack to display: uniform over 000000–999999 (the bias of reducing 64
    /// random bits is below 10⁻¹³).
    mutating func makePasskey() -> UInt32 {
        UInt32(crypto.random64() % 1_000_000)
    }
}
