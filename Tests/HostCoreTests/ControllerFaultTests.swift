import Testing
import Timing
@testable import HostCore
import Wire

/// A controller that misbehaves (issue 5, controller faults; Docs/host-core.md, "Controller
/// faults"). Each test names the fault and asserts the outcome: the error named, the state of
/// the links and of scanning afterwards, and that nothing waits forever (the sans-I/O clock
/// bounds every wait: `nextDeadline` is finite or nil).
@Suite struct ControllerFaultTests {
    static func policy() -> LinkPlan {
        var p = Backoff.linkReconnect
        p.initial = HostDuration.milliseconds(100)
        return .noGATT(reconnect: p)
    }

    /// A legacy-command controller, scanning, with one link that has a reconnect policy.
    static func scanningWithALink() -> (HCIHost, FakeController, LinkID) {
        let (host, fake) = readyHost(controller: { $0.leFeatures = [] })
        host.startScan(at: 0)
        fake.run()
        let link = connectLink(host, fake, peer(1), handle: 0x0001, plan: policy())
        fake.clearRecord()
        return (host, fake, link)
    }

    // MARK: Hardware Error (Core Spec v5.4 Vol 4, Part E, §7.7.16)

    @Test func hardwareErrorResetsTheControllerAndTheLinksAndScanComeBack() throws {
        let (host, fake, link) = Self.scanningWithALink()
        let other = connectLink(host, fake, peer(2), handle: 0x0002)
        host.sendATT(HostACLTests.writeCommand(handle: 0x10, value: [1]), on: link)
        #expect(fake.pulledHost.aclCreditsInUse == 1)
        #expect(host.isScanning)
        fake.clearRecord()

        fake.hardwareError(0x42)
        // Reported, naming the hardware code.
        let error = try #require(fake.controllerFailures.first)
        #expect(fake.controllerFailures.count == 1)
        #expect(error.description.contains("Hardware Error"))
        #expect(error.description.contains("0x42"))
        // Every link is lost with reason Hardware Failure (0x03); the one with a policy is
        // queued at once, the other ends.
        #expect(fake.disconnections.map(\.0) == [link, other])
        #expect(fake.disconnections.map(\.1) == [.hardwareFailure, .hardwareFailure])
        #expect(fake.disconnections.map(\.2) == [true, false])
        #expect(host.state(of: link) == .queued)
        #expect(host.state(of: other) == .disconnected)
        #expect(fake.pulledHost.status(of: link)?.connection == nil)
        #expect(fake.pulledHost.aclCreditsInUse == 0)
        #expect(fake.scanningEvents == [false])
        #expect(!host.isScanning)
        // HCI_Reset is the only command out.
        #expect(fake.opcodes == [.reset])
        #expect(!host.isReady)

        // Bring-up again; then the scan the application asked for and the queued link.
        fake.run()
        #expect(host.isReady)
        #expect(fake.readyCount == 1)
        #expect(fake.scanning)
        #expect(fake.scanningEvents == [false, true])
        #expect(fake.commands(LECreateConnection.self).map(\.peerAddress) == [peer(1).address])
        #expect(host.state(of: link) == .initiating)
        fake.connectionComplete(peer: peer(1), handle: 0x0003)
        fake.run()
        #expect(host.state(of: link) == .ready)
        #expect(fake.pulledHost.status(of: link)?.connection?.handle == 0x0003)
        #expect(host.state(of: other) == .disconnected)
        #expect(fake.violations.isEmpty)
    }

    @Test func hardwareErrorDuringBringUpStartsBringUpOver() {
        let (host, fake) = makeHost(controller: { $0.answers[.readBDADDR] = .silent })
        fake.bringUp()
        #expect(!host.isReady)
        fake.clearRecord()
        fake.answers[.readBDADDR] = nil
        fake.hardwareError(0x01)
        #expect(fake.controllerFailures.count == 1)
        #expect(fake.opcodes == [.reset])
        fake.run()
        #expect(host.isReady)
        // The unanswered Read BD_ADDR of the first bring-up is forgotten: no timeout later.
        host.advanceTime(to: HostDuration.seconds(60))
        #expect(fake.controllerFailures.count == 1)
        #expect(host.isReady)
        #expect(fake.violations.isEmpty)
    }

    // MARK: Commands never answered

    @Test func commandNeverAnsweredAtBringUpFailsNamingTheCommand() {
        let (host, fake) = makeHost(controller: { $0.answers[.leReadBufferSize] = .silent })
        fake.bringUp()
        // BlueZ waits 2 s for a command (HCI_CMD_TIMEOUT); so does the host by default.
        #expect(host.nextDeadline == HostDuration.seconds(2))
        host.advanceTime(to: HostDuration.seconds(2) - 1)
        #expect(fake.controllerFailures.isEmpty)
        host.advanceTime(to: HostDuration.seconds(2))
        #expect(fake.controllerFailures == [.commandTimeout(.leReadBufferSize)])
        #expect(fake.controllerFailures.first?.description.contains("LE Read Buffer Size") == true)
        #expect(host.hasFailed)
        #expect(!host.isReady)
        // Nothing waits any more: a driver stops instead of hanging.
        #expect(host.nextDeadline == nil)
        #expect(fake.pulledHost.commandsInFlight == 0)
    }

    @Test func resetNeverAnsweredFailsAfterTheResetTimeout() {
        let (host, fake) = makeHost(controller: { $0.answers[.reset] = .silent })
        fake.bringUp()
        #expect(host.nextDeadline == HostDuration.seconds(5))
        host.advanceTime(to: HostDuration.seconds(5))
        #expect(fake.controllerFailures == [.commandTimeout(.reset)])
        #expect(fake.controllerFailures.first?.description.contains("Reset") == true)
        #expect(host.hasFailed)
        #expect(host.nextDeadline == nil)
    }

    @Test func commandNeverAnsweredAfterBringUpResetsTheController() throws {
        let (host, fake, link) = Self.scanningWithALink()
        fake.answers[.leConnectionUpdate] = .silent
        // A peer's Connection Parameter Update Request makes the host send LE Connection Update.
        fake.l2cap(handle: 0x0001, channel: 5,
                   HostSignalingTests.parameterUpdateRequest(id: 1, min: 24, max: 40, latency: 0, timeout: 400))
        fake.run()
        #expect(fake.count(.leConnectionUpdate) == 1)
        let deadline = try #require(host.nextDeadline)
        #expect(deadline == HostDuration.seconds(2))
        fake.clearRecord()
        fake.now = deadline
        host.advanceTime(to: deadline)

        #expect(fake.controllerFailures == [.commandTimeout(.leConnectionUpdate)])
        #expect(fake.controllerFailures.first?.description.contains("LE Connection Update") == true)
        #expect(fake.disconnections.map(\.0) == [link])
        #expect(fake.disconnections.map(\.1) == [.connectionTerminatedByLocalHost])
        #expect(fake.disconnections.map(\.2) == [true])
        #expect(fake.scanningEvents == [false])
        #expect(fake.opcodes == [.reset])

        fake.answers[.leConnectionUpdate] = nil
        fake.run()
        #expect(host.isReady)
        #expect(fake.scanning)
        #expect(host.state(of: link) == .initiating)
        fake.connectionComplete(peer: peer(1), handle: 0x0002)
        fake.run()
        #expect(host.state(of: link) == .ready)
        #expect(fake.violations.isEmpty)
    }

    @Test func commandNeverAnsweredWhileConnectingResetsAndRetries() throws {
        let (host, fake) = readyHost(controller: {
            $0.leFeatures = []
            $0.answers[.leCreateConnection] = .silent
        })
        let link = host.connect(to: peer(1), plan: Self.policy(), at: 0)
        fake.run()
        host.advanceTime(to: HostDuration.seconds(2))
        // The create might be pending at the controller: the reset makes sure it is not
        // before another one goes out.
        #expect(fake.connectFailures.map(\.1) == [.commandTimeout(.leCreateConnection)])
        #expect(fake.connectFailures.map(\.2) == [true])
        #expect(fake.opcodes.last == .reset)
        #expect(fake.pulledHost.pendingConnection == nil)
        fake.answers[.leCreateConnection] = nil
        fake.run()
        #expect(host.state(of: link) == .initiating)
        #expect(fake.count(.leCreateConnection) == 2)
        #expect(fake.violations.isEmpty)
    }

    @Test func controllerThatStopsAnsweringEndsFailedWithABoundedQueue() {
        let (host, fake, link) = Self.scanningWithALink()
        for op in [HCIOpcode.reset, .leSetScanEnable, .disconnect] { fake.answers[op] = .silent }
        host.stopScan(at: 0)
        fake.run()
        // Scan disable unanswered (2 s), then HCI_Reset unanswered (5 s): failed, not hung.
        host.advanceTime(to: HostDuration.seconds(2))
        #expect(fake.controllerFailures == [.commandTimeout(.leSetScanEnable)])
        #expect(host.state(of: link) == .queued)
        #expect(host.nextDeadline == HostDuration.seconds(7))
        host.advanceTime(to: HostDuration.seconds(7))
        #expect(fake.controllerFailures == [.commandTimeout(.leSetScanEnable), .commandTimeout(.reset)])
        #expect(host.hasFailed)
        #expect(host.nextDeadline == nil)

        // Requests meanwhile queue nothing for the controller.
        let sent = fake.commands.count
        for i in 0..<100 {
            host.startScan(at: HostDuration.seconds(8))
            host.stopScan(at: HostDuration.seconds(8))
            host.connect(to: peer(UInt8(2 + i % 50)), plan: .noGATT, at: HostDuration.seconds(8))
            host.disconnect(link, at: HostDuration.seconds(8))
        }
        #expect(fake.commands.count == sent)
        #expect(host.commands.waitingCount == 0)
        #expect(fake.pulledHost.commandsInFlight == 0)
        #expect(host.nextDeadline == nil)
    }

    // MARK: Command Disallowed (0x0C)

    @Test func commandDisallowedForLECreateConnectionEndsTheAttemptAndTheNextGoes() throws {
        let (host, fake) = readyHost(controller: {
            $0.leFeatures = []
            $0.answers[.leCreateConnection] = .status(.commandDisallowed)
        })
        let a = host.connect(to: peer(1), plan: .noGATT, at: 0)
        fake.run()
        let failure = try #require(fake.connectFailures.first)
        #expect(failure.0 == a)
        #expect(failure.1 == .commandFailed(.leCreateConnection, .commandDisallowed))
        #expect(failure.1.description.contains("Command Disallowed (0x0C)"))
        #expect(failure.2 == false)
        #expect(host.state(of: a) == .disconnected)
        #expect(fake.pulledHost.pendingConnection == nil)

        // With a policy the attempt ends the same way and is retried after the backoff.
        let b = host.connect(to: peer(2), plan: Self.policy(), at: 0)
        fake.run()
        #expect(fake.connectFailures.last?.2 == true)
        #expect(host.state(of: b) == .waitingToReconnect)
        #expect(fake.pulledHost.pendingConnection == nil)

        fake.answers[.leCreateConnection] = nil
        let c = host.connect(to: peer(3), plan: .noGATT, at: 0)
        fake.run()
        #expect(fake.pulledHost.pendingConnection == c)
        fake.connectionComplete(peer: peer(3), handle: 0x0003)
        fake.run()
        #expect(host.state(of: c) == .ready)
        host.advanceTime(to: HostDuration.seconds(1))
        fake.run()
        #expect(fake.pulledHost.pendingConnection == b)
        #expect(fake.violations.isEmpty)
    }

    @Test func commandDisallowedForLESetScanEnableIsRetriedWithBackoffAndSaidOnce() {
        let (host, fake) = readyHost(controller: {
            $0.leFeatures = []
            $0.answers[.leSetScanEnable] = .status(.commandDisallowed)
        })
        host.startScan(at: 0)
        fake.run()
        #expect(!host.isScanning)
        #expect(!fake.scanning)
        // Nothing started, so nothing to take back: no `.scanning` event.
        #expect(fake.scanningEvents.isEmpty)
        #expect(fake.hasWarning(containing: "LE Set Scan Enable"))
        #expect(fake.hasWarning(containing: "Command Disallowed (0x0C)"))
        // The wish stays: tried again after 1 s, then 2 s, … (nothing explains the refusal).
        #expect(host.nextDeadline == HostDuration.seconds(1))
        fake.now = HostDuration.seconds(1)
        host.advanceTime(to: fake.now)
        fake.run()
        #expect(fake.count(.leSetScanEnable) == 2)
        #expect(host.nextDeadline == HostDuration.seconds(3))
        // Said once, not at every retry.
        #expect(fake.warnings.filter { $0.message.contains("LE Set Scan Enable") }.count == 1)

        // The controller takes it at the next retry: scanning, without the application asking again.
        fake.answers[.leSetScanEnable] = nil
        fake.now = HostDuration.seconds(3)
        host.advanceTime(to: fake.now)
        fake.run()
        #expect(host.isScanning)
        #expect(fake.scanningEvents == [true])
        #expect(host.nextDeadline == nil)
        #expect(fake.violations.isEmpty)
    }

    @Test func commandDisallowedForLESetScanParametersIsRetriedUntilScanningStarts() {
        let (host, fake) = readyHost(controller: {
            $0.leFeatures = []
            $0.answers[.leSetScanParameters] = .status(.commandDisallowed)
        })
        host.startScan(at: 0)
        fake.run()
        #expect(!host.isScanning)
        #expect(fake.count(.leSetScanEnable) == 0)
        #expect(fake.hasWarning(containing: "Command Disallowed (0x0C)"))
        // Retries back off, 1 s, 2 s, 4 s … up to 30 s.
        var t: HostTime = 0
        var waits: [HostTime] = []
        for _ in 0..<7 {
            guard let d = host.nextDeadline else { break }
            waits.append(d - t)
            t = d
            fake.now = t
            host.advanceTime(to: t)
            fake.run()
        }
        #expect(waits == [1, 2, 4, 8, 16, 30, 30].map(HostDuration.seconds))
        fake.answers[.leSetScanParameters] = nil
        fake.now = host.nextDeadline ?? t
        host.advanceTime(to: fake.now)
        fake.run()
        #expect(host.isScanning)
        // A stop withdraws the wish: no retry timer is left.
        host.stopScan(at: fake.now)
        fake.run()
        #expect(host.nextDeadline == nil)
    }

    @Test func commandDisallowedForDisconnectKeepsTheLinkAndALaterDisconnectGoes() {
        let (host, fake) = readyHost(controller: {
            $0.leFeatures = []
            $0.answers[.disconnect] = .status(.commandDisallowed)
        })
        let link = connectLink(host, fake, peer(1), handle: 0x0001, plan: Self.policy())
        fake.clearRecord()
        host.disconnect(link, at: 0)
        fake.run()
        #expect(fake.hasWarning(containing: "Disconnect of \(link) failed: Command Disallowed (0x0C)"))
        // Still connected, nothing pending.
        #expect(host.state(of: link) == .ready)
        #expect(fake.pulledHost.status(of: link)?.connection?.handle == 0x0001)
        #expect(fake.disconnections.isEmpty)
        #expect(host.nextDeadline == nil)

        fake.answers[.disconnect] = nil
        host.disconnect(link, at: 0)
        fake.run()
        #expect(fake.count(.disconnect) == 2)
        #expect(fake.disconnections.map(\.0) == [link])
        #expect(fake.disconnections.map(\.2) == [false])
        #expect(host.state(of: link) == .disconnected)
        #expect(fake.violations.isEmpty)
    }

    // MARK: Unknown Connection Identifier (0x02)

    @Test func unknownConnectionIdentifierForDisconnectEndsTheLink() {
        let (host, fake) = readyHost(controller: {
            $0.leFeatures = []
            $0.answers[.disconnect] = .status(.unknownConnectionIdentifier)
        })
        let link = connectLink(host, fake, peer(1), handle: 0x0001, plan: Self.policy())
        host.sendATT(HostACLTests.writeCommand(handle: 0x10, value: [1]), on: link)
        fake.clearRecord()
        host.disconnect(link, at: 0)
        fake.run()
        #expect(fake.disconnections.map(\.0) == [link])
        #expect(fake.disconnections.map(\.1) == [.unknownConnectionIdentifier])
        // The user asked for the end: no reconnect.
        #expect(fake.disconnections.map(\.2) == [false])
        #expect(host.state(of: link) == .disconnected)
        #expect(fake.pulledHost.status(of: link)?.connection == nil)
        #expect(fake.pulledHost.aclCreditsInUse == 0)
        #expect(fake.hasWarning(containing: "Unknown Connection Identifier"))
        // No retries: one Disconnect, whatever happens next.
        host.disconnect(link, at: 0)
        host.advanceTime(to: HostDuration.seconds(60))
        fake.run()
        #expect(fake.count(.disconnect) == 1)
        #expect(host.nextDeadline == nil)
        #expect(fake.violations.isEmpty)
    }

    @Test func unknownConnectionIdentifierForLEConnectionUpdateEndsTheLink() {
        let (host, fake) = readyHost(controller: {
            $0.leFeatures = []
            $0.answers[.leConnectionUpdate] = .status(.unknownConnectionIdentifier)
        })
        let link = connectLink(host, fake, peer(1), handle: 0x0001, plan: Self.policy())
        fake.clearRecord()
        fake.l2cap(handle: 0x0001, channel: 5,
                   HostSignalingTests.parameterUpdateRequest(id: 1, min: 24, max: 40, latency: 0, timeout: 400))
        fake.run()
        #expect(fake.count(.leConnectionUpdate) == 1)
        #expect(fake.disconnections.map(\.0) == [link])
        #expect(fake.disconnections.map(\.1) == [.unknownConnectionIdentifier])
        // Not asked for by the user: the plan's policy reconnects.
        #expect(fake.disconnections.map(\.2) == [true])
        #expect(host.state(of: link) == .waitingToReconnect)
        #expect(fake.pulledHost.status(of: link)?.connection == nil)
        // No Disconnect for a handle the controller does not know, no second update.
        #expect(fake.count(.disconnect) == 0)
        host.advanceTime(to: HostDuration.seconds(1))
        fake.run()
        #expect(host.state(of: link) == .initiating)
        fake.connectionComplete(peer: peer(1), handle: 0x0002)
        fake.run()
        #expect(host.state(of: link) == .ready)
        #expect(fake.count(.leConnectionUpdate) == 1)
        #expect(fake.violations.isEmpty)
    }

    @Test func lateUnknownConnectionIdentifierDoesNotEndTheNextConnection() {
        // Two command credits, so that the reconnection is not held up by the unanswered update.
        let (host, fake) = readyHost(controller: {
            $0.leFeatures = []
            $0.numHCICommandPackets = 2
        })
        let link = connectLink(host, fake, peer(1), handle: 0x0001, plan: Self.policy())
        fake.answers[.leConnectionUpdate] = .silent
        fake.l2cap(handle: 0x0001, channel: 5,
                   HostSignalingTests.parameterUpdateRequest(id: 1, min: 24, max: 40, latency: 0, timeout: 400))
        fake.run()
        // The link drops and reconnects on another handle before the answer comes.
        fake.disconnectionComplete(handle: 0x0001, reason: .connectionTimeout)
        host.advanceTime(to: HostDuration.milliseconds(100))
        fake.run()
        fake.connectionComplete(peer: peer(1), handle: 0x0002)
        fake.run()
        #expect(host.state(of: link) == .ready)
        fake.status(.leConnectionUpdate, .unknownConnectionIdentifier)
        #expect(host.state(of: link) == .ready)
        #expect(fake.pulledHost.status(of: link)?.connection?.handle == 0x0002)
    }

    // MARK: Number Of Completed Packets for an unknown handle (§7.7.19)

    @Test func numberOfCompletedPacketsForAnUnknownHandleIsIgnored() {
        let (host, fake) = readyHost(controller: { $0.leBufferCount = 4 })
        let link = connectLink(host, fake, peer(1), handle: 0x0001)
        for i in 0..<10 { host.sendATT(HostACLTests.writeCommand(handle: 0x10, value: [UInt8(i)]), on: link) }
        #expect(fake.pulledHost.aclCreditCapacity == 4)
        #expect(fake.pulledHost.aclCreditsInUse == 4)
        #expect(fake.aclSent.count == 4)
        fake.clearRecord()

        fake.completePackets([(0x0EEE, 50)])
        #expect(fake.warnings.count == 1)
        #expect(fake.hasWarning(containing: "0x0EEE"))
        #expect(fake.hasWarning(containing: "no open link"))
        // Credits for the real link unchanged: nothing more sent.
        #expect(fake.pulledHost.aclCreditsInUse == 4)
        #expect(fake.aclSent.isEmpty)

        // Mixed with a real entry: only the real one counts.
        fake.completePackets([(0x0EEE, 9), (0x0001, 2), (0x0123, 9)])
        #expect(fake.pulledHost.aclCreditsInUse == 4)
        #expect(fake.aclSent.count == 2)
        while fake.pulledHost.aclPacketsQueued > 0 { fake.completeAllPackets() }
        fake.completeAllPackets()
        #expect(fake.pulledHost.aclCreditsInUse == 0)
        #expect(fake.maxACLInFlight <= 4)
        #expect(fake.violations.isEmpty)
    }

    // MARK: Disconnection Complete for a handle never connected (§7.7.5)

    @Test func disconnectionCompleteForAHandleNeverConnectedIsIgnored() {
        let (host, fake) = readyHost()
        let link = connectLink(host, fake, peer(1), handle: 0x0001)
        host.sendATT(HostACLTests.writeCommand(handle: 0x10, value: [1]), on: link)
        fake.clearRecord()

        fake.disconnectionComplete(handle: 0x0077, reason: .remoteUserTerminatedConnection)
        #expect(fake.warnings.count == 1)
        #expect(fake.hasWarning(containing: "0x0077"))
        // Only the warning: no phantom link events.
        #expect(fake.events.count == 1)
        #expect(fake.pulledHost.links.count == 1)
        #expect(host.state(of: link) == .ready)
        #expect(fake.pulledHost.aclCreditsInUse == 1)

        // The real link still ends normally.
        fake.disconnectionComplete(handle: 0x0001, reason: .remoteUserTerminatedConnection)
        #expect(fake.disconnections.map(\.0) == [link])
        #expect(fake.pulledHost.aclCreditsInUse == 0)
        #expect(fake.violations.isEmpty)
    }
}
