import Testing
@testable import HostCore
import Wire

/// Scanning and initiating on a controller that enforces the controller-state rules (Core Spec
/// v5.4 Vol 4, Part E, §7.8.10, §7.8.11, §7.8.12 and its LE Supported States), as Zephyr's link
/// layer does and Bumble's does not: the host sends only what the state allows, learns from a
/// refusal, and scanning for what is missing resumes by itself after every connection attempt.
@Suite struct ControllerStateRulesTests {
    /// The fake with Zephyr's rules, legacy commands, and LE Supported States as given.
    static func strictHost(states: LESupportedStates = LESupportedStates(rawValue: 0x0000_03FF_FFFF_FFFF),
                           extended: Bool = false) -> (HCIHost, FakeController) {
        readyHost(controller: {
            $0.strictStateRules = true
            $0.leStates = states
            $0.leFeatures = extended ? [.leEncryption, .leExtendedAdvertising] : [.leEncryption]
        })
    }

    /// LE Supported States without any "scanning and initiating" combination (what Zephyr
    /// v2.5's controller reports: "Scanning while initiating: no").
    static let noScanWhileInitiating = LESupportedStates([.passiveScanning, .activeScanning, .initiating])

    static func report(_ n: UInt8) -> LEAdvertisingReport {
        LEAdvertisingReport(eventType: .advInd, addressType: .randomDevice, address: peer(n).address,
                            data: [0x02, 0x01, 0x06][...], rssi: -40)
    }

    static func advertisements(_ fake: FakeController) -> [DeviceAddress] {
        fake.events.compactMap { if case let .advertisement(r) = $0 { return r.address } else { return nil } }
    }

    @Test(arguments: [false, true])
    func aScanRefusedWhileInitiatingResumesAfterTheConnection(extended: Bool) {
        // States that claim "scanning + initiating" although the controller refuses it: the host
        // learns from the refusal.
        let (host, fake) = Self.strictHost(extended: extended)
        let link = host.connect(to: peer(1), plan: .noGATT, at: 0)
        fake.run()
        #expect(fake.pulledHost.pendingConnection == link)
        host.startScan(at: 0)
        fake.run()
        #expect(fake.refusals.count == 1)
        #expect(fake.refusals.first == (extended ? .leSetExtendedScanParameters : .leSetScanParameters))
        #expect(!host.isScanning)
        #expect(fake.hasWarning(containing: "cannot scan while initiating"))
        // No retry timer: the scan waits for the attempt (the connect timeout is the only deadline).
        #expect(host.nextDeadline == LinkPlan().connectTimeout)

        fake.connectionComplete(peer: peer(1), handle: 0x0001)
        fake.run()
        #expect(host.state(of: link) == .ready)
        // Scanning came back by itself once the create was over.
        #expect(host.isScanning)
        #expect(fake.scanning)
        // Advertising reports arrive after the first link is up.
        let before = Self.advertisements(fake).count
        fake.advertisingReport([Self.report(2)])
        #expect(Self.advertisements(fake).count == before + 1)

        // Learned: the next connection stops the scan first, and nothing more is refused.
        let second = host.connect(to: peer(2), plan: .noGATT, at: 0)
        fake.run()
        #expect(!fake.scanning)
        #expect(fake.pulledHost.pendingConnection == second)
        fake.connectionComplete(peer: peer(2), handle: 0x0002)
        fake.run()
        #expect(host.isScanning)
        #expect(fake.refusals.count == 1)
        #expect(fake.warnings.filter { $0.message.contains("cannot scan while initiating") }.count == 1)
        #expect(fake.violations.isEmpty)
    }

    @Test func truthfulSupportedStatesMeanNothingIsEverRefused() {
        let (host, fake) = Self.strictHost(states: Self.noScanWhileInitiating)
        host.startScan(at: 0)
        fake.run()
        #expect(fake.scanning)
        var links: [LinkID] = []
        for n in UInt8(1)...3 {
            links.append(host.connect(to: peer(n), plan: .noGATT, at: 0))
        }
        fake.run()
        // The scan stops before the first create and stays off while links wait for their turn.
        #expect(!fake.scanning)
        for (i, link) in links.enumerated() {
            #expect(fake.pulledHost.pendingConnection == link)
            #expect(!fake.scanning)
            fake.connectionComplete(peer: peer(UInt8(i + 1)), handle: UInt16(i + 1))
            fake.run()
        }
        #expect(links.allSatisfy { host.state(of: $0) == .ready })
        #expect(fake.scanning)
        #expect(host.isScanning)
        #expect(fake.refusals.isEmpty)
        #expect(fake.violations.isEmpty)
    }

    @Test func scanningResumesAfterACancelledAttempt() {
        let (host, fake) = Self.strictHost(states: Self.noScanWhileInitiating)
        let link = host.connect(to: peer(1), plan: .noGATT, at: 0)
        host.startScan(at: 0)
        fake.run()
        #expect(!fake.scanning)
        // The peer never shows up: connect timeout → LE Create Connection Cancel → LE Connection
        // Complete (Unknown Connection Identifier) ends the attempt, and the scan comes back.
        fake.now = LinkPlan().connectTimeout
        host.advanceTime(to: fake.now)
        fake.run()
        #expect(fake.count(.leCreateConnectionCancel) == 1)
        #expect(host.state(of: link) == .disconnected)
        #expect(fake.connectFailures.first?.1 == .connectTimeout(peer(1)))
        #expect(fake.scanning)
        #expect(host.isScanning)
        #expect(fake.refusals.isEmpty)
        #expect(fake.violations.isEmpty)
    }

    @Test func aCreateRefusedWhileScanningPausesTheScanAndGoesAgain() {
        let (host, fake) = Self.strictHost()
        host.startScan(at: 0)
        fake.run()
        #expect(fake.scanning)
        let link = host.connect(to: peer(1), plan: .noGATT, at: 0)
        fake.run()
        #expect(fake.refusals == [.leCreateConnection])
        #expect(fake.pulledHost.pendingConnection == link)
        #expect(!fake.scanning)
        #expect(fake.connectFailures.isEmpty)
        fake.connectionComplete(peer: peer(1), handle: 0x0001)
        fake.run()
        #expect(host.isScanning)
        #expect(fake.refusals == [.leCreateConnection])
        #expect(fake.violations.isEmpty)
    }

    /// The refused create's link waits for its turn again while the scan stops; given up then,
    /// it ends at once (its turn is its phase, which the cancel reads) and no create goes out.
    @Test func aLinkWaitingForItsTurnAgainAfterARefusedCreateEndsWhenGivenUp() {
        let (host, fake) = Self.strictHost()
        host.startScan(at: 0)
        fake.run()
        #expect(fake.scanning)
        fake.answers[.leSetScanEnable] = .held
        let link = host.connect(to: peer(1), plan: .noGATT, at: 0)
        fake.run()
        #expect(fake.refusals == [.leCreateConnection])
        #expect(host.state(of: link) == .initiating)
        #expect(fake.pulledHost.queuedConnections == [link])
        host.disconnect(link, at: 0)
        fake.run()
        #expect(fake.disconnections.map(\.0) == [link])
        #expect(fake.disconnections.first?.1 == .operationCancelledByHost)
        #expect(host.state(of: link) == .disconnected)
        #expect(fake.pulledHost.queuedConnections.isEmpty)
        fake.release(.leSetScanEnable)
        fake.run()
        #expect(fake.count(.leCreateConnection) == 1)
        #expect(host.isScanning)
        #expect(fake.violations.isEmpty)
    }
}
