import Testing
import Timing
@testable import HostCore
import SecurityCrypto
import Wire

/// The HCI host driving security end to end against a peripheral's Security Manager written
/// from the specification (`ScriptedResponder` behind `SMPPeer`), a fake controller that
/// encrypts, and a GATT server that refuses what needs security (Docs/security.md, "How the
/// host drives it").
@Suite struct HostSecurityTests {
    static let bodySensorLocation: UInt16 = 0x0011
    static let heartRateMeasurement = BluetoothUUID(0x2A37)

    /// A world with one heart-rate peer whose Security Manager answers with `features`.
    static func world(_ features: SMPPairingFeatures = responseFeatures(.noInputNoOutput),
                      security configure: (inout SecuritySettings) -> Void = { _ in })
        -> (HostGATTWorld, HostGATTWorld.Peer, SMPPeer) {
        let world = HostGATTWorld(security: configure)
        let p = world.addPeer(1, GATTFixtures.heartRateServer())
        let smp = SMPPeer(features: features, address: p.address)
        smp.attach(to: p)
        return (world, p, smp)
    }

    static func reconnectingPlan(subscribe: Bool = true) -> LinkPlan {
        var plan = LinkPlan()
        plan.subscriptions = subscribe ? [Subscription(characteristic: heartRateMeasurement)] : []
        plan.reconnect = Backoff.linkReconnect
        return plan
    }

    /// Answers every prompt the way the user would (the peer's passkey, numbers match).
    static func answerPrompts(_ world: HostGATTWorld, _ link: LinkID, passkey: UInt32, from index: inout Int) {
        while index < world.fake.prompts.count {
            let prompt = world.fake.prompts[index]
            index += 1
            switch prompt {
            case .enterPasskey: world.host.answerPairing(link, .passkey(passkey), at: world.now)
            case .confirmNumber: world.host.answerPairing(link, .numbersMatch(true), at: world.now)
            case .displayPasskey: continue
            }
            world.settle()
        }
    }

    // MARK: Bonds and reconnection

    @Test("a bonded peer is re-encrypted with its LTK before its cached database is trusted and before subscriptions are written; no pairing again")
    func bondedReconnectEncryptsFirst() throws {
        let (world, p, smp) = Self.world()
        let id = world.connect(p, plan: Self.reconnectingPlan())
        #expect(world.host.state(of: id) == .ready)
        world.host.secure(id, SecurityNeed(level: .medium), at: world.now)
        world.settle()
        let bond = try #require(world.fake.storedBonds.first, "\(world.fake.securityEvents)")
        #expect(bond.address == smp.responder?.identity, "filed under the identity the peer distributed")
        #expect(bond.pairing.longTermKey?.key == smp.responder?.derivedLTK)
        #expect(bond.pairing.identityResolvingKey == smp.responder?.irk)
        #expect(world.host.bonds.map(\.address) == [bond.address])

        world.clearRecord()
        smp.newConnection()
        world.drop(p)
        world.advance(by: HostDuration.seconds(1))
        #expect(world.host.state(of: id) == .ready, "\(world.fake.events)")
        #expect(smp.pairings == 1, "no second pairing")
        #expect(smp.encryptions.last == bond.pairing.longTermKey?.key)
        #expect(world.fake.count(.readEncryptionKeySize) == 1, "Encryption Change v1: the key size is read")
        let opcodes = world.fake.opcodes
        let features = try #require(opcodes.firstIndex(of: .leReadRemoteFeatures))
        #expect(features < (opcodes.firstIndex(of: .leEnableEncryption) ?? -1), "the features are exchanged before encrypting")
        let events = world.fake.events
        let encrypted = try #require(events.firstIndex { if case .security(_, .encrypted(_, 16, true)) = $0 { return true }; return false })
        let cached = try #require(events.firstIndex { if case .databaseReady(_, _, true) = $0 { return true }; return false })
        let subscribed = try #require(events.firstIndex { if case .subscribed = $0 { return true }; return false })
        #expect(encrypted < cached && cached < subscribed)
        // The first ATT request of the second connection came after the encryption.
        #expect(p.requestsThisConnection.first == .readByTypeRequest, "the Database Hash read opens the connection")
        #expect(world.problems.isEmpty, "\(world.problems)")
    }

    @Test("once Encryption Change says the link is encrypted, a signed write goes as Write Without Response (Vol 3, Part G, §4.9.2)")
    func signedWriteUnsignedOnceEncrypted() throws {
        let (world, p, _) = Self.world()
        let id = world.connect(p, plan: Self.reconnectingPlan(subscribe: false))
        world.host.secure(id, SecurityNeed(level: .medium), at: world.now)
        world.settle()
        let write = ATTSignedWrite(handle: Self.bodySensorLocation, value: [0x01], authenticationSignature: ArraySlice(1...12))
        let op = world.perform(.signedWrite(write), on: id)
        guard case .success(.done)? = world.fake.result(op) else {
            Issue.record("\(String(describing: world.fake.result(op)))")
            return
        }
        #expect(p.server.received.last == [0x52, 0x11, 0x00, 0x01])
        #expect(world.fake.hasWarning(containing: "signed writes go as Write Without Response"))
    }

    @Test("PIN or Key Missing on re-encryption: the bond is removed, the cache is not trusted, discovery runs, the link goes on unencrypted")
    func lostBondIsRemoved() throws {
        let (world, p, smp) = Self.world()
        let id = world.connect(p, plan: Self.reconnectingPlan())
        world.host.secure(id, SecurityNeed(level: .medium), at: world.now)
        world.settle()
        let bond = try #require(world.fake.storedBonds.first)
        world.clearRecord()
        smp.newConnection()
        world.fake.encryptionChangeStatus = .pinOrKeyMissing
        world.drop(p)
        world.advance(by: HostDuration.seconds(1))
        #expect(world.host.state(of: id) == .ready)
        #expect(world.fake.securityFailures == [.keyMissing])
        #expect(world.fake.securityEvents.contains { if case .bondRemoved(bond.address) = $0.1 { return true }; return false })
        #expect(world.host.bonds.isEmpty)
        #expect(world.fake.databases(id).map(\.fromCache) == [false], "rediscovered")
        #expect(world.fake.hasWarning(containing: "cached database is not used"))
        #expect(smp.pairings == 1, "at security low nothing forces a new pairing")
    }

    @Test("the key size the controller reports must be the bond's: a shorter one fails and the cache is not trusted")
    func shortKeyOnReencryption() throws {
        let (world, p, smp) = Self.world()
        let id = world.connect(p, plan: Self.reconnectingPlan())
        world.host.secure(id, SecurityNeed(level: .medium), at: world.now)
        world.settle()
        world.clearRecord()
        smp.newConnection()
        world.fake.encryptionChangeV2 = true
        world.fake.encryptionKeySize = 7
        world.drop(p)
        world.advance(by: HostDuration.seconds(1))
        #expect(world.fake.securityFailures == [.keySize(7, needed: 16)])
        #expect(world.fake.count(.readEncryptionKeySize) == 0, "v2 carries the key size")
        #expect(world.fake.databases(id).map(\.fromCache) == [false])
        #expect(world.host.bonds.count == 1, "a short key is no reason to forget the bond")
    }

    // MARK: Automatic security (BlueZ unit/test-gatt.c, the "auto" cases)

    @Test("Insufficient Encryption: pair (Just Works), then the same Read Request once more, which succeeds")
    func insufficientEncryptionPairsAndRetries() throws {
        let (world, p, smp) = Self.world()
        smp.untilEncrypted[Self.bodySensorLocation] = .insufficientEncryption
        smp.newConnection()
        let id = world.connect(p, plan: .noGATT)
        let op = world.perform(.read(handle: Self.bodySensorLocation), on: id)
        guard case .success(.value(let v))? = world.fake.result(op) else {
            Issue.record("\(String(describing: world.fake.result(op))) \(world.fake.securityEvents)")
            return
        }
        #expect(v == [0x01])
        #expect(p.server.requests == [.readRequest, .readRequest])
        #expect(smp.pairings == 1)
        #expect(world.fake.encryptedLevels == [.medium])
    }

    @Test("Insufficient Authentication without a way to authenticate: one Just Works pairing, one retry, then the peer's error stands")
    func insufficientAuthenticationRetriedOnce() throws {
        let (world, p, smp) = Self.world(responseFeatures(.keyboardDisplay)) { $0.pairing.ioCapability = .noInputNoOutput }
        smp.untilAuthenticated[Self.bodySensorLocation] = .insufficientAuthentication
        smp.newConnection()
        let id = world.connect(p, plan: .noGATT)
        let op = world.perform(.read(handle: Self.bodySensorLocation), on: id)
        #expect(world.fake.result(op).map { if case .failure(.att(error: 0x05, request: 0x0A, handle: Self.bodySensorLocation)) = $0 { true } else { false } } == true,
                "\(String(describing: world.fake.result(op)))")
        #expect(p.server.requests == [.readRequest, .readRequest], "sent again once, not twice")
        #expect(smp.pairings == 1)
        #expect(world.fake.encryptedLevels == [.medium])
    }

    @Test("Insufficient Authentication on an unauthenticated link asks for the next level: high, with Passkey Entry (the peer displays)")
    func insufficientAuthenticationRaisesToHigh() throws {
        let (world, p, smp) = Self.world(responseFeatures(.displayOnly, [.bonding, .mitm, .secureConnections])) {
            $0.pairing.ioCapability = .keyboardDisplay
        }
        smp.untilAuthenticated[Self.bodySensorLocation] = .insufficientAuthentication
        smp.newConnection()
        let id = world.connect(p, plan: .noGATT)
        let op = world.perform(.read(handle: Self.bodySensorLocation), on: id)
        var prompts = 0
        Self.answerPrompts(world, id, passkey: smp.passkey, from: &prompts)
        #expect(world.fake.prompts == [.enterPasskey])
        guard case .success(.value([0x01]))? = world.fake.result(op) else {
            Issue.record("\(String(describing: world.fake.result(op))) \(world.fake.securityEvents)")
            return
        }
        #expect(world.fake.encryptedLevels == [.fips], "authenticated Secure Connections with a 16-octet key")
    }

    @Test("Encryption Key Size Too Short: a new pairing with the full key, then the request again")
    func keySizeTooShortPairsAnew() throws {
        let (world, p, smp) = Self.world(responseFeatures(.noInputNoOutput, keySize: 10))
        let id = world.connect(p, plan: .noGATT)
        world.host.secure(id, SecurityNeed(level: .medium), at: world.now)
        world.settle()
        #expect(world.fake.encryptedLevels == [.medium])
        p.server.handleErrors[Self.bodySensorLocation] = .encryptionKeySizeTooShort
        smp.features = responseFeatures(.noInputNoOutput)
        smp.untilEncrypted[Self.bodySensorLocation] = .encryptionKeySizeTooShort
        let op = world.perform(.read(handle: Self.bodySensorLocation), on: id)
        #expect(smp.pairings == 2)
        guard case .success? = world.fake.result(op) else {
            Issue.record("\(String(describing: world.fake.result(op)))")
            return
        }
        #expect(world.fake.storedBonds.last?.pairing.keySize == 16)
    }

    // MARK: The level a link must have

    @Test("--security high with an agent: the plan waits for pairing (the peer displays, the user types), then runs")
    func requiredLevelHoldsThePlan() throws {
        let (world, p, smp) = Self.world(responseFeatures(.displayOnly, [.bonding, .mitm, .secureConnections])) {
            $0.level = .high
            $0.pairing.ioCapability = .keyboardOnly
        }
        let id = world.connect(p, plan: Self.reconnectingPlan())
        #expect(p.server.requests.isEmpty, "no ATT before the link is secure")
        #expect(world.host.state(of: id) == .connected)
        var prompts = 0
        Self.answerPrompts(world, id, passkey: smp.passkey, from: &prompts)
        #expect(world.host.state(of: id) == .ready)
        let paired = world.fake.securityEvents.compactMap { if case let .paired(r) = $0.1 { return r } else { return nil } }
        #expect(paired.first?.model == .passkeyEntry(.responderDisplays))
        #expect(p.server.requests.first == .exchangeMTURequest)
    }

    @Test("--security high with NoInputNoOutput: Authentication Requirements before any key, the link is closed")
    func requiredLevelUnreachableClosesTheLink() throws {
        let (world, p, _) = Self.world(responseFeatures(.noInputNoOutput)) {
            $0.level = .high
            $0.pairing.ioCapability = .noInputNoOutput
        }
        let id = world.connect(p, plan: .noGATT)
        guard case .pairing(.authenticationRequirements)? = world.fake.securityFailures.first else {
            Issue.record("\(world.fake.securityEvents)")
            return
        }
        #expect(world.fake.disconnections.first?.0 == id)
        #expect(p.server.requests.isEmpty)
        #expect(p.otherFrames.last?.1 == [0x05, 0x03], "Pairing Failed, Authentication Requirements")
    }

    @Test("the SMP timer: no answer for 30 s fails the pairing, and a link that must be secure is closed")
    func smpTimeout() throws {
        let (world, p, smp) = Self.world { $0.level = .medium }
        smp.misbehaviour = .silentAfterResponse
        let id = world.connect(p, plan: .noGATT)
        #expect(world.fake.securityFailures.isEmpty)
        world.advance(by: HostDuration.seconds(29))
        #expect(world.fake.securityFailures.isEmpty)
        world.advance(by: HostDuration.seconds(2))
        #expect(world.fake.securityFailures == [.pairing(.timeout)])
        #expect(world.fake.disconnections.first?.0 == id)
    }

    // MARK: The peer's side

    @Test("a Security Request from the peripheral starts pairing; with a bond that meets it, encryption instead")
    func securityRequest() throws {
        let (world, p, smp) = Self.world()
        let id = world.connect(p, plan: Self.reconnectingPlan(subscribe: false))
        world.send(p, channel: 0x0006, smp.securityRequest([.bonding]))
        #expect(smp.pairings == 1)
        #expect(world.fake.encryptedLevels == [.medium])
        smp.newConnection()
        world.drop(p)
        world.advance(by: HostDuration.seconds(1))
        #expect(world.host.state(of: id) == .ready)
        world.send(p, channel: 0x0006, smp.securityRequest([.bonding]))
        #expect(smp.pairings == 1, "already encrypted with the bond: nothing to do")
        #expect(smp.encryptions.count == 2)
    }

    @Test("LE Long Term Key Request (a peripheral's event) is answered with the Negative Reply")
    func longTermKeyRequestRefused() {
        let (world, p, _) = Self.world()
        world.connect(p, plan: .noGATT)
        let handle = p.handle ?? 0
        world.fake.emitLE(.longTermKeyRequest(LELongTermKeyRequestEvent(connectionHandle: handle, randomNumber: 1,
                                                                        encryptedDiversifier: 2)))
        world.settle()
        #expect(world.fake.commands(LELongTermKeyRequestNegativeReply.self).map(\.connectionHandle) == [handle])
    }

    /// A connected link, and the controller's one command credit taken by an LE Connection
    /// Update it holds (until `release(.leConnectionUpdate)`).
    static func creditSpent() throws -> (world: HostGATTWorld, handle: UInt16) {
        let (world, p, _) = Self.world()
        let link = world.connect(p, plan: .noGATT)
        world.fake.answers[.leConnectionUpdate] = .held
        try world.host.updateConnection(link, to: ConnectionParameters(intervalMin: 6, intervalMax: 12, latency: 0,
                                                                       supervisionTimeout: 300), at: world.now)
        world.settle()
        #expect(world.fake.held.map(\.opcode) == [.leConnectionUpdate])
        return (world, p.handle ?? 0)
    }

    /// A controller whose one command credit is taken by a held command, repeating its request:
    /// the host answers once when the credit comes back, not once per request (found by the
    /// host fuzzer: the queue grew by one Negative Reply per event).
    @Test("repeated LE Long Term Key Requests while commands wait queue one Negative Reply")
    func repeatedLongTermKeyRequestsQueueOneNegativeReply() throws {
        let (world, handle) = try Self.creditSpent()
        for _ in 0..<5 {
            world.fake.emitLE(.longTermKeyRequest(LELongTermKeyRequestEvent(connectionHandle: handle, randomNumber: 1,
                                                                            encryptedDiversifier: 2)))
            world.settle()
        }
        #expect(world.fake.commands(LELongTermKeyRequestNegativeReply.self).isEmpty, "no credit: nothing sent yet")
        world.fake.release(.leConnectionUpdate)
        world.settle()
        #expect(world.fake.commands(LELongTermKeyRequestNegativeReply.self).map(\.connectionHandle) == [handle])
        #expect(world.fake.violations.isEmpty)
    }

    @Test("Encryption Change repeated while the host's command credits are spent: one Read Encryption Key Size waits, not one per event")
    func repeatedEncryptionChangesQueueOneKeySizeRead() throws {
        let (world, handle) = try Self.creditSpent()
        for _ in 0..<5 {
            world.fake.emit(.encryptionChangeV1(EncryptionChangeV1Event(connectionHandle: handle, encryptionEnabled: .on)))
            world.settle()
        }
        #expect(world.fake.commands(ReadEncryptionKeySize.self).isEmpty, "no credit: nothing sent yet")
        world.fake.release(.leConnectionUpdate)
        world.settle()
        #expect(world.fake.commands(ReadEncryptionKeySize.self).map(\.connectionHandle) == [handle])
        #expect(world.fake.violations.isEmpty)
    }

    // MARK: Hostile peers and the throttle

    @Test("an invalid public key is refused by name (invalidPublicKey, DHKey Check Failed sent)")
    func invalidPublicKey() {
        let (world, p, smp) = Self.world()
        smp.misbehaviour = .invalidPublicKey
        let id = world.connect(p, plan: .noGATT)
        world.host.secure(id, SecurityNeed(level: .medium), at: world.now)
        world.settle()
        #expect(world.fake.securityFailures == [.pairing(.invalidPublicKey)])
        #expect(p.otherFrames.last?.1 == [0x05, 0x0B], "Pairing Failed, DHKey Check Failed")
        #expect(world.host.state(of: id) == .ready, "security low: the link goes on")
    }

    @Test("after a failed pairing the next attempt within 2 s is refused at once (Repeated Attempts), later allowed")
    func throttle() {
        let (world, p, smp) = Self.world()
        smp.misbehaviour = .wrongConfirm
        let id = world.connect(p, plan: .noGATT)
        world.host.secure(id, SecurityNeed(level: .medium), at: world.now)
        world.settle()
        #expect(world.fake.securityFailures == [.pairing(.confirmValueMismatch)])
        world.host.secure(id, SecurityNeed(level: .medium), at: world.now)
        world.settle()
        guard case .pairing(.repeatedAttempts)? = world.fake.securityFailures.last else {
            Issue.record("\(world.fake.securityFailures)")
            return
        }
        #expect(smp.pairings == 1)
        smp.misbehaviour = .none
        world.advance(by: HostDuration.seconds(3))
        world.host.secure(id, SecurityNeed(level: .medium), at: world.now)
        world.settle()
        #expect(smp.pairings == 2)
        #expect(world.fake.encryptedLevels == [.medium])
    }

    // MARK: Prompts

    @Test("Numeric Comparison: the number is shown and confirmed through the host")
    func numericComparison() {
        let (world, p, smp) = Self.world(responseFeatures(.displayYesNo, [.bonding, .mitm, .secureConnections])) {
            $0.pairing.ioCapability = .displayYesNo
        }
        let id = world.connect(p, plan: .noGATT)
        world.host.secure(id, SecurityNeed(level: .high), at: world.now)
        world.settle()
        var prompts = 0
        Self.answerPrompts(world, id, passkey: 0, from: &prompts)
        guard case .confirmNumber(let n)? = world.fake.prompts.first else {
            Issue.record("\(world.fake.prompts)")
            return
        }
        #expect(n <= 999_999)
        #expect(world.fake.encryptedLevels == [.fips])
        _ = smp
    }

    @Test("Passkey Entry with rtstack displaying: the passkey is shown, the peer's user types it")
    func rtstackDisplaysThePasskey() {
        let (world, p, smp) = Self.world(responseFeatures(.keyboardOnly, [.bonding, .mitm, .secureConnections])) {
            $0.pairing.ioCapability = .keyboardDisplay
        }
        smp.passkeyShown = { [unowned world] in
            for case let .displayPasskey(n) in world.fake.prompts { return n }
            return nil
        }
        let id = world.connect(p, plan: .noGATT)
        world.host.secure(id, SecurityNeed(level: .high), at: world.now)
        world.settle()
        guard case .displayPasskey? = world.fake.prompts.first else {
            Issue.record("\(world.fake.prompts) \(world.fake.securityEvents)")
            return
        }
        #expect(world.fake.encryptedLevels == [.fips], "\(world.fake.securityFailures)")
    }

    @Test("the user rejects the numbers: Numeric Comparison Failed, nothing stored")
    func numbersRejected() {
        let (world, p, _) = Self.world(responseFeatures(.displayYesNo, [.bonding, .mitm, .secureConnections])) {
            $0.pairing.ioCapability = .displayYesNo
        }
        let id = world.connect(p, plan: .noGATT)
        world.host.secure(id, SecurityNeed(level: .high), at: world.now)
        world.settle()
        world.host.answerPairing(id, .numbersMatch(false), at: world.now)
        world.settle()
        #expect(world.fake.securityFailures == [.pairing(.numericComparisonRejected)])
        #expect(world.fake.storedBonds.isEmpty)
    }
}
