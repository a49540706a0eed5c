import Testing
import HostCore
import Wire

/// Phase 3 when the peer distributes at once (issue 17 §1): a real peripheral sends its keys
/// in the first connection events after encryption, before the Command Complete of HCI Read
/// Encryption Key Size when the UART is slow or the controller busy. The keys the negotiated
/// distribution allows are taken in the order of Vol 3, Part H, §3.6.1 from Encryption Change
/// on; rtstack's own keys wait for the key size.
@Suite struct PairingKeyDistributionTests {
    static let identity = LocalIdentity(irk: 0x1234, address: DeviceAddress(BDAddress(string: "C0:11:22:33:44:55")!, type: .randomDevice))

    @Test("legacy Just Works: the peer's LTK, EDIV/Rand, IRK, identity and CSRK before the key size are all kept; rtstack's keys follow the key size")
    func legacyKeysBeforeTheKeySize() throws {
        var h = PairingHarness(configuration: PairingConfiguration(localIdentity: Self.identity, distributesSigningKey: true),
                               responder: responseFeatures(.noInputNoOutput, [.bonding]))
        h.keySizeAfterKeys = true
        h.run()
        let result = try #require(h.result, "\(String(describing: h.error))")
        #expect(h.stateBeforeKeySize == "distributing keys")
        #expect(h.sentBeforeKeySize.isEmpty, "nothing of rtstack's before the key size is checked")
        #expect(Array(h.sentCodes.suffix(3)) == [.identityInformation, .identityAddressInformation, .signingInformation])
        #expect(result.longTermKey == LinkEncryptionKey(key: h.responder.ltk, ediv: h.responder.ediv, rand: h.responder.rand, keySize: 16))
        #expect(result.identityAddress == h.responder.identity && result.identityResolvingKey == h.responder.irk)
        #expect(result.peerSignatureKey == h.responder.csrk)
    }

    @Test("LE Secure Connections Passkey Entry (MITM), the peer distributing IdKey only: its IRK and identity before the key size are kept")
    func secureConnectionsIdentityBeforeTheKeySize() throws {
        let config = PairingConfiguration(ioCapability: .keyboardDisplay, securityLevel: .high)
        var h = PairingHarness(configuration: config,
                               responder: responseFeatures(.displayOnly, [.bonding, .mitm, .secureConnections], responderKeys: [.identityKey]))
        h.keySizeAfterKeys = true
        h.run()
        let result = try #require(h.result, "\(String(describing: h.error))")
        #expect(result.model == .passkeyEntry(.responderDisplays) && result.securityLevel == .fips)
        #expect(result.identityAddress == h.responder.identity && result.identityResolvingKey == h.responder.irk)
        #expect(result.longTermKey?.key == h.responder.derivedLTK)
        #expect(!h.sentCodes.contains(.pairingFailed))
    }

    @Test("a key size read too short after the peer's keys: Encryption Key Size, and rtstack's own keys are never sent")
    func shortKeySizeAfterTheKeys() {
        var h = PairingHarness(configuration: PairingConfiguration(localIdentity: Self.identity, distributesSigningKey: true),
                               responder: responseFeatures(.noInputNoOutput, [.bonding]))
        h.keySizeAfterKeys = true
        h.controllerKeySize = 7
        h.run()
        #expect(h.error == .encryptionKeySize(7) && h.sentFailure == .encryptionKeySize)
        #expect(!h.sentCodes.contains(.identityInformation) && !h.sentCodes.contains(.signingInformation))
    }

    @Test("a key the negotiated distribution does not include (Encryption Information in Secure Connections) gets Pairing Failed naming it")
    func keyOutsideTheDistribution() throws {
        var p = Self.encryptedWithKeySizePending(responseFeatures(.noInputNoOutput, responderKeys: [.encryptionKey, .identityKey]))
        #expect(p.stateName == "distributing keys")
        p.receive(SMPPDU.encryptionInformation(longTermKey: 7), at: 3)
        #expect(p.error == .unexpectedKey(.encryptionInformation, expected: .identityInformation, agreed: [.identityKey]))
        #expect(p.pollTransmit() == .pairingFailed(reason: .unspecifiedReason))
        let text = "\(try #require(p.error))"
        #expect(text.contains("Encryption Information (EncKey), a key the pairing did not agree on (the peer's keys: IdKey)"), "\(text)")
    }

    @Test("a key sent twice after all the agreed keys came is refused by name")
    func keyAfterAllKeys() throws {
        var p = Self.encryptedWithKeySizePending(responseFeatures(.noInputNoOutput, responderKeys: [.signingKey]))
        p.receive(SMPPDU.signingInformation(signatureKey: 5), at: 3)
        #expect(p.error == nil && p.stateName == "distributing keys", "waits for the key size")
        p.receive(SMPPDU.signingInformation(signatureKey: 6), at: 3)
        #expect(p.error == .unexpectedKey(.signingInformation, expected: nil, agreed: [.signingKey]))
        #expect("\(try #require(p.error))".contains("again after all its keys"))
    }

    /// A Secure Connections Just Works pairing driven up to Encryption Change, the key size
    /// not yet known.
    static func encryptedWithKeySizePending(_ features: SMPPairingFeatures) -> PairingInitiator {
        let h = PairingHarness(configuration: PairingConfiguration(), responder: features)
        var p = h.initiator
        var r = h.responder
        p.start(at: 0)
        for _ in 0..<10 {
            while let pdu = p.pollTransmit() { for a in r.receive(pdu) { p.receive(a, at: 1) } }
            while let e = p.pollEvent() { if case .startEncryption = e { p.encryptionChanged(keySize: nil, at: 2) } }
        }
        return p
    }
}
