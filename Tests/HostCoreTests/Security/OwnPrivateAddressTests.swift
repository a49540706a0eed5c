import Testing
@testable import HostCore
import SecurityCrypto
import Wire

/// rtstack's own resolvable private address (Core Spec v5.4 Vol 6, Part B, §1.3.2.2; Docs/
/// security.md, "Own address: resolvable private"): made from the local IRK with Nettle's
/// AES, set at bring-up, rotated with the scan paused and never under a pending create
/// (LE Set Random Address is Command Disallowed while scanning or initiating, Vol 4, Part E,
/// §7.8.4, which the fake controller enforces and counts as a violation).
@Suite struct OwnPrivateAddressTests {
    static let crypto = NettleCryptography()
    static let localIRK: UInt128 = 0x0F1E_2D3C_4B5A_6978_8796_A5B4_C3D2_E1F0
    static let rotation = HostDuration.seconds(60)

    static func host(irk: UInt128? = localIRK) -> (HCIHost, FakeController) {
        let (host, fake) = makeHost {
            $0.ownAddress = .resolvablePrivate(rotation: rotation)
            $0.security.crypto = crypto
            if let irk {
                $0.security.pairing.localIdentity = LocalIdentity(irk: irk, address: DeviceAddress(testOwnAddress, type: .randomDevice))
            }
        }
        fake.bringUp()
        return (host, fake)
    }

    /// Whether `address` is an RPA that `irk` resolves: top bits 0b01, hash = ah(IRK, prand).
    static func resolves(_ address: BDAddress, irk: UInt128 = localIRK) -> Bool {
        guard let parts = address.resolvablePrivateParts, address.isValidRandomAddress else { return false }
        return crypto.ah(irk: irk, prand: parts.prand) == parts.hash
    }

    static func setAddresses(_ fake: FakeController) -> [BDAddress] {
        fake.commands(LESetRandomAddress.self).map(\.randomAddress)
    }

    /// Advances the host and the fake to `time`, answering what it sends.
    static func advance(_ host: HCIHost, _ fake: FakeController, to time: HostTime) {
        fake.now = time
        host.advanceTime(to: time)
        fake.run()
    }

    @Test("bring-up sets a resolvable private address the local IRK resolves, and scans and connects with Own_Address_Type random")
    func bringUpSetsAnRPA() throws {
        let (host, fake) = Self.host()
        let set = Self.setAddresses(fake)
        try #require(set.count == 1)
        #expect(set[0].randomKind == .resolvablePrivate)
        #expect(Self.resolves(set[0]))
        #expect(!Self.resolves(set[0], irk: 0x42), "another IRK does not resolve it")
        #expect(host.controllerInfo?.ownAddress == DeviceAddress(set[0], type: .randomDevice))
        #expect(host.nextDeadline == Self.rotation, "the next address is due one interval after bring-up")
        host.startScan(ScanConfiguration(), at: 0)
        fake.run()
        #expect(fake.commands(LESetExtendedScanParameters.self).last?.ownAddressType == .randomDevice)
        #expect(fake.violations.isEmpty)
    }

    @Test("without a local IRK bring-up fails and says what is missing")
    func noIRKFailsBringUp() {
        let (host, fake) = Self.host(irk: nil)
        #expect(host.hasFailed)
        guard case let .controllerFailed(error)? = fake.events.last else {
            Issue.record("last event is not controllerFailed: \(fake.events)")
            return
        }
        #expect("\(error)".contains("IRK"))
        #expect(Self.setAddresses(fake).isEmpty)
    }

    @Test("after the rotation interval a new RPA is set with the scan disabled around it, and the scan comes back")
    func rotationPausesTheScan() throws {
        let (host, fake) = Self.host()
        let first = try #require(Self.setAddresses(fake).first)
        host.startScan(ScanConfiguration(), at: 0)
        fake.run()
        #expect(host.isScanning)
        fake.clearRecord()

        Self.advance(host, fake, to: Self.rotation - 1)
        #expect(fake.commands.isEmpty, "nothing before the interval")
        Self.advance(host, fake, to: Self.rotation)
        #expect(fake.opcodes == [.leSetExtendedScanEnable, .leSetRandomAddress, .leSetExtendedScanParameters,
                                 .leSetExtendedScanEnable])
        #expect(fake.commands(LESetExtendedScanEnable.self).map(\.enable) == [false, true])
        let second = try #require(Self.setAddresses(fake).first)
        #expect(second != first)
        #expect(Self.resolves(second))
        #expect(host.controllerInfo?.ownAddress.address == second)
        #expect(host.isScanning)
        #expect(host.nextDeadline == 2 * Self.rotation, "the next rotation is one interval after this one")

        Self.advance(host, fake, to: 2 * Self.rotation)
        let all = Self.setAddresses(fake)
        #expect(all.count == 2 && Set(all).count == 2 && all.allSatisfy { Self.resolves($0) })
        #expect(fake.violations.isEmpty, "\(fake.violations)")
    }

    @Test("no LE Set Random Address while LE Create Connection is pending: it waits for the connection, which keeps its address")
    func rotationWaitsForAPendingCreate() throws {
        let (host, fake) = Self.host()
        let first = try #require(Self.setAddresses(fake).first)
        fake.clearRecord()
        var plan = LinkPlan.noGATT
        plan.connectTimeout = 2 * Self.rotation
        let id = host.connect(to: peer(1), plan: plan, at: 0)
        fake.run()
        #expect(fake.count(.leExtendedCreateConnection) == 1)

        Self.advance(host, fake, to: Self.rotation + 5)
        #expect(fake.count(.leSetRandomAddress) == 0, "the create is pending")
        #expect(host.nextDeadline.map { $0 > Self.rotation } ?? true, "a due rotation asks for no timer while it waits")

        let other = host.connect(to: peer(2), plan: plan, at: fake.now)
        fake.connectionComplete(peer: peer(1), handle: 0x0040)
        fake.run()
        #expect(fake.opcodes.firstIndex(of: .leSetRandomAddress) != nil)
        let creates = fake.opcodes.enumerated().filter { $0.element == .leExtendedCreateConnection }.map(\.offset)
        let set = try #require(fake.opcodes.firstIndex(of: .leSetRandomAddress))
        #expect(creates.count == 2 && creates[1] > set, "the queued create goes after the new address")
        let second = try #require(Self.setAddresses(fake).first)
        #expect(Self.resolves(second) && second != first)

        // The connected link is unaffected: still ready, no Disconnect, its security keeps the
        // address it connected with.
        #expect(host.state(of: id) == .ready)
        #expect(fake.count(.disconnect) == 0)
        #expect(host.connection(of: id)?.security?.local == DeviceAddress(first, type: .randomDevice))
        fake.connectionComplete(peer: peer(2), handle: 0x0041)
        fake.run()
        #expect(host.connection(of: other)?.security?.local == DeviceAddress(second, type: .randomDevice))
        #expect(fake.violations.isEmpty, "\(fake.violations)")
    }

    @Test("a refused LE Set Random Address keeps the current address, warns, and the scan resumes")
    func refusedRotationKeepsTheAddress() throws {
        let (host, fake) = Self.host()
        let first = try #require(Self.setAddresses(fake).first)
        host.startScan(ScanConfiguration(), at: 0)
        fake.run()
        fake.answers[.leSetRandomAddress] = .status(.commandDisallowed)
        Self.advance(host, fake, to: Self.rotation)
        #expect(host.controllerInfo?.ownAddress.address == first)
        #expect(fake.warnings.contains { $0.message.contains("LE Set Random Address") })
        #expect(host.isScanning)
        #expect(host.nextDeadline == 2 * Self.rotation)
    }
}
