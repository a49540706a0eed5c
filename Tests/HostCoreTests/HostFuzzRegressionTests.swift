import Testing
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
        var policy = ReconnectPolicy()
        policy.initialDelay = HostDuration.milliseconds(100)
        let id = host.connect(to: peer(1), plan: .noGATT(reconnect: policy), at: fake.now)
        fake.run()
        #expect(fake.count(.leExtendedCreateConnection) == 1)

        // Stale: this attempt has not even been acknowledged.
        fake.emitLE(.connectionComplete(LEConnectionCompleteEvent(
            status: .connectionFailedToBeEstablished, connectionHandle: 0, peerAddressType: peer(1).type,
            peerAddress: peer(1).address, connectionInterval: 0, supervisionTimeout: 0)))
        #expect(fake.hasWarning(containing: "before the Command Status"))
        #expect(host.pendingConnection == id)
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
}
