import HostCore
import SecurityCrypto
import Wire

/// A peripheral's Security Manager written straight from Core Spec v5.4 Vol 3, Part H, for
/// the initiator to pair with: it answers each PDU the way §2.3.5 and §3.6 say a responder
/// does, computes its values with the toolbox (whose every function is pinned to Appendix D),
/// checks the initiator's values, and can be told to misbehave the ways a hostile peer does.
struct ScriptedResponder {
    enum Misbehaviour: Equatable {
        case none
        /// Sends a Pairing Confirm that does not match its Pairing Random.
        case wrongConfirm
        /// Sends a public key that is not on P-256.
        case invalidPublicKey
        /// Sends the initiator's own public key back.
        case reflectedPublicKey
        /// Uses the debug key pair.
        case debugKey
        /// Sends a wrong DHKey Check.
        case wrongDHKeyCheck
        /// Sends nothing after the Pairing Response.
        case silentAfterResponse
    }

    var features: SMPPairingFeatures
    var address: DeviceAddress
    var initiatorAddress: DeviceAddress
    var crypto = NettleCryptography()
    var misbehaviour: Misbehaviour = .none
    /// The private key (SC); P-256 sample data set 1's B by default.
    var privateKey = P256PrivateKey(bytes: Hex.parse("55188b3d 32f6bb9a 900afcfb eed4e72a 59cb9ac2 f19d7cfb 6b4fdd49 f47fc5fd")!)!
    /// Nb / Srand for each round (then repeated).
    var nonces: [UInt128] = [0xa6e8e7cc_25a75f6e_216583f7_ff3dc4cf]
    /// The passkey its user typed or its display showed (Passkey Entry).
    var passkey: UInt32 = 0
    /// Keys it distributes.
    var ltk: UInt128 = 0x0102_0304_0506_0708_090a_0b0c_0d0e_0f10
    var ediv: UInt16 = 0x4321
    var rand: UInt64 = 0x1122_3344_5566_7788
    var irk: UInt128 = 0xec0234a3_57c8ad05_341010a6_0a397d9b
    var identity = DeviceAddress(BDAddress(string: "C1:A2:A3:A4:A5:A6")!, type: .randomDevice)
    var csrk: UInt128 = 0xcafe_f00d

    // What happened.
    private(set) var preq: [UInt8] = []
    private(set) var pres: [UInt8] = []
    private(set) var request: SMPPairingFeatures?
    private(set) var peerPublicKey: SMPPublicKey?
    private(set) var dhKey: [UInt8] = []
    private(set) var initiatorConfirm: UInt128?
    private(set) var round = 0
    private(set) var na: UInt128 = 0
    private(set) var derivedLTK: UInt128?
    private(set) var checks: [String] = []
    private(set) var failures: [String] = []
    private(set) var received: [SMPPDU] = []
    private(set) var mconfirm: UInt128?
    private(set) var stk: UInt128?

    init(features: SMPPairingFeatures, address: DeviceAddress, initiatorAddress: DeviceAddress) {
        self.features = features
        self.address = address
        self.initiatorAddress = initiatorAddress
    }

    var secureConnections: Bool {
        (request?.authenticationRequirements.contains(.secureConnections) ?? false)
            && features.authenticationRequirements.contains(.secureConnections)
    }
    var isPasskey: Bool {
        guard let request else { return false }
        let mitm = request.authenticationRequirements.contains(.mitm) || features.authenticationRequirements.contains(.mitm)
        if case .passkeyEntry = AssociationModel.select(initiator: request.ioCapability, responder: features.ioCapability,
                                                        secureConnections: secureConnections, mitmRequested: mitm) { return true }
        return false
    }
    /// Legacy TK: the passkey in Passkey Entry, 0 in Just Works (Vol 3, Part H, §2.3.5.2).
    var legacyTK: UInt128 { isPasskey ? UInt128(passkey) : 0 }
    func nonce(_ i: Int) -> UInt128 { nonces[min(i, nonces.count - 1)] }
    var publicKey: SMPPublicKey {
        misbehaviour == .debugKey ? P256KeyPair.debug.publicKey : crypto.publicKey(of: privateKey)!
    }
    var keyPrivate: P256PrivateKey { misbehaviour == .debugKey ? P256KeyPair.debug.privateKey : privateKey }

    /// The responder's answers to one PDU from the initiator.
    mutating func receive(_ pdu: SMPPDU) -> [SMPPDU] {
        received.append(pdu)
        switch pdu {
        case let .pairingRequest(req):
            request = req
            preq = pdu.encoded
            let response = SMPPDU.pairingResponse(features)
            pres = response.encoded
            return [response]
        case let .pairingPublicKey(key):
            if misbehaviour == .silentAfterResponse { return [] }
            peerPublicKey = key
            var mine = publicKey
            if misbehaviour == .invalidPublicKey {
                var y = mine.y
                y[31] ^= 0x01
                mine = SMPPublicKey(x: mine.x, y: y)!
            }
            if misbehaviour == .reflectedPublicKey { mine = key }
            dhKey = crypto.dhKey(privateKey: keyPrivate, peer: key) ?? []
            var out: [SMPPDU] = [.pairingPublicKey(mine)]
            if !isPasskey {
                // Just Works / Numeric Comparison: Cb = f4(PKbx, PKax, Nb, 0) right away.
                var cb = crypto.f4(u: publicKey.x, v: key.x, x: nonce(0), z: 0)
                if misbehaviour == .wrongConfirm { cb ^= 1 }
                out.append(.pairingConfirm(confirmValue: cb))
            }
            return out
        case let .pairingConfirm(value):
            if misbehaviour == .silentAfterResponse { return [] }
            initiatorConfirm = value
            if secureConnections {
                // Passkey round: Cbi = f4(PKbx, PKax, Nbi, rbi).
                var cb = crypto.f4(u: publicKey.x, v: peerPublicKey!.x, x: nonce(round), z: bit(round))
                if misbehaviour == .wrongConfirm { cb ^= 1 }
                return [.pairingConfirm(confirmValue: cb)]
            }
            mconfirm = value
            var sconfirm = legacyConfirm(random: nonce(0))
            if misbehaviour == .wrongConfirm { sconfirm ^= 1 }
            return [.pairingConfirm(confirmValue: sconfirm)]
        case let .pairingRandom(value):
            if secureConnections {
                if isPasskey {
                    let expected = crypto.f4(u: peerPublicKey!.x, v: publicKey.x, x: value, z: bit(round))
                    record(expected == initiatorConfirm, "Cai of round \(round)")
                    na = value
                    let nb = nonce(round)
                    round += 1
                    return [.pairingRandom(randomValue: nb)]
                }
                na = value
                return [.pairingRandom(randomValue: nonce(0))]
            }
            record(legacyConfirm(random: value) == mconfirm, "Mconfirm")
            stk = crypto.s1(k: legacyTK, r1: nonce(0), r2: value)
            return [.pairingRandom(randomValue: nonce(0))]
        case let .pairingDHKeyCheck(ea):
            let a = initiatorAddress.smpAddressOctets, b = address.smpAddressOctets
            let nb = nonce(max(round - 1, 0))
            let (macKey, ltk) = crypto.f5(w: dhKey, n1: na, n2: nb, a1: a, a2: b)
            let r = UInt128(isPasskey ? passkey : 0)
            record(crypto.f6(w: macKey, n1: na, n2: nb, r: r, ioCap: request!.ioCap, a1: a, a2: b) == ea, "Ea")
            derivedLTK = ltk
            var eb = crypto.f6(w: macKey, n1: nb, n2: na, r: r, ioCap: features.ioCap, a1: b, a2: a)
            if misbehaviour == .wrongDHKeyCheck { eb ^= 1 }
            return [.pairingDHKeyCheck(eb)]
        default:
            return []
        }
    }

    /// The link is encrypted: the responder's keys, in the order of §3.6.1.
    func keysToDistribute(_ keys: SMPKeyDistribution) -> [SMPPDU] {
        var out: [SMPPDU] = []
        if keys.contains(.encryptionKey) && !secureConnections {
            out += [.encryptionInformation(longTermKey: ltk), .centralIdentification(ediv: ediv, rand: rand)]
        }
        if keys.contains(.identityKey) {
            out += [.identityInformation(identityResolvingKey: irk), .identityAddressInformation(SMPIdentityAddress(identity))]
        }
        if keys.contains(.signingKey) { out.append(.signingInformation(signatureKey: csrk)) }
        return out
    }

    private func bit(_ round: Int) -> UInt8 { 0x80 | UInt8((passkey >> UInt32(round)) & 1) }

    private func legacyConfirm(random: UInt128) -> UInt128 {
        crypto.c1(k: legacyTK, r: random, preq: preq, pres: pres, iat: initiatorAddress.type.isRandom ? 1 : 0,
                  ia: initiatorAddress.address, rat: address.type.isRandom ? 1 : 0, ra: address.address)
    }

    private mutating func record(_ ok: Bool, _ what: String) {
        if ok { checks.append(what) } else { failures.append(what) }
    }
}
