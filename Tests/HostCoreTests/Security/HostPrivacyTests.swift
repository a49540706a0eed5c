import Testing
import Timing
@testable import HostCore
import SecurityCrypto
import Wire

/// Privacy on the HCI backend (Docs/security.md, "Privacy"): a bonded peer behind resolvable
/// private addresses made from its IRK with Nettle's AES, recognised by the host in software
/// or by the controller's resolving list.
@Suite struct HostPrivacyTests {
    static let crypto = NettleCryptography()
    static let irk: UInt128 = 0x0123_4567_89AB_CDEF_FEDC_BA98_7654_3210
    static let identity = DeviceAddress(BDAddress(string: "00:1B:DC:07:32:EF")!, type: .publicDevice)
    static let localIRK: UInt128 = 0x5555_6666_7777_8888_9999_AAAA_BBBB_CCCC

    static var bond: BondRecord {
        BondRecord(pairing: PairingResult(
            peerAddress: rpa(0x12_3456), identityAddress: identity, longTermKey: LinkEncryptionKey(key: 7),
            identityResolvingKey: irk, model: .justWorks, secureConnections: true, keySize: 16, bonded: true))
    }

    /// A resolvable private address of `irk` (§1.3.2.2): prand's top bits 0b01, hash = ah(IRK, prand).
    static func rpa(_ random: UInt32, irk: UInt128 = irk) -> DeviceAddress {
        let prand = 0x40_0000 | random & 0x3F_FFFF
        let hash = crypto.ah(irk: irk, prand: prand)
        return DeviceAddress(BDAddress(value: UInt64(prand) << 24 | UInt64(hash)), type: .randomDevice)
    }

    /// A host with the bond, brought up; the record keeps the bring-up's commands.
    static func host(llPrivacy: Bool = false, controller: (FakeController) -> Void = { _ in })
        -> (HCIHost, FakeController) {
        let (host, fake) = makeHost({
            $0.security.crypto = crypto
            $0.security.bonds = [bond]
            $0.security.pairing.localIdentity = LocalIdentity(irk: localIRK, address: DeviceAddress(testOwnAddress, type: .randomDevice))
        }, controller: {
            if llPrivacy { $0.leFeatures.insert(.llPrivacy) }
            controller($0)
        })
        fake.bringUp()
        return (host, fake)
    }

    static func advertise(_ fake: FakeController, _ address: DeviceAddress) {
        fake.advertisingReport([LEAdvertisingReport(eventType: .advInd, addressType: address.type, address: address.address,
                                                    data: [0x02, 0x01, 0x06], rssi: -60)])
        fake.run()
    }

    static func reports(_ fake: FakeController) -> [AdvertisementReport] {
        fake.events.compactMap { if case let .advertisement(r) = $0 { return r } else { return nil } }
    }

    static func createTargets(_ fake: FakeController) -> [DeviceAddress] {
        fake.commands(LECreateConnection.self).map { DeviceAddress($0.peerAddress, type: $0.peerAddressType) }
            + fake.commands(LEExtendedCreateConnection.self).map { DeviceAddress($0.peerAddress, type: $0.peerAddressType) }
    }

    // MARK: Software resolution

    @Test("a bonded peer's RPA is reported as its identity with resolvedFrom; an RPA of another IRK is reported as it is")
    func bondedRPAIsReportedAsItsIdentity() throws {
        let (host, fake) = Self.host()
        host.startScan(ScanConfiguration(), at: 0)
        fake.run()
        let mine = Self.rpa(0x2A_0B0C)
        let stranger = Self.rpa(0x2A_0B0C, irk: 0x42)
        Self.advertise(fake, mine)
        Self.advertise(fake, stranger)
        Self.advertise(fake, mine)
        let r = Self.reports(fake)
        try #require(r.count == 3)
        #expect(r[0].address == Self.identity && r[0].resolvedFrom == mine && r[0].isResolved)
        #expect(r[1].address == stranger && r[1].resolvedFrom == nil && !r[1].isResolved)
        #expect(r[2].address == Self.identity && r[2].resolvedFrom == mine, "the cached answer is the same")
        #expect(fake.count(.leAddDeviceToResolvingList) == 0, "no LL Privacy: no resolving list")
    }

    @Test("a link to a bonded identity scans for it, connects to the RPA it advertises with, and reconnects to the RPA last seen")
    func linkToIdentityConnectsToItsRPA() throws {
        let (host, fake) = Self.host()
        var plan = LinkPlan.noGATT
        plan.reconnect = Backoff.linkReconnect
        let id = host.connect(to: Self.identity, plan: plan, at: 0)
        fake.run()
        #expect(Self.createTargets(fake).isEmpty, "nothing to connect to before the peer is seen")
        #expect(fake.scanning, "the host scans for the peer's current address")
        #expect(host.state(of: id) == .initiating)
        #expect(Self.reports(fake).isEmpty)

        Self.advertise(fake, Self.rpa(0x01_0101, irk: 0x42))
        #expect(Self.createTargets(fake).isEmpty, "a stranger's RPA does not start the connection")
        let first = Self.rpa(0x11_1111)
        Self.advertise(fake, first)
        #expect(Self.createTargets(fake) == [first])
        fake.connectionComplete(peer: first, handle: 0x40)
        fake.run()
        #expect(host.state(of: id) == .ready)
        #expect(!fake.scanning, "the scan for the peer ends with the wait")

        fake.disconnectionComplete(handle: 0x40, reason: .connectionTimeout)
        fake.run()
        host.advanceTime(to: HostDuration.seconds(5))
        fake.run()
        #expect(Self.createTargets(fake) == [first, first], "the RPA last seen is tried at once")
    }

    @Test("an attempt to an RPA that times out forgets it: the next attempt waits for the peer's new RPA")
    func timedOutRPAIsForgotten() throws {
        let (host, fake) = Self.host()
        var plan = LinkPlan.noGATT
        plan.reconnect = Backoff.linkReconnect
        plan.connectTimeout = HostDuration.seconds(2)
        let id = host.connect(to: Self.identity, plan: plan, at: 0)
        fake.run()
        let old = Self.rpa(0x22_2222)
        Self.advertise(fake, old)
        #expect(Self.createTargets(fake) == [old])
        fake.clearRecord()
        for s in 1...20 {
            fake.now = HostDuration.seconds(UInt64(s))
            host.advanceTime(to: fake.now)
            fake.run()
        }
        #expect(Self.createTargets(fake).isEmpty, "no second attempt to the old RPA")
        #expect(host.state(of: id) == .initiating, "waiting for the peer")
        let new = Self.rpa(0x33_3333)
        Self.advertise(fake, new)
        #expect(Self.createTargets(fake) == [new])
    }

    @Test("a bonded peer that advertises with its identity address is connected to at that address")
    func identityAdvertisedAsItself() {
        let (host, fake) = Self.host()
        let id = host.connect(to: Self.identity, plan: .noGATT, at: 0)
        fake.run()
        Self.advertise(fake, Self.identity)
        #expect(Self.createTargets(fake) == [Self.identity])
        fake.connectionComplete(peer: Self.identity, handle: 0x41)
        fake.run()
        #expect(host.state(of: id) == .ready)
    }

    @Test("a link that never sees its peer fails with a connect timeout after the plan's")
    func waitingLinkTimesOut() {
        let (host, fake) = Self.host()
        var plan = LinkPlan.noGATT
        plan.connectTimeout = HostDuration.seconds(3)
        let id = host.connect(to: Self.identity, plan: plan, at: 0)
        fake.run()
        host.advanceTime(to: HostDuration.seconds(3))
        fake.run()
        let failed = fake.events.contains { if case .connectFailed(id, .connectTimeout(Self.identity), _) = $0 { return true }; return false }
        #expect(failed, "\(fake.events)")
        #expect(host.state(of: id) == .disconnected)
        #expect(!fake.scanning)
    }

    // MARK: The controller's resolving list

    @Test("with LL Privacy and the commands, the bonds' IRKs go to the resolving list in Device Privacy Mode and a link goes to the identity address type")
    func resolvingListLoaded() throws {
        let (host, fake) = Self.host(llPrivacy: true)
        let privacy: [HCIOpcode] = [.leClearResolvingList, .leAddDeviceToResolvingList, .leSetPrivacyMode, .leSetAddressResolutionEnable]
        #expect(fake.opcodes.filter(privacy.contains) == privacy)
        let add = try #require(fake.commands(LEAddDeviceToResolvingList.self).first)
        #expect(add.peerIdentity == Self.identity && add.peerIRK == Self.irk && add.localIRK == Self.localIRK)
        #expect(fake.commands(LESetPrivacyMode.self).first?.devicePrivacy == true)
        #expect(fake.commands(LESetAddressResolutionEnable.self).map(\.enable) == [true])

        let id = host.connect(to: Self.identity, plan: .noGATT, at: 0)
        fake.run()
        let resolvedIdentity = DeviceAddress(Self.identity.address, type: .publicIdentity)
        #expect(Self.createTargets(fake) == [resolvedIdentity], "the controller finds the RPA itself")
        fake.connectionComplete(peer: resolvedIdentity, handle: 0x42, kind: .enhancedV1)
        fake.run()
        #expect(host.state(of: id) == .ready)
    }

    @Test("with the resolving list, a bonded peer goes on the Filter Accept List by its identity address, beside another link")
    func acceptListEntryOfAResolvedPeerIsItsIdentity() {
        let (host, fake) = Self.host(llPrivacy: true, controller: {
            $0.leFeatures = [.llPrivacy]
            $0.filterAcceptListSize = 8
        })
        fake.run()
        let bonded = host.connect(to: Self.identity, plan: .noGATT, at: 0)
        let other = host.connect(to: peer(2), plan: .noGATT, at: 0)
        fake.run()
        // The list's address types are public or random (§7.8.16); the controller resolves the
        // peer's RPAs against the identity through the resolving list.
        #expect(fake.acceptList == [Self.identity, peer(2)])
        #expect(fake.pulledHost.initiatingConnections == [bonded, other])
        fake.connectionComplete(peer: DeviceAddress(Self.identity.address, type: .publicIdentity), handle: 0x42,
                                kind: .enhancedV1)
        fake.run()
        #expect(host.state(of: bonded) == .ready)
        #expect(fake.pulledHost.initiatingConnections == [other])
        #expect(fake.violations.isEmpty)
    }

    @Test("the resolving list is not used without LL Privacy or without LE Set Privacy Mode", arguments: [false, true])
    func resolvingListNeedsFeatureAndCommands(feature: Bool) {
        // Every command but LE Set Privacy Mode with the feature; every command without it.
        let (_, fake) = Self.host(llPrivacy: feature) {
            guard feature, let bit = HCISupportedCommands.position(of: .leSetPrivacyMode) else { return }
            $0.supportedCommands[bit.octet] &= ~(1 << UInt8(bit.bit))
        }
        #expect(fake.count(.leClearResolvingList) == 0 && fake.count(.leAddDeviceToResolvingList) == 0
            && fake.count(.leSetAddressResolutionEnable) == 0)
    }

    @Test("a resolving-list command that fails switches address resolution off, with a warning, and the host resolves in software")
    func resolvingListFailureFallsBack() {
        let (host, fake) = Self.host(llPrivacy: true) {
            $0.answers[.leSetPrivacyMode] = .status(.unsupportedFeatureOrParameterValue)
        }
        #expect(fake.hasWarning(containing: "LE Set Privacy Mode failed"), "\(fake.events)")
        #expect(fake.commands(LESetAddressResolutionEnable.self).map(\.enable) == [true, false], "switched off again")

        host.connect(to: Self.identity, plan: .noGATT, at: 0)
        fake.run()
        #expect(Self.createTargets(fake).isEmpty, "not to the identity address type: the host waits for the RPA")
        let rpa = Self.rpa(0x44_4444)
        Self.advertise(fake, rpa)
        #expect(Self.createTargets(fake) == [rpa])
        #expect(Self.reports(fake).first?.resolvedFrom == rpa)
    }
}
