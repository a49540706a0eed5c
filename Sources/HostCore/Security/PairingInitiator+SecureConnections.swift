import Wire

/// LE Secure Connections phase 2 (Core Spec v5.4 Vol 3, Part H, §2.3.5.6): public keys,
/// authentication stage 1 (one round for Just Works / Numeric Comparison, twenty for Passkey
/// Entry) and stage 2 (f5, f6 and the DHKey checks).
extension PairingInitiator {
    mutating func publicKeyReceived(_ negotiation: PairingNegotiation, local: P256KeyPair, peer: SMPPublicKey, at now: HostTime) {
        if peer.x == local.publicKey.x {
            return fail(.reflectedPublicKey, at: now)
        }
        guard crypto.isValidPublicKey(peer), let dhKey = crypto.dhKey(privateKey: local.privateKey, peer: peer) else {
            return fail(.invalidPublicKey, at: now)
        }
        if peer == P256KeyPair.debug.publicKey && !configuration.acceptsDebugKey {
            return fail(.debugPublicKey, at: now)
        }
        var negotiation = negotiation
        let keys = SecureConnectionsKeys(local: local, peer: peer, dhKey: dhKey)
        switch negotiation.model {
        case .justWorks, .numericComparison:
            // The responder commits first (Cb); Na goes out when it has.
            state = .scAwaitingConfirm(negotiation, keys, ConfirmRound(index: 0, na: crypto.random128()))
        case .passkeyEntry(.initiatorDisplays):
            negotiation.passkey = makePasskey()
            emit(.displayPasskey(negotiation.passkey))
            sendPasskeyConfirm(negotiation, keys, round: 0, at: now)
        case .passkeyEntry:
            state = .scAwaitingPasskey(negotiation, keys)
            emit(.passkeyRequested)
        }
    }

    /// Round `round` of Passkey Entry: Cai = f4(PKax, PKbx, Nai, 0x80 | bit i of the passkey).
    mutating func sendPasskeyConfirm(_ negotiation: PairingNegotiation, _ keys: SecureConnectionsKeys, round: Int, at now: HostTime) {
        let nai = crypto.random128()
        let cai = crypto.f4(u: keys.local.publicKey.x, v: keys.peer.x, x: nai, z: Self.passkeyBit(negotiation.passkey, round))
        state = .scAwaitingConfirm(negotiation, keys, ConfirmRound(index: round, na: nai))
        send(.pairingConfirm(confirmValue: cai), at: now)
    }

    static func passkeyBit(_ passkey: UInt32, _ round: Int) -> UInt8 {
        0x80 | UInt8((passkey >> UInt32(round)) & 1)
    }

    mutating func scRandomReceived(_ negotiation: PairingNegotiation, _ keys: SecureConnectionsKeys, _ round: ConfirmRound,
                                   peerConfirm: UInt128, nb: UInt128, at now: HostTime) {
        let isPasskey: Bool
        if case .passkeyEntry = negotiation.model { isPasskey = true } else { isPasskey = false }
        let z: UInt8 = isPasskey ? Self.passkeyBit(negotiation.passkey, round.index) : 0
        guard crypto.f4(u: keys.peer.x, v: keys.local.publicKey.x, x: nb, z: z) == peerConfirm else {
            return fail(.confirmValueMismatch, at: now)
        }
        if isPasskey && round.index < 19 {
            return sendPasskeyConfirm(negotiation, keys, round: round.index + 1, at: now)
        }
        let stage = StageTwo(na: round.na, nb: nb)
        if negotiation.model == .numericComparison {
            let number = crypto.g2(u: keys.local.publicKey.x, v: keys.peer.x, x: round.na, y: nb) % 1_000_000
            state = .scAwaitingNumberConfirmation(negotiation, keys, stage)
            emit(.confirmNumber(number))
        } else {
            sendDHKeyCheck(negotiation, keys, stage, at: now)
        }
    }

    /// Stage 2: MacKey and LTK from f5, Ea out, Eb expected (both f6).
    mutating func sendDHKeyCheck(_ negotiation: PairingNegotiation, _ keys: SecureConnectionsKeys, _ stage: StageTwo, at now: HostTime) {
        let a = localAddress.smpAddressOctets, b = peerAddress.smpAddressOctets
        let (macKey, ltk) = crypto.f5(w: keys.dhKey, n1: stage.na, n2: stage.nb, a1: a, a2: b)
        // ra = rb = the passkey in Passkey Entry, 0 in Just Works and Numeric Comparison.
        let r = UInt128(negotiation.passkey)
        let ea = crypto.f6(w: macKey, n1: stage.na, n2: stage.nb, r: r, ioCap: negotiation.request.ioCap, a1: a, a2: b)
        let eb = crypto.f6(w: macKey, n1: stage.nb, n2: stage.na, r: r, ioCap: negotiation.response.ioCap, a1: b, a2: a)
        state = .scAwaitingDHKeyCheck(negotiation, ltk: ltk, expected: eb)
        send(.pairingDHKeyCheck(ea), at: now)
    }

    mutating func dhKeyCheckReceived(_ negotiation: PairingNegotiation, ltk: UInt128, expected: UInt128, eb: UInt128, at now: HostTime) {
        guard eb == expected else { return fail(.dhKeyCheckMismatch, at: now) }
        let key = LinkEncryptionKey(key: LinkEncryptionKey.masked(ltk, toSize: negotiation.keySize), keySize: negotiation.keySize)
        state = .awaitingEncryption(negotiation, key)
        emit(.startEncryption(key))
    }
}
