import Testing
import Timing
import Wire
@testable import HostCore

/// The connector a lifecycle test runs against: the HCI host on a fake controller, or the
/// kernel host on a fake kernel. The link table above them is one; these tests hold both to the
/// same life of a link.
enum Connector: String, CaseIterable, CustomTestStringConvertible {
    case hci, kernel
    var testDescription: String { rawValue }
}

/// One host and its fake world, behind the few things a lifecycle test does.
final class LifecycleRig {
    let connector: Connector
    let host: any Host
    private var fake: FakeController?
    private var kernel: FakeKernel?
    private var handles: [LinkID: UInt16] = [:]
    private var nextHandle: UInt16 = 0x0040

    init(_ connector: Connector) {
        self.connector = connector
        switch connector {
        case .hci:
            let (h, f) = readyHost(controller: { $0.leFeatures = [] })
            host = h
            fake = f
        case .kernel:
            let k = FakeKernel()
            let h = KernelHost(configuration: KernelHostConfiguration(index: 0))
            k.host = h
            k.bringUp()
            k.clearEvents()
            host = h
            kernel = k
        }
    }

    var now: HostTime {
        get { fake?.now ?? kernel?.now ?? 0 }
        set {
            fake?.now = newValue
            kernel?.now = newValue
        }
    }

    var events: [HostEvent] { fake?.events ?? kernel?.events ?? [] }

    func settle() {
        fake?.run()
        kernel?.pull()
    }

    /// The pending attempt of `link` connects.
    func connects(_ link: LinkID, peer: DeviceAddress) {
        settle()
        switch connector {
        case .hci:
            let handle = nextHandle
            nextHandle += 1
            handles[link] = handle
            fake?.connectionComplete(peer: peer, handle: handle)
        case .kernel:
            kernel?.connectSocket(link)
        }
        settle()
    }

    /// The pending attempt of `link` fails (the peer is not there).
    func attemptFails(_ link: LinkID, peer: DeviceAddress) {
        settle()
        switch connector {
        case .hci:
            fake?.connectionComplete(peer: peer, handle: 0, status: .connectionFailedToBeEstablished)
        case .kernel:
            (host as? KernelHost)?.channelFailed(link, error: .connectionFailed(.connectionFailedToBeEstablished), at: now)
        }
        settle()
    }

    /// The connection of `link` drops (supervision timeout).
    func drops(_ link: LinkID) {
        switch connector {
        case .hci:
            if let h = handles[link] { fake?.disconnectionComplete(handle: h, reason: .connectionTimeout) }
        case .kernel:
            (host as? KernelHost)?.channelClosed(link, reason: .connectionTimeout, at: now)
        }
        settle()
    }

    func advance(to t: HostTime) {
        now = t
        host.advanceTime(to: t)
        settle()
    }

    func states(_ link: LinkID) -> [LinkState] {
        events.compactMap { if case let .linkState(l, s) = $0, l == link { return s } else { return nil } }
    }

    func disconnections(_ link: LinkID) -> [(HCIStatus, Bool)] {
        events.compactMap { if case let .disconnected(l, r, w) = $0, l == link { return (r, w) } else { return nil } }
    }

    func connectFailures(_ link: LinkID) -> [(HostError, Bool)] {
        events.compactMap { if case let .connectFailed(l, e, w) = $0, l == link { return (e, w) } else { return nil } }
    }
}

/// The life of a link (`LinkPhase`, `LinkTable.transition`) on both connectors.
@Suite struct LinkLifecycleTests {
    static let policy = Backoff.linkReconnect

    @Test(arguments: Connector.allCases)
    func aLinkGoesFromQueuedToReady(_ connector: Connector) {
        let rig = LifecycleRig(connector)
        let link = rig.host.connect(to: peer(1), plan: .noGATT, at: rig.now)
        rig.settle()
        #expect(rig.host.state(of: link) == .initiating)
        rig.connects(link, peer: peer(1))
        #expect(rig.states(link) == [.queued, .initiating, .connected, .ready])
        #expect(rig.events.contains { if case .connected(link, _) = $0 { return true } else { return false } })
    }

    @Test(arguments: Connector.allCases)
    func aDroppedLinkWaitsItsBackoffAndComesBack(_ connector: Connector) {
        let rig = LifecycleRig(connector)
        let link = rig.host.connect(to: peer(1), plan: .noGATT(reconnect: Self.policy), at: rig.now)
        rig.connects(link, peer: peer(1))
        rig.drops(link)
        #expect(rig.disconnections(link).map(\.1) == [true])
        #expect(rig.disconnections(link).first?.0 == .connectionTimeout)
        #expect(rig.host.state(of: link) == .waitingToReconnect)
        #expect(rig.host.nextDeadline == rig.now + Self.policy.delay(afterAttempt: 0))
        rig.advance(to: rig.now + Self.policy.delay(afterAttempt: 0))
        #expect(rig.host.state(of: link) == .initiating)
        rig.connects(link, peer: peer(1))
        #expect(rig.host.state(of: link) == .ready)
        #expect(Array(rig.states(link).suffix(5)) == [.waitingToReconnect, .queued, .initiating, .connected, .ready])
        // Ready again: the backoff starts from scratch.
        #expect(rig.host.linkTable.record(link)?.attempts == 0)
    }

    @Test(arguments: Connector.allCases)
    func failedAttemptsBackOffLongerEachTime(_ connector: Connector) {
        let rig = LifecycleRig(connector)
        let link = rig.host.connect(to: peer(1), plan: .noGATT(reconnect: Self.policy), at: rig.now)
        var waits: [HostTime] = []
        for _ in 0..<3 {
            rig.attemptFails(link, peer: peer(1))
            #expect(rig.host.state(of: link) == .waitingToReconnect)
            guard let next = rig.host.nextDeadline else { Issue.record("no backoff deadline"); return }
            waits.append(next - rig.now)
            rig.advance(to: next)
        }
        #expect(waits == (0..<3).map(Self.policy.delay(afterAttempt:)))
        #expect(rig.connectFailures(link).allSatisfy { $0.1 })
    }

    @Test(arguments: Connector.allCases)
    func withoutAPolicyAFailedAttemptEndsTheLink(_ connector: Connector) {
        let rig = LifecycleRig(connector)
        let link = rig.host.connect(to: peer(1), plan: .noGATT, at: rig.now)
        rig.attemptFails(link, peer: peer(1))
        #expect(rig.connectFailures(link).map(\.1) == [false])
        #expect(rig.host.state(of: link) == .disconnected)
        #expect(rig.host.nextDeadline == nil)
    }

    @Test(arguments: Connector.allCases)
    func aQueuedLinkGivenUpEndsAtOnce(_ connector: Connector) {
        let rig = LifecycleRig(connector)
        let first = rig.host.connect(to: peer(1), plan: .noGATT, at: rig.now)
        let second = rig.host.connect(to: peer(2), plan: .noGATT, at: rig.now)
        rig.settle()
        #expect(rig.host.state(of: first) == .initiating)
        #expect(rig.host.state(of: second) == .queued)
        rig.host.disconnect(second, at: rig.now)
        rig.settle()
        #expect(rig.disconnections(second).map(\.0) == [.operationCancelledByHost])
        #expect(rig.host.state(of: second) == .disconnected)
        // The first is not disturbed, and the second never gets a turn.
        rig.connects(first, peer: peer(1))
        #expect(rig.host.state(of: first) == .ready)
        #expect(rig.host.state(of: second) == .disconnected)
    }

    @Test(arguments: Connector.allCases)
    func aConnectedLinkDisconnectedEndsForGoodAndCanStartOver(_ connector: Connector) {
        let rig = LifecycleRig(connector)
        let link = rig.host.connect(to: peer(1), plan: .noGATT(reconnect: Self.policy), at: rig.now)
        rig.connects(link, peer: peer(1))
        rig.host.disconnect(link, at: rig.now)
        rig.settle()
        #expect(rig.disconnections(link).map(\.1) == [false])
        #expect(rig.host.state(of: link) == .disconnected)
        // Nothing to do for a link that is gone.
        let op = rig.host.perform(.read(handle: 0x0003), on: link, at: rig.now)
        #expect(rig.events.contains {
            if case .operationCompleted(op, .failure(.invalidState)) = $0 { return true } else { return false }
        })
        // Asking for the same peer again starts the same link over.
        let again = rig.host.connect(to: peer(1), plan: .noGATT, at: rig.now)
        #expect(again == link)
        rig.settle()
        #expect(rig.host.state(of: link) == .initiating)
        rig.connects(link, peer: peer(1))
        #expect(rig.host.state(of: link) == .ready)
    }
}
