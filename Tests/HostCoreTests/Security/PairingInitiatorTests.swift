import Testing
import HostCore
import SecurityCrypto
import Wire

private let debugPrivate = P256KeyPair.debug.privateKey.bytes
private let n1 = hx("d5cb8454 d177733e ffffb2ec 712baeab")

@Suite struct PairingSecureConnectionsTests {
    /// Just Works between the two sample devices of Appendix D: rtstack's key pair is the
    /// debug pair (PKa = U), the peer's is P-256 set 1's B, Na = N1, Nb = N2, and the addresses
    /// are A1 and A2 — so the DHKey is D.3's W and the LTK rtstack asks the controller to
    /// encrypt with must be D.3's LTK.
    @Test func justWorksReachesTheAppendixDLTK() throws {
        var h = PairingHarness(configuration: PairingConfiguration(), responder: responseFeatures(.noInputNoOutput),
                               script: [debugPrivate, n1])
        h.run()
        let result = try #require(h.result, "\(String(describing: h.error))")
        #expect(h.encryptedWith?.key == v128("69867911 69d7cd23 980522b5 94750a38"))
        #expect(h.responder.dhKey == hx("ec0234a3 57c8ad05 341010a6 0a397d9b 99796b13 b4f866f1 868d34f3 73bfa698"))
        #expect(h.responder.derivedLTK == v128("69867911 69d7cd23 980522b5 94750a38"))
        #expect(h.responder.checks == ["Ea"] && h.responder.failures.isEmpty)
        #expect(h.sentCodes == [.pairingRequest, .pairingPublicKey, .pairingRandom, .pairingDHKeyCheck])
        #expect(result.model == .justWorks && result.secureConnections && result.bonded)
        #expect(result.securityLevel == .medium)
        #expect(result.longTermKey?.key == v128("69867911 69d7cd23 980522b5 94750a38"))
        #expect(result.longTermKey?.ediv == 0 && result.longTermKey?.rand == 0)
        #expect(result.identityAddress == h.responder.identity)
        #expect(result.identityResolvingKey == h.responder.irk)
        #expect(result.peerSignatureKey == h.responder.csrk)
        #expect(h.initiator.nextDeadline == nil)
        #expect(!"\(result)".contains("6986"))
    }

    @Test func numericComparisonShowsG2AndWaitsForTheUser() throws {
        let config = PairingConfiguration(ioCapability: .displayYesNo, securityLevel: .high)
        var h = PairingHarness(configuration: config, responder: responseFeatures(.displayYesNo, [.bonding, .mitm, .secureConnections]),
                               script: [debugPrivate, n1])
        h.run(agent: .absent)
        // Waiting on the user: nothing more is sent, the number is g2(PKax, PKbx, Na, Nb) mod 10^6.
        let crypto = NettleCryptography()
        let expected = crypto.g2(u: P256KeyPair.debug.publicKey.x, v: h.responder.publicKey.x, x: v128("d5cb8454 d177733e ffffb2ec 712baeab"),
                                 y: h.responder.nonces[0]) % 1_000_000
        #expect(h.events.contains(.confirmNumber(expected)))
        #expect(h.initiator.stateName == "awaiting numeric comparison")
        #expect(h.sentCodes.last == .pairingRandom)
        h.initiator.confirmNumericComparison(true, at: h.now)
        h.pump()
        let result = try #require(h.result)
        #expect(result.model == .numericComparison)
        #expect(result.securityLevel == .fips)
        #expect(h.responder.checks == ["Ea"])
    }

    @Test func numericComparisonRejectedByTheUser() {
        let config = PairingConfiguration(ioCapability: .displayYesNo, securityLevel: .high)
        var h = PairingHarness(configuration: config, responder: responseFeatures(.displayYesNo, [.bonding, .mitm, .secureConnections]))
        h.run(agent: .rejectsNumbers)
        #expect(h.error == .numericComparisonRejected)
        #expect(h.sentFailure == .numericComparisonFailed)
    }

    @Test func passkeyDisplayedByRtstackTakesTwentyRounds() throws {
        let config = PairingConfiguration(ioCapability: .keyboardDisplay, securityLevel: .high)
        var h = PairingHarness(configuration: config, responder: responseFeatures(.keyboardOnly, [.bonding, .mitm, .secureConnections]))
        h.run()
        let result = try #require(h.result, "\(String(describing: h.error))")
        guard case let .displayPasskey(passkey)? = h.events.first(where: { if case .displayPasskey = $0 { return true } else { return false } }) else {
            Issue.record("no passkey displayed"); return
        }
        #expect(passkey <= 999_999)
        #expect(result.model == .passkeyEntry(.initiatorDisplays))
        #expect(h.sentCodes.filter { $0 == .pairingConfirm }.count == 20)
        #expect(h.sentCodes.filter { $0 == .pairingRandom }.count == 20)
        #expect(h.responder.checks == (0..<20).map { "Cai of round \($0)" } + ["Ea"])
        #expect(result.securityLevel == .fips)
    }

    @Test func passkeyDisplayedByThePeer() throws {
        let config = PairingConfiguration(ioCapability: .keyboardOnly, securityLevel: .high)
        var h = PairingHarness(configuration: config, responder: responseFeatures(.displayOnly, [.bonding, .mitm, .secureConnections]))
        h.responder.passkey = 123_456
        h.run()
        #expect(h.events.first == .passkeyRequested)
        #expect(try #require(h.result).model == .passkeyEntry(.responderDisplays))
        #expect(h.responder.checks.count == 21)
    }

    @Test func passkeyTypedOnBothSides() throws {
        let config = PairingConfiguration(ioCapability: .keyboardOnly, securityLevel: .high)
        var h = PairingHarness(configuration: config, responder: responseFeatures(.keyboardOnly, [.bonding, .mitm, .secureConnections]))
        h.responder.passkey = 999_999
        h.run()
        #expect(try #require(h.result).model == .passkeyEntry(.bothInput))
    }

    /// A wrong passkey fails at the first round whose bit differs, with Confirm Value Failed.
    @Test func wrongPasskeyFailsWithConfirmValueFailed() {
        let config = PairingConfiguration(ioCapability: .keyboardOnly, securityLevel: .high)
        var h = PairingHarness(configuration: config, responder: responseFeatures(.displayOnly, [.bonding, .mitm, .secureConnections]))
        h.responder.passkey = 0b1000   // rtstack types 0: bits 0–2 agree, bit 3 differs
        h.run(agent: .typesPasskey(0))
        #expect(h.error == .confirmValueMismatch)
        #expect(h.sentFailure == .confirmValueFailed)
        #expect(h.sentCodes.filter { $0 == .pairingConfirm }.count == 4)
    }

    @Test func passkeyRejectedOrOutOfRange() {
        let config = PairingConfiguration(ioCapability: .keyboardOnly, securityLevel: .high)
        var h = PairingHarness(configuration: config, responder: responseFeatures(.displayOnly, [.bonding, .mitm, .secureConnections]))
        h.run(agent: .rejectsPasskey)
        #expect(h.error == .passkeyEntryFailed && h.sentFailure == .passkeyEntryFailed)
        var big = PairingHarness(configuration: config, responder: responseFeatures(.displayOnly, [.bonding, .mitm, .secureConnections]))
        big.run(agent: .typesPasskey(1_000_000))
        #expect(big.error == .passkeyEntryFailed)
    }

    @Test(arguments: [
        (ScriptedResponder.Misbehaviour.invalidPublicKey, PairingError.invalidPublicKey, SMPPairingFailedReason.dhKeyCheckFailed),
        (.reflectedPublicKey, .reflectedPublicKey, .invalidParameters),
        (.debugKey, .debugPublicKey, .authenticationRequirements),
        (.wrongConfirm, .confirmValueMismatch, .confirmValueFailed),
        (.wrongDHKeyCheck, .dhKeyCheckMismatch, .dhKeyCheckFailed),
    ])
    func hostileResponderIsRefused(_ misbehaviour: ScriptedResponder.Misbehaviour, _ error: PairingError, _ reason: SMPPairingFailedReason) {
        var h = PairingHarness(configuration: PairingConfiguration(), responder: responseFeatures(.noInputNoOutput))
        h.responder.misbehaviour = misbehaviour
        h.run()
        #expect(h.error == error)
        #expect(h.sentFailure == reason)
        #expect(h.encryptedWith == nil, "no key may come out of a refused pairing")
        #expect(h.events.last == .failed(error))
        #expect(!h.initiator.isInProgress && h.initiator.nextDeadline == nil)
    }

    @Test func debugKeyAcceptedWhenConfigured() {
        var h = PairingHarness(configuration: PairingConfiguration(acceptsDebugKey: true), responder: responseFeatures(.noInputNoOutput))
        h.responder.misbehaviour = .debugKey
        h.run()
        #expect(h.result != nil)
    }

    @Test func oobFlagInSecureConnectionsIsNotAvailable() {
        var h = PairingHarness(configuration: PairingConfiguration(), responder: responseFeatures(.noInputNoOutput, oob: .present))
        h.run()
        #expect(h.error == .oobNotAvailable && h.sentFailure == .oobNotAvailable)
    }
}

@Suite struct PairingLegacyTests {
    static let legacy: SMPAuthenticationRequirements = [.bonding]

    @Test func justWorksEncryptsWithTheSTKThenTakesTheDistributedKeys() throws {
        var h = PairingHarness(configuration: PairingConfiguration(), responder: responseFeatures(.noInputNoOutput, Self.legacy))
        h.run()
        let result = try #require(h.result, "\(String(describing: h.error))")
        #expect(h.sentCodes == [.pairingRequest, .pairingConfirm, .pairingRandom])
        #expect(h.responder.checks == ["Mconfirm"])
        #expect(h.encryptedWith?.key == h.responder.stk)
        #expect(h.encryptedWith?.ediv == 0 && h.encryptedWith?.rand == 0)
        #expect(!result.secureConnections && result.model == .justWorks)
        #expect(result.longTermKey == LinkEncryptionKey(key: h.responder.ltk, ediv: h.responder.ediv, rand: h.responder.rand, keySize: 16))
        #expect(result.identityAddress == h.responder.identity && result.identityResolvingKey == h.responder.irk)
        #expect(result.securityLevel == .medium)
    }

    @Test func passkeyBothWays() throws {
        let config = PairingConfiguration(ioCapability: .keyboardDisplay, securityLevel: .high)
        var shows = PairingHarness(configuration: config, responder: responseFeatures(.keyboardOnly, [.bonding, .mitm]))
        shows.run()
        #expect(try #require(shows.result).model == .passkeyEntry(.initiatorDisplays))
        #expect(shows.responder.checks == ["Mconfirm"])
        #expect(try #require(shows.result).securityLevel == .high)

        var types = PairingHarness(configuration: config, responder: responseFeatures(.displayOnly, [.bonding, .mitm]))
        types.responder.passkey = 42
        types.run()
        #expect(try #require(types.result).model == .passkeyEntry(.responderDisplays))

        var wrong = PairingHarness(configuration: config, responder: responseFeatures(.displayOnly, [.bonding, .mitm]))
        wrong.responder.passkey = 42
        wrong.run(agent: .typesPasskey(43))
        #expect(wrong.error == .confirmValueMismatch && wrong.sentFailure == .confirmValueFailed)
    }

    @Test func wrongSconfirmIsRefused() {
        var h = PairingHarness(configuration: PairingConfiguration(), responder: responseFeatures(.noInputNoOutput, Self.legacy))
        h.responder.misbehaviour = .wrongConfirm
        h.run()
        #expect(h.error == .confirmValueMismatch && h.sentFailure == .confirmValueFailed)
        #expect(h.encryptedWith == nil)
    }

    /// Key size 7: the STK and the distributed LTK are masked to 7 octets.
    @Test func shortKeyIsMasked() throws {
        var h = PairingHarness(configuration: PairingConfiguration(), responder: responseFeatures(.noInputNoOutput, Self.legacy, keySize: 7))
        h.run()
        let result = try #require(h.result)
        #expect(result.keySize == 7)
        #expect(h.encryptedWith?.key == LinkEncryptionKey.masked(h.responder.stk!, toSize: 7))
        #expect(h.encryptedWith!.key >> 56 == 0)
        #expect(result.longTermKey?.key == LinkEncryptionKey.masked(h.responder.ltk, toSize: 7))
    }

    @Test func secureConnectionsOnlyRefusesLegacy() {
        var h = PairingHarness(configuration: PairingConfiguration(secureConnectionsOnly: true),
                               responder: responseFeatures(.noInputNoOutput, Self.legacy))
        h.run()
        guard case .authenticationRequirements? = h.error else { Issue.record("\(String(describing: h.error))"); return }
        #expect(h.sentFailure == .authenticationRequirements)
        var fips = PairingHarness(configuration: PairingConfiguration(ioCapability: .keyboardDisplay, securityLevel: .fips),
                                  responder: responseFeatures(.keyboardDisplay, [.bonding, .mitm]))
        fips.run()
        #expect(fips.sentFailure == .authenticationRequirements)
    }
}

@Suite struct PairingRulesTests {
    @Test func highSecurityNeedsAnAuthenticatedModel() {
        var h = PairingHarness(configuration: PairingConfiguration(ioCapability: .keyboardDisplay, securityLevel: .high),
                               responder: responseFeatures(.noInputNoOutput))
        h.run()
        guard case let .authenticationRequirements(why)? = h.error else { Issue.record("\(String(describing: h.error))"); return }
        #expect(why.contains("NoInputNoOutput"))
        #expect(h.sentFailure == .authenticationRequirements)
        #expect(h.sentCodes == [.pairingRequest, .pairingFailed])
    }

    @Test func keySizeBelowTheLevelFails() {
        var h = PairingHarness(configuration: PairingConfiguration(ioCapability: .keyboardDisplay, securityLevel: .fips),
                               responder: responseFeatures(.keyboardDisplay, [.bonding, .mitm, .secureConnections], keySize: 12))
        h.run()
        #expect(h.error == .encryptionKeySize(12) && h.sentFailure == .encryptionKeySize)
    }

    @Test(arguments: [
        responseFeatures(SMPIOCapability(0x05)),
        responseFeatures(.noInputNoOutput, oob: SMPOOBDataFlag(0x02)),
        responseFeatures(.noInputNoOutput, keySize: 6),
        responseFeatures(.noInputNoOutput, keySize: 17),
    ])
    func reservedValuesInTheResponseAreInvalidParameters(_ features: SMPPairingFeatures) {
        var h = PairingHarness(configuration: PairingConfiguration(), responder: features)
        h.run()
        guard case .invalidParameters? = h.error else { Issue.record("\(String(describing: h.error))"); return }
        #expect(h.sentFailure == .invalidParameters)
    }

    /// The controller encrypted with a shorter key than negotiated.
    @Test func controllerKeySizeIsChecked() {
        var h = PairingHarness(configuration: PairingConfiguration(), responder: responseFeatures(.noInputNoOutput))
        h.controllerKeySize = 7
        h.run()
        #expect(h.error == .encryptionKeySize(7) && h.sentFailure == .encryptionKeySize)
        #expect(h.result == nil)
    }

    @Test func encryptionFailure() {
        var p = PairingInitiator(configuration: PairingConfiguration(), localAddress: PairingHarness.initiatorAddress,
                                 peerAddress: PairingHarness.responderAddress, crypto: ScriptedCrypto())
        var h = PairingHarness(configuration: PairingConfiguration(), responder: responseFeatures(.noInputNoOutput))
        h.controllerKeySize = 16
        // Drive by hand up to the encryption request, then report an HCI error.
        p.start(at: 0)
        var responder = h.responder
        var encryption: LinkEncryptionKey?
        for _ in 0..<10 {
            while let pdu = p.pollTransmit() { for a in responder.receive(pdu) { p.receive(a, at: 1) } }
            while let e = p.pollEvent() { if case let .startEncryption(k) = e { encryption = k } }
        }
        #expect(encryption != nil)
        p.encryptionFailed(status: HCIStatus(rawValue: 0x06), at: 2)
        #expect(p.error == .encryptionFailed(HCIStatus(rawValue: 0x06)))
        #expect(p.pollTransmit() == .pairingFailed(reason: .unspecifiedReason))
        _ = h
    }

    /// §3.4: 30 s without a PDU from rtstack's side ends pairing on this link for good.
    @Test func smpTimeout() {
        var h = PairingHarness(configuration: PairingConfiguration(), responder: responseFeatures(.noInputNoOutput))
        h.responder.misbehaviour = .silentAfterResponse
        h.run()
        let deadline = h.initiator.nextDeadline
        // 30 s from the last PDU rtstack queued (the harness moved 1 ms on after sending it).
        #expect(deadline == h.now - 1_000_000 + 30_000_000_000)
        h.initiator.advanceTime(to: deadline! - 1)
        #expect(h.initiator.isInProgress)
        h.initiator.advanceTime(to: deadline!)
        #expect(h.initiator.error == .timeout)
        #expect(h.initiator.pollEvent() == .failed(.timeout))
        #expect(h.initiator.pollTransmit() == nil, "no Pairing Failed after a timeout")
        // Nothing more on this link: no answer to PDUs, no new pairing.
        h.initiator.receive(SMPPDU.pairingConfirm(confirmValue: 1).encoded[...], at: deadline! + 1)
        h.initiator.start(at: deadline! + 2)
        #expect(h.initiator.pollTransmit() == nil)
        #expect(h.initiator.error == .timeout)
    }

    @Test func peerPairingFailedEndsItQuietly() {
        var p = PairingInitiator(configuration: PairingConfiguration(), localAddress: PairingHarness.initiatorAddress,
                                 peerAddress: PairingHarness.responderAddress, crypto: ScriptedCrypto())
        p.start(at: 0)
        _ = p.pollTransmit()
        p.receive(hx("05 03")[...], at: 1)
        #expect(p.error == .peerFailed(.authenticationRequirements))
        #expect(p.pollEvent() == .failed(.peerFailed(.authenticationRequirements)))
        #expect(p.pollTransmit() == nil)
        #expect("\(PairingError.peerFailed(.authenticationRequirements))".contains("Authentication Requirements (0x03)"))
    }

    @Test func securityRequestIsForTheHostOutsidePairing() {
        var p = PairingInitiator(configuration: PairingConfiguration(), localAddress: PairingHarness.initiatorAddress,
                                 peerAddress: PairingHarness.responderAddress, crypto: ScriptedCrypto())
        p.receive(hx("0b 0d")[...], at: 0)
        #expect(p.pollEvent() == .securityRequested([.bonding, .mitm, .secureConnections]))
        #expect(p.pollTransmit() == nil)
        p.start(at: 1)
        _ = p.pollTransmit()
        p.receive(hx("0b 0d")[...], at: 2)
        #expect(p.pollEvent() == nil, "ignored while pairing")
        #expect(p.isInProgress)
    }

    @Test func commandsACentralDoesNotTake() {
        var p = PairingInitiator(configuration: PairingConfiguration(), localAddress: PairingHarness.initiatorAddress,
                                 peerAddress: PairingHarness.responderAddress, crypto: ScriptedCrypto())
        p.receive(hx("01 03 00 01 10 00 00")[...], at: 0)
        #expect(p.pollTransmit() == .pairingFailed(reason: .commandNotSupported))
        p.receive(hx("2a 00")[...], at: 0)
        #expect(p.pollTransmit() == .pairingFailed(reason: .commandNotSupported))
        #expect(p.stateName == "idle")
        // Malformed while idle: dropped.
        p.receive(hx("03 00")[...], at: 0)
        #expect(p.pollTransmit() == nil)
    }

    @Test func malformedAndUnexpectedPDUsDuringPairing() {
        var p = PairingInitiator(configuration: PairingConfiguration(), localAddress: PairingHarness.initiatorAddress,
                                 peerAddress: PairingHarness.responderAddress, crypto: ScriptedCrypto())
        p.start(at: 0)
        _ = p.pollTransmit()
        p.receive(hx("02 03 00 01")[...], at: 1)
        guard case .invalidParameters? = p.error else { Issue.record("\(String(describing: p.error))"); return }
        #expect(p.pollTransmit() == .pairingFailed(reason: .invalidParameters))
        var q = PairingInitiator(configuration: PairingConfiguration(), localAddress: PairingHarness.initiatorAddress,
                                 peerAddress: PairingHarness.responderAddress, crypto: ScriptedCrypto())
        q.start(at: 0)
        _ = q.pollTransmit()
        q.receive(SMPPDU.pairingDHKeyCheck(1), at: 1)
        #expect(q.error == .unexpectedPDU(.pairingDHKeyCheck))
        #expect(q.pollTransmit() == .pairingFailed(reason: .unspecifiedReason))
    }

    @Test func keysOutOfOrderAreRefused() {
        var h = PairingHarness(configuration: PairingConfiguration(), responder: responseFeatures(.noInputNoOutput))
        h.responder.features.responderKeyDistribution = []   // the harness then distributes nothing
        h.responder.features.responderKeyDistribution = [.identityKey, .signingKey]
        // Stop before the harness delivers keys: drive by hand.
        var p = h.initiator
        var r = h.responder
        p.start(at: 0)
        var encrypted = false
        for _ in 0..<10 {
            while let pdu = p.pollTransmit() { for a in r.receive(pdu) { p.receive(a, at: 1) } }
            while let e = p.pollEvent() { if case .startEncryption = e { encrypted = true; p.encryptionChanged(keySize: 16, at: 2) } }
        }
        #expect(encrypted)
        // Signing Information before the identity keys.
        p.receive(SMPPDU.signingInformation(signatureKey: 5), at: 3)
        #expect(p.error == .unexpectedKey(.signingInformation, expected: .identityInformation, agreed: [.identityKey, .signingKey]))
        #expect(p.pollTransmit() == .pairingFailed(reason: .unspecifiedReason))
        #expect("\(p.error!)".contains("Signing Information while Identity Information was due"))
    }

    @Test func rtstackDistributesItsIdentityAndSigningKey() throws {
        let identity = LocalIdentity(irk: 0x1234, address: DeviceAddress(BDAddress(string: "C0:11:22:33:44:55")!, type: .randomDevice))
        var h = PairingHarness(configuration: PairingConfiguration(localIdentity: identity, distributesSigningKey: true),
                               responder: responseFeatures(.noInputNoOutput))
        h.run()
        let result = try #require(h.result)
        #expect(Array(h.sentCodes.suffix(3)) == [.identityInformation, .identityAddressInformation, .signingInformation])
        #expect(h.sent.contains(.identityAddressInformation(SMPIdentityAddress(addressType: 1, address: identity.address.address))))
        #expect(result.localSignatureKey != nil)
        #expect(h.sent.contains(.signingInformation(signatureKey: result.localSignatureKey!)))
    }

    @Test func withoutBondingNoKeysAreKept() throws {
        var h = PairingHarness(configuration: PairingConfiguration(bonding: false), responder: responseFeatures(.noInputNoOutput))
        h.run()
        let result = try #require(h.result)
        #expect(!result.bonded)
        #expect(result.longTermKey == nil && result.identityResolvingKey == nil)
        #expect(h.responder.request?.responderKeyDistribution == [])
    }

    @Test func throttleDoublesAndResets() {
        var t = PairingThrottle()
        let peer = PairingHarness.responderAddress
        #expect(t.retryAt(peer, now: 0) == nil)
        t.record(.failure(.confirmValueMismatch), for: peer, at: 0)
        #expect(t.retryAt(peer, now: 0) == 2_000_000_000)
        t.record(.failure(.peerFailed(.repeatedAttempts)), for: peer, at: 10_000_000_000)
        #expect(t.retryAt(peer, now: 10_000_000_000) == 14_000_000_000)
        for _ in 0..<10 { t.record(.failure(.timeout), for: peer, at: 0) }
        #expect(t.retryAt(peer, now: 0) == 64_000_000_000)
        t.record(.failure(.disconnected), for: peer, at: 0)
        #expect(t.failures(peer) == 12)
        // The initiator refuses to start while throttled, without a PDU.
        var p = PairingInitiator(configuration: PairingConfiguration(), localAddress: PairingHarness.initiatorAddress,
                                 peerAddress: peer, crypto: ScriptedCrypto())
        p.start(at: 1, throttledUntil: t.retryAt(peer, now: 1))
        #expect(p.pollTransmit() == nil)
        #expect(p.error == .repeatedAttempts(retryAt: 64_000_000_000))
        t.record(.success(PairingResult(peerAddress: peer, model: .justWorks, secureConnections: true, keySize: 16, bonded: true)), for: peer, at: 5)
        #expect(t.retryAt(peer, now: 5) == nil && t.failures(peer) == 0)
    }
}
