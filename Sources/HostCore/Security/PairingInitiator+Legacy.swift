import Wire

/// Legacy pairing phase 2 (Core Spec v5.4 Vol 3, Part H, §2.3.5.5): TK from the model,
/// Mconfirm / Sconfirm with c1, the STK with s1.
extension PairingInitiator {
    mutating func legacyBegin(_ negotiation: PairingNegotiation, at now: HostTime) {
        var negotiation = negotiation
        switch negotiation.model {
        case .justWorks, .numericComparison:
            legacySendConfirm(negotiation, tk: 0, at: now)
        case .passkeyEntry(.initiatorDisplays):
            negotiation.passkey = makePasskey()
            emit(.displayPasskey(negotiation.passkey))
            legacySendConfirm(negotiation, tk: UInt128(negotiation.passkey), at: now)
        case .passkeyEntry:
            state = .legacyAwaitingPasskey(negotiation)
            emit(.passkeyRequested)
        }
    }

    mutating func legacySendConfirm(_ negotiation: PairingNegotiation, tk: UInt128, at now: HostTime) {
        let mrand = crypto.random128()
        let mconfirm = legacyConfirm(negotiation, tk: tk, random: mrand)
        state = .legacyAwaitingConfirm(negotiation, LegacyExchange(tk: tk, mrand: mrand))
        send(.pairingConfirm(confirmValue: mconfirm), at: now)
    }

    mutating func legacyRandomReceived(_ negotiation: PairingNegotiation, _ exchange: LegacyExchange,
                                       sconfirm: UInt128, srand: UInt128, at now: HostTime) {
        guard legacyConfirm(negotiation, tk: exchange.tk, random: srand) == sconfirm else {
            return fail(.confirmValueMismatch, at: now)
        }
        let stk = crypto.s1(k: exchange.tk, r1: srand, r2: exchange.mrand)
        let key = LinkEncryptionKey(key: LinkEncryptionKey.masked(stk, toSize: negotiation.keySize), keySize: negotiation.keySize)
        state = .awaitingEncryption(negotiation, key)
        emit(.startEncryption(key))
    }

    /// c1 with this link's PDUs and addresses.
    func legacyConfirm(_ negotiation: PairingNegotiation, tk: UInt128, random: UInt128) -> UInt128 {
        crypto.c1(k: tk, r: random, preq: negotiation.preq, pres: negotiation.pres,
                  iat: localAddress.type.isRandom ? 1 : 0, ia: localAddress.address,
                  rat: peerAddress.type.isRandom ? 1 : 0, ra: peerAddress.address)
    }
}
