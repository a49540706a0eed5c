import Testing
import Timing
@testable import HostCore
import Wire

/// The initiator (one LE Create Connection at a time, Core Spec v5.4 Vol 4, Part E, §7.8.12),
/// connect timeouts with LE Create Connection Cancel (§7.8.13), scanning around connection
/// attempts, reconnection, and link state.
@Suite struct HostConnectionTests {
    /// A plan with no GATT work (the link is `.ready` once connected) and a reconnect policy.
    static func policy(_ max: Int? = nil) -> LinkPlan {
        var p = Backoff.linkReconnect
        p.maximumAttempts = max
        return .noGATT(reconnect: p)
    }

    @Test func onePendingCreateAtATimeWithThreeConnectsQueued() throws {
        let (host, fake) = readyHost(controller: { $0.leFeatures = [] })
        let a = host.connect(to: peer(1), plan: .noGATT, at: 0)
        let b = host.connect(to: peer(2), plan: .noGATT, at: 0)
        let c = host.connect(to: peer(3), plan: .noGATT, at: 0)
        fake.run()
        #expect(fake.count(.leCreateConnection) == 1)
        #expect(fake.pulledHost.pendingConnection == a)
        #expect(fake.pulledHost.queuedConnections == [b, c])
        #expect(host.state(of: a) == .initiating)
        #expect(host.state(of: b) == .queued)
        let create = try #require(fake.commands(LECreateConnection.self).first)
        #expect(create.peerAddress == peer(1).address)
        #expect(create.peerAddressType == .randomDevice)
        #expect(create.ownAddressType == .randomDevice)
        #expect(create.initiatorFilterPolicy == .peerAddress)
        #expect(create.connectionIntervalMin == 24)
        #expect(create.connectionIntervalMax == 40)
        #expect(create.maxLatency == 0)
        #expect(create.supervisionTimeout == 400)

        fake.connectionComplete(peer: peer(1), handle: 0x0001)
        fake.run()
        #expect(fake.count(.leCreateConnection) == 2)
        #expect(fake.pulledHost.pendingConnection == b)
        #expect(fake.commands(LECreateConnection.self).last?.peerAddress == peer(2).address)
        fake.connectionComplete(peer: peer(2), handle: 0x0002, kind: .enhancedV1)
        fake.run()
        #expect(fake.pulledHost.pendingConnection == c)
        fake.connectionComplete(peer: peer(3), handle: 0x0003, kind: .enhancedV2)
        fake.run()
        #expect(fake.pulledHost.pendingConnection == nil)
        #expect(fake.count(.leCreateConnection) == 3)
        #expect(fake.connections.map(\.0) == [a, b, c])
        #expect(fake.connections.map(\.1.handle) == [1, 2, 3])
        #expect(fake.connections.first?.1.interval == 36)
        // With nothing for GATT to do, each link is ready as soon as it is connected.
        #expect(fake.linkStates(a) == [.queued, .initiating, .connected, .ready])
        #expect(fake.linkStates(b) == [.queued, .initiating, .connected, .ready])
        #expect(fake.linkStates(c) == [.queued, .initiating, .connected, .ready])
        #expect(fake.pulledHost.links.map(\.state) == [.ready, .ready, .ready])
        #expect(fake.aclSent.isEmpty)
        #expect(host.nextDeadline == nil)
        #expect(fake.pulledHost.status(of: b)?.connection?.handle == 2)
        #expect(fake.violations.isEmpty)
    }

    @Test func extendedCreateCompletedByLegacyConnectionComplete() throws {
        // Bumble: LE Extended Create Connection, then the legacy LE Connection Complete.
        let (host, fake) = readyHost()
        let link = host.connect(to: peer(1), plan: .noGATT, at: 0)
        fake.run()
        #expect(fake.opcodes == [.leExtendedCreateConnection])
        let create = try #require(fake.commands(LEExtendedCreateConnection.self).first)
        #expect(create.initiatingPHYs == .le1M)
        #expect(create.phys.first?.supervisionTimeout == 400)
        fake.connectionComplete(peer: peer(1), handle: 0x0001, kind: .legacy)
        #expect(host.state(of: link) == .ready)
        #expect(fake.pulledHost.status(of: link)?.connection?.handle == 0x0001)
    }

    @Test func connectTimeoutCancelsAndEndsWithConnectTimeout() {
        let (host, fake) = readyHost(controller: { $0.leFeatures = [] })
        var plan = LinkPlan.noGATT
        plan.connectTimeout = HostDuration.seconds(3)
        fake.now = 100
        let link = host.connect(to: peer(1), plan: plan, at: 100)
        fake.run()
        #expect(host.nextDeadline == 100 + HostDuration.seconds(3))
        host.advanceTime(to: 100 + HostDuration.seconds(3) - 1)
        #expect(fake.count(.leCreateConnectionCancel) == 0)
        fake.now = 100 + HostDuration.seconds(3)
        host.advanceTime(to: fake.now)
        #expect(fake.opcodes.last == .leCreateConnectionCancel)
        fake.run()  // Cancel → Command Complete, then LE Connection Complete 0x02.
        #expect(fake.connectFailures.count == 1)
        #expect(fake.connectFailures.first?.0 == link)
        #expect(fake.connectFailures.first?.1 == .connectTimeout(peer(1)))
        #expect(fake.connectFailures.first?.2 == false)
        #expect(host.state(of: link) == .disconnected)
        #expect(fake.pulledHost.pendingConnection == nil)
        #expect(host.nextDeadline == nil)
    }

    @Test func cancelRacingWithSuccessKeepsTheConnection() {
        let (host, fake) = readyHost(controller: {
            $0.leFeatures = []
            $0.cancelProducesConnectionComplete = false
        })
        let link = host.connect(to: peer(1), plan: .noGATT, at: 0)
        fake.run()
        host.advanceTime(to: HostDuration.seconds(10))
        fake.run()
        #expect(fake.count(.leCreateConnectionCancel) == 1)
        // The connection was made just before the cancel arrived.
        fake.connectionComplete(peer: peer(1), handle: 0x0009)
        #expect(host.state(of: link) == .ready)
        #expect(fake.pulledHost.status(of: link)?.connection?.handle == 0x0009)
        #expect(fake.connectFailures.isEmpty)
        #expect(fake.pulledHost.pendingConnection == nil)
    }

    @Test func cancelWithoutCompletionIsGivenUpAfterTheGuard() {
        // Bumble's Cancel answers success and never sends the LE Connection Complete.
        let (host, fake) = readyHost({ $0.createConnectionCancelTimeout = HostDuration.seconds(2) },
                                     controller: {
                                         $0.leFeatures = []
                                         $0.cancelProducesConnectionComplete = false
                                     })
        let link = host.connect(to: peer(1), plan: .noGATT, at: 0)
        fake.run()
        host.advanceTime(to: HostDuration.seconds(10))
        fake.run()
        #expect(host.nextDeadline == HostDuration.seconds(12))
        host.advanceTime(to: HostDuration.seconds(12))
        #expect(fake.connectFailures.first?.1 == .connectTimeout(peer(1)))
        #expect(fake.hasWarning(containing: "no LE Connection Complete"))
        #expect(host.state(of: link) == .disconnected)
        #expect(fake.pulledHost.pendingConnection == nil)
    }

    @Test func commandDisallowedWhileScanningPausesTheScan() {
        let (host, fake) = readyHost(controller: {
            $0.leFeatures = []
            $0.disallowCreateWhileScanning = true
        })
        host.startScan(at: 0)
        fake.run()
        #expect(fake.scanning)
        fake.clearRecord()
        let link = host.connect(to: peer(1), plan: .noGATT, at: 0)
        fake.run()
        // Create → 0x0C → scan disabled → create again.
        #expect(fake.opcodes == [.leCreateConnection, .leSetScanEnable, .leCreateConnection])
        #expect(fake.commands(LESetScanEnable.self).first?.scanEnable == false)
        #expect(!fake.scanning)
        #expect(fake.pulledHost.pendingConnection == link)
        #expect(fake.connectFailures.isEmpty)
        fake.connectionComplete(peer: peer(1), handle: 0x0001)
        fake.run()
        // The scan comes back once nothing is left to connect.
        #expect(Array(fake.opcodes.suffix(2)) == [.leSetScanParameters, .leSetScanEnable])
        #expect(fake.scanning)
        #expect(fake.scanningEvents == [false, true])
        #expect(host.state(of: link) == .ready)
        #expect(fake.violations.isEmpty)

        // Learned: the next connect pauses the scan first, without a 0x0C.
        fake.clearRecord()
        host.connect(to: peer(2), plan: .noGATT, at: 0)
        fake.run()
        #expect(fake.opcodes == [.leSetScanEnable, .leCreateConnection])
    }

    @Test func supportedStatesWithoutScanAndInitiateScanPauseUpfront() {
        let (host, fake) = readyHost(controller: {
            $0.leFeatures = []
            $0.leStates = LESupportedStates([.passiveScanning, .activeScanning, .initiating])
        })
        host.startScan(at: 0)
        fake.run()
        fake.clearRecord()
        let link = host.connect(to: peer(1), plan: .noGATT, at: 0)
        fake.run()
        #expect(fake.opcodes == [.leSetScanEnable, .leCreateConnection])
        fake.connectionComplete(peer: peer(1), handle: 0x0001)
        fake.run()
        #expect(fake.opcodes == [.leSetScanEnable, .leCreateConnection, .leSetScanParameters, .leSetScanEnable])
        #expect(host.state(of: link) == .ready)
        #expect(host.isScanning)
    }

    @Test func failedToBeEstablishedRetriesPerPolicy() {
        let (host, fake) = readyHost(controller: { $0.leFeatures = [] })
        let link = host.connect(to: peer(1), plan: Self.policy(), at: 0)
        fake.run()
        fake.connectionComplete(peer: peer(1), handle: 0, status: .connectionFailedToBeEstablished)
        #expect(fake.connectFailures.first?.1 == .connectionFailed(.connectionFailedToBeEstablished))
        #expect(fake.connectFailures.first?.2 == true)
        #expect(host.state(of: link) == .waitingToReconnect)
        // Backoff default: 250 ms first.
        #expect(host.nextDeadline == HostDuration.milliseconds(250))
        host.advanceTime(to: HostDuration.milliseconds(250))
        fake.run()
        #expect(fake.count(.leCreateConnection) == 2)
        #expect(host.state(of: link) == .initiating)
    }

    @Test func retriesStopAtMaximumAttempts() {
        let (host, fake) = readyHost(controller: { $0.leFeatures = [] })
        let link = host.connect(to: peer(1), plan: Self.policy(1), at: 0)
        fake.run()
        fake.connectionComplete(peer: peer(1), handle: 0, status: .connectionFailedToBeEstablished)
        host.advanceTime(to: HostDuration.seconds(1))
        fake.run()
        fake.connectionComplete(peer: peer(1), handle: 0, status: .connectionFailedToBeEstablished)
        #expect(fake.connectFailures.map(\.2) == [true, false])
        #expect(host.state(of: link) == .disconnected)
    }

    @Test func reconnectWithBackoffAfterADrop() {
        let (host, fake) = readyHost(controller: { $0.leFeatures = [] })
        // The plan's one GATT step, Exchange MTU, is left unanswered: the link is up but not
        // ready, so reaching ready does not reset the backoff until the test answers it.
        var plan = Self.policy()
        plan.mtu = 247
        let link = connectLink(host, fake, peer(1), handle: 0x0001, plan: plan)
        #expect(host.state(of: link) == .mtu)
        // ATT_EXCHANGE_MTU_REQ (Core Spec v5.4 Vol 3, Part F, §3.4.2.1): 0x02, Client Rx MTU 247.
        #expect(fake.l2capSent.map(\.payload) == [[0x02, 0xF7, 0x00]])
        fake.clearRecord()
        fake.now = HostDuration.seconds(100)
        fake.disconnectionComplete(handle: 0x0001, reason: .connectionTimeout)
        #expect(fake.disconnections.first?.0 == link)
        #expect(fake.disconnections.first?.1 == .connectionTimeout)
        #expect(fake.disconnections.first?.2 == true)
        #expect(host.state(of: link) == .waitingToReconnect)
        #expect(host.nextDeadline == HostDuration.seconds(100) + HostDuration.milliseconds(250))
        host.advanceTime(to: HostDuration.seconds(100) + HostDuration.milliseconds(249))
        #expect(fake.count(.leCreateConnection) == 0)
        host.advanceTime(to: HostDuration.seconds(100) + HostDuration.milliseconds(250))
        fake.run()
        #expect(fake.count(.leCreateConnection) == 1)
        #expect(fake.linkStates(link) == [.waitingToReconnect, .queued, .initiating])

        // Same LinkID, new handle.
        fake.connectionComplete(peer: peer(1), handle: 0x0007)
        #expect(host.state(of: link) == .mtu)
        #expect(fake.pulledHost.status(of: link)?.connection?.handle == 0x0007)
        // A second drop before ready: the backoff doubles.
        fake.now = HostDuration.seconds(200)
        fake.disconnectionComplete(handle: 0x0007, reason: .connectionTimeout)
        #expect(host.nextDeadline == HostDuration.seconds(200) + HostDuration.milliseconds(500))
        #expect(fake.pulledHost.status(of: link)?.attempts == 2)

        // The third connection gets its Exchange MTU answered: reaching ready resets the count.
        fake.now = HostDuration.seconds(200) + HostDuration.milliseconds(500)
        host.advanceTime(to: fake.now)
        fake.run()
        fake.connectionComplete(peer: peer(1), handle: 0x0008)
        #expect(host.state(of: link) == .mtu)
        #expect(fake.pulledHost.status(of: link)?.attempts == 2)
        // ATT_EXCHANGE_MTU_RSP (§3.4.2.2): 0x03, Server Rx MTU 247.
        fake.l2cap(handle: 0x0008, channel: 4, [0x03, 0xF7, 0x00])
        #expect(host.state(of: link) == .ready)
        #expect(fake.pulledHost.status(of: link)?.mtu == 247)
        #expect(fake.pulledHost.status(of: link)?.attempts == 0)
        #expect(fake.violations.isEmpty)
    }

    @Test func userDisconnectDoesNotReconnect() throws {
        let (host, fake) = readyHost(controller: { $0.leFeatures = [] })
        let link = connectLink(host, fake, peer(1), handle: 0x0001, plan: Self.policy())
        fake.disconnectCompletes = false
        host.disconnect(link, at: 0)
        fake.run()
        let d = try #require(fake.commands(Disconnect.self).first)
        #expect(d.connectionHandle == 0x0001)
        #expect(d.reason == .remoteUserTerminatedConnection)
        // Still up until the Disconnection Complete.
        #expect(host.state(of: link) == .ready)
        #expect(fake.pulledHost.status(of: link)?.connection?.handle == 0x0001)
        fake.disconnectionComplete(handle: 0x0001, reason: .connectionTerminatedByLocalHost)
        #expect(fake.disconnections.map(\.2) == [false])
        #expect(host.state(of: link) == .disconnected)
        #expect(host.nextDeadline == nil)
        // Connecting again reuses the link.
        #expect(host.connect(to: peer(1), plan: .noGATT, at: 0) == link)
        #expect(host.state(of: link) == .initiating)
    }

    @Test func cancellingQueuedAndInitiatingConnects() {
        let (host, fake) = readyHost(controller: { $0.leFeatures = [] })
        let a = host.connect(to: peer(1), plan: .noGATT, at: 0)
        let b = host.connect(to: peer(2), plan: .noGATT, at: 0)
        fake.run()
        host.cancelConnect(b, at: 0)
        #expect(fake.disconnections.first?.0 == b)
        #expect(fake.disconnections.first?.1 == .operationCancelledByHost)
        #expect(host.state(of: b) == .disconnected)
        #expect(fake.pulledHost.queuedConnections.isEmpty)
        host.cancelConnect(a, at: 0)
        fake.run()
        #expect(fake.count(.leCreateConnectionCancel) == 1)
        #expect(host.state(of: a) == .disconnected)
        #expect(fake.disconnections.map(\.0) == [b, a])
        #expect(fake.connectFailures.isEmpty)
    }

    @Test func disconnectionCompleteForUnknownHandleIsAWarning() {
        let (host, fake) = readyHost()
        fake.disconnectionComplete(handle: 0x0123, reason: .connectionTimeout)
        #expect(fake.warnings.count == 1)
        #expect(fake.hasWarning(containing: "0x0123"))
        #expect(host.isReady)
    }

    @Test func unexpectedConnectionIsDisconnected() throws {
        let (_, fake) = readyHost()
        fake.connectionComplete(peer: peer(9), handle: 0x0033)
        fake.run()
        let d = try #require(fake.commands(Disconnect.self).first)
        #expect(d.connectionHandle == 0x0033)
        #expect(fake.hasWarning(containing: "unexpected connection"))
        // Its Disconnection Complete is expected: no second warning.
        #expect(fake.warnings.count == 1)
        #expect(fake.pulledHost.links.isEmpty)
    }

    @Test func hardwareErrorTakesLinksDownAndRequeuesThoseWithAPolicy() {
        let (host, fake) = readyHost(controller: { $0.leFeatures = [] })
        let kept = connectLink(host, fake, peer(1), handle: 0x0001, plan: Self.policy())
        let lost = connectLink(host, fake, peer(2), handle: 0x0002)
        host.sendATT([0x52, 0x01, 0x00, 0x01], on: kept)
        #expect(fake.pulledHost.aclCreditsInUse == 1)
        fake.clearRecord()
        fake.hardwareError(0x01)
        #expect(fake.controllerFailures.count == 1)
        #expect(fake.disconnections.map(\.0) == [kept, lost])
        #expect(fake.disconnections.map(\.1) == [.hardwareFailure, .hardwareFailure])
        #expect(fake.disconnections.map(\.2) == [true, false])
        #expect(host.state(of: kept) == .queued)
        #expect(host.state(of: lost) == .disconnected)
        #expect(fake.pulledHost.aclCreditsInUse == 0)
        #expect(fake.opcodes == [.reset])
        fake.run()
        #expect(host.isReady)
        #expect(fake.opcodes.last == .leCreateConnection)
        #expect(fake.commands(LECreateConnection.self).last?.peerAddress == peer(1).address)
        #expect(host.state(of: kept) == .initiating)
    }

    @Test func connectBeforeReadyWaitsForBringUp() {
        let (host, fake) = makeHost(controller: { $0.leFeatures = [] })
        let link = host.connect(to: peer(1), plan: .noGATT, at: 0)
        #expect(fake.sent.isEmpty)
        fake.bringUp()
        #expect(fake.opcodes.last == .leCreateConnection)
        #expect(host.state(of: link) == .initiating)
    }

    @Test func performOnALinkThatIsNotConnectedFails() {
        let (host, fake) = readyHost()
        let link = host.connect(to: peer(1), plan: .noGATT, at: 0)
        let op = host.perform(.read(handle: 3), on: link, at: 0)
        let missing = host.perform(.read(handle: 3), on: LinkID(rawValue: 99), at: 0)
        let results = fake.events.compactMap { e -> (OperationID, HostError?)? in
            if case let .operationCompleted(id, r) = e {
                if case let .failure(err) = r { return (id, err) }
                return (id, nil)
            }
            return nil
        }
        #expect(results.map(\.0) == [op, missing])
        #expect(results.allSatisfy { $0.1 != nil })
        #expect(op != missing)
    }

    @Test func commandTimeoutOfCreateFailsTheAttempt() {
        let (host, fake) = readyHost(controller: {
            $0.leFeatures = []
            $0.answers[.leCreateConnection] = .silent
        })
        let link = host.connect(to: peer(1), plan: .noGATT, at: 0)
        fake.run()
        host.advanceTime(to: HostDuration.seconds(2))
        #expect(fake.connectFailures.first?.1 == .commandTimeout(.leCreateConnection))
        #expect(host.state(of: link) == .disconnected)
        #expect(fake.pulledHost.pendingConnection == nil)
    }

    @Test func commandsQueuedForAGoneLinkAreDropped() {
        let (host, fake) = readyHost(controller: { $0.leFeatures = [] })
        let link = connectLink(host, fake, peer(1), handle: 0x0001)
        // The controller takes no command for now (Num_HCI_Command_Packets 0).
        fake.grantCredits(0)
        host.disconnect(link, at: 0)
        fake.l2cap(handle: 0x0001, channel: 5,
                   HostSignalingTests.parameterUpdateRequest(id: 1, min: 24, max: 40, latency: 0, timeout: 400))
        fake.clearRecord()
        #expect(fake.pulledHost.commandCredits == 0)
        // The peer goes first; the handle may now be given to another connection.
        fake.disconnectionComplete(handle: 0x0001, reason: .remoteUserTerminatedConnection)
        fake.grantCredits(1)
        fake.run()
        #expect(fake.count(.disconnect) == 0)
        #expect(fake.count(.leConnectionUpdate) == 0)
        #expect(fake.disconnections.map(\.2) == [false])
        #expect(host.state(of: link) == .disconnected)
    }

    @Test func cancelBeforeTheCommandStatusIsSentOnceItArrives() {
        let (host, fake) = readyHost(controller: { $0.leFeatures = [] })
        let link = host.connect(to: peer(1), plan: .noGATT, at: 0)
        // The create is out, its Command Status not yet in.
        #expect(fake.unanswered.map(\.opcode) == [.leCreateConnection])
        host.cancelConnect(link, at: 0)
        #expect(fake.count(.leCreateConnectionCancel) == 0)
        fake.run()
        #expect(fake.opcodes == [.leCreateConnection, .leCreateConnectionCancel])
        #expect(fake.disconnections.map(\.1) == [.operationCancelledByHost])
        #expect(host.state(of: link) == .disconnected)
        #expect(fake.pulledHost.pendingConnection == nil)
    }

    @Test func cancelOfACreateNotYetSentNeedsNoController() {
        let (host, fake) = readyHost(controller: { $0.leFeatures = [] })
        fake.grantCredits(0)
        let link = host.connect(to: peer(1), plan: .noGATT, at: 0)
        #expect(host.state(of: link) == .initiating)
        host.cancelConnect(link, at: 0)
        #expect(host.state(of: link) == .disconnected)
        fake.grantCredits(1)
        fake.run()
        #expect(fake.commands.isEmpty)
    }

    @Test func connectionAsPeripheralIsDisconnected() throws {
        let (host, fake) = readyHost(controller: { $0.leFeatures = [] })
        let link = host.connect(to: peer(1), plan: .noGATT, at: 0)
        fake.run()
        fake.connectionComplete(peer: peer(5), handle: 0x0020, role: .peripheral)
        fake.run()
        #expect(try #require(fake.commands(Disconnect.self).first).connectionHandle == 0x0020)
        #expect(fake.hasWarning(containing: "as peripheral"))
        // The attempt goes on.
        #expect(fake.pulledHost.pendingConnection == link)
    }

    @Test func duplicateHandleIsIgnored() {
        let (host, fake) = readyHost(controller: { $0.leFeatures = [] })
        let a = connectLink(host, fake, peer(1), handle: 0x0001)
        let b = host.connect(to: peer(2), plan: .noGATT, at: 0)
        fake.run()
        fake.clearRecord()
        fake.connectionComplete(peer: peer(2), handle: 0x0001)
        fake.run()
        #expect(fake.count(.disconnect) == 0)
        #expect(fake.hasWarning(containing: "already connected"))
        #expect(host.state(of: a) == .ready)
        #expect(fake.pulledHost.status(of: a)?.connection?.peer == peer(1))
        #expect(host.state(of: b) == .initiating)
    }

    @Test func lateConnectionAfterTheCancelGuardIsAdopted() {
        let (host, fake) = readyHost({ $0.createConnectionCancelTimeout = HostDuration.seconds(1) },
                                     controller: {
                                         $0.leFeatures = []
                                         $0.cancelProducesConnectionComplete = false
                                     })
        let link = host.connect(to: peer(1), plan: Self.policy(), at: 0)
        fake.run()
        host.advanceTime(to: HostDuration.seconds(10))
        fake.run()
        host.advanceTime(to: HostDuration.seconds(11))
        #expect(host.state(of: link) == .waitingToReconnect)
        fake.connectionComplete(peer: peer(1), handle: 0x0002)
        #expect(host.state(of: link) == .ready)
        #expect(fake.pulledHost.status(of: link)?.connection?.handle == 0x0002)
        #expect(fake.pulledHost.status(of: link)?.reconnectAt == nil)
        #expect(host.nextDeadline == nil)
    }
}
