import Testing
import Timing
@testable import HostCore
import Wire

/// Inputs the host-core fuzzer (Tests/Fuzz/Harnesses/Host.swift) found, replayed here as
/// readable scenarios on the fake controller. The raw inputs are kept in
/// Tests/Fuzz/regressions/host/ and replayed by `scripts/fuzz` before every run.
@Suite struct HostFuzzRegressionTests {
    /// Fuzz input `stale-connection-complete-before-command-status`: a failed LE Connection
    /// Complete arrived while the host's LE Create Connection still waited for its Command
    /// Status. The host took it as the end of that attempt, retried after the backoff and so
    /// had two LE (Extended) Create Connection at the controller (Core Spec v5.4 Vol 4, Part E, §7.8.12
    /// allows one; the completion of an attempt only follows its Command Status).
    @Test func failedConnectionCompleteBeforeCommandStatusIsStale() {
        let (host, fake) = readyHost()
        fake.answers[.leExtendedCreateConnection] = .silent
        var policy = Backoff.linkReconnect
        policy.initial = HostDuration.milliseconds(100)
        let id = host.connect(to: peer(1), plan: .noGATT(reconnect: policy), at: fake.now)
        fake.run()
        #expect(fake.count(.leExtendedCreateConnection) == 1)

        // Stale: this attempt has not even been acknowledged.
        fake.emitLE(.connectionComplete(LEConnectionCompleteEvent(
            status: .connectionFailedToBeEstablished, connectionHandle: 0, peerAddressType: peer(1).type,
            peerAddress: peer(1).address, connectionInterval: 0, supervisionTimeout: 0)))
        #expect(fake.hasWarning(containing: "before the Command Status"))
        #expect(fake.pulledHost.pendingConnection == id)
        #expect(host.state(of: id) == .initiating)

        // Past the reconnect backoff, with a command credit to spare: no second create.
        fake.now += HostDuration.milliseconds(500)
        host.advanceTime(to: fake.now)
        fake.grantCredits(1)
        fake.run()
        #expect(fake.count(.leExtendedCreateConnection) == 1)
        #expect(fake.connectFailures.isEmpty)
        #expect(fake.violations.isEmpty)

        // The attempt still ends the normal way.
        fake.answers[.leExtendedCreateConnection] = nil
        fake.status(.leExtendedCreateConnection)
        fake.connectionComplete(peer: peer(1), handle: 0x0041)
        fake.run()
        #expect(host.state(of: id) == .ready)
    }

    /// Fuzz input `connection-complete-while-create-queued`: the LE Connection Complete of an
    /// earlier attempt arrived while the current attempt's LE Extended Create Connection still
    /// waited for a command credit. The host connected the link but left the create queued;
    /// it went out later, for a link already connected, and piled up over repeated rounds.
    @Test func connectionCompleteWhileTheCreateWaitsDropsTheCreate() {
        let (host, fake) = readyHost()
        fake.grantCredits(0)
        let id = host.connect(to: peer(1), plan: .noGATT, at: fake.now)
        #expect(fake.count(.leExtendedCreateConnection) == 0)

        fake.connectionComplete(peer: peer(1), handle: 0x0041)
        #expect(host.state(of: id) == .ready)
        #expect(host.commands.waitingCount == 0)
        fake.grantCredits(1)
        fake.run()
        #expect(fake.count(.leExtendedCreateConnection) == 0)
        #expect(fake.pulledHost.pendingConnection == nil)
        #expect(fake.violations.isEmpty)
    }

    /// The same with the create already sent and not yet acknowledged: it stays the one
    /// pending create (no other link's create goes out) and is cancelled once acknowledged;
    /// the cancel's LE Connection Complete (0x02) ends it and the next link's turn comes.
    @Test func connectionCompleteWhileTheCreateAwaitsItsStatusCancelsIt() {
        let (host, fake) = readyHost()
        fake.answers[.leExtendedCreateConnection] = .silent
        let a = host.connect(to: peer(1), plan: .noGATT, at: fake.now)
        fake.run()
        fake.connectionComplete(peer: peer(1), handle: 0x0041)
        #expect(host.state(of: a) == .ready)
        #expect(fake.pulledHost.pendingConnection == nil)

        let b = host.connect(to: peer(2), plan: .noGATT, at: fake.now)
        fake.run()
        #expect(fake.count(.leExtendedCreateConnection) == 1)
        #expect(host.state(of: b) == .queued)

        fake.answers[.leExtendedCreateConnection] = nil
        fake.status(.leExtendedCreateConnection)
        fake.run()
        #expect(fake.count(.leCreateConnectionCancel) == 1)
        fake.emitLE(.connectionComplete(LEConnectionCompleteEvent(
            status: .unknownConnectionIdentifier, connectionHandle: 0, peerAddressType: peer(1).type,
            peerAddress: peer(1).address, connectionInterval: 0, supervisionTimeout: 0)))
        fake.run()
        #expect(fake.count(.leExtendedCreateConnection) == 2)
        #expect(host.state(of: b) == .initiating)
        #expect(host.state(of: a) == .ready)
        #expect(fake.violations.isEmpty)
    }

    /// Fuzz input `repeated-stray-connection-complete`: a controller repeating the LE Connection
    /// Complete of a connection nobody asked for, while it took no commands, grew the command
    /// queue by one Disconnect per repetition.
    @Test func repeatedStrayConnectionCompleteQueuesOneDisconnect() {
        let (host, fake) = readyHost()
        fake.grantCredits(0)
        for _ in 0..<5 { fake.connectionComplete(peer: peer(3), handle: 0x0042) }
        #expect(host.commands.waitingCount == 1)
        fake.grantCredits(1)
        fake.run()
        #expect(fake.commands(Disconnect.self).map(\.connectionHandle) == [0x0042])
        #expect(host.commands.waitingCount == 0)
    }

    /// The same growth through the peer: Connection Parameter Update Requests repeated while
    /// the controller takes no commands. The newest accepted parameters replace an LE
    /// Connection Update not sent yet (Core Spec v5.4 Vol 3, Part A, §4.20).
    @Test func repeatedParameterUpdateRequestsKeepOneConnectionUpdateWaiting() {
        let (host, fake) = readyHost()
        connectLink(host, fake, peer(1), handle: 0x0040)
        fake.grantCredits(0)
        for i in 0..<5 {
            fake.l2cap(handle: 0x0040, channel: 5,
                       HostSignalingTests.parameterUpdateRequest(id: UInt8(i + 1), min: 24, max: 40, latency: 0,
                                                                 timeout: 400 + UInt16(i)))
        }
        #expect(host.commands.waitingCount == 1)
        fake.grantCredits(1)
        fake.run()
        let updates = fake.commands(LEConnectionUpdate.self)
        #expect(updates.map(\.supervisionTimeout) == [404])
    }

    /// Fuzz input `cancel-guard-before-cancel-sent`: the connect timeout queued LE Create
    /// Connection Cancel while the controller took no commands; the 2 s cancel guard ran out
    /// before the cancel was even sent, so the host took the attempt as ended and later sent
    /// the next create right behind the cancel, before the controller had answered it. The
    /// guard now runs from the controller's answer to the cancel.
    @Test func cancelGuardWaitsForTheCancelToBeAnswered() {
        let (host, fake) = readyHost()
        var plan = LinkPlan.noGATT
        plan.connectTimeout = HostDuration.milliseconds(100)
        let a = host.connect(to: peer(1), plan: plan, at: fake.now)
        fake.run()
        let b = host.connect(to: peer(2), plan: .noGATT, at: fake.now)
        fake.grantCredits(0)
        fake.now += HostDuration.milliseconds(200)
        host.advanceTime(to: fake.now)
        fake.now += HostDuration.seconds(5)
        host.advanceTime(to: fake.now)
        #expect(fake.pulledHost.pendingConnection == a)
        #expect(host.state(of: a) == .initiating)
        #expect(host.state(of: b) == .queued)
        #expect(fake.connectFailures.isEmpty)

        fake.grantCredits(1)
        fake.run()
        #expect(fake.count(.leCreateConnectionCancel) == 1)
        #expect(fake.connectFailures.map(\.0) == [a])
        #expect(host.state(of: b) == .initiating)
        #expect(fake.count(.leExtendedCreateConnection) == 2)
        #expect(fake.violations.isEmpty)
    }
}
