import Testing
@testable import HostCore
import Wire

/// Several links created at once with the Filter Accept List (Core Spec v5.4 Vol 4, Part E,
/// §7.8.12, §7.8.14–16; Docs/host-core.md, "Controller states"): a present peer connects
/// without waiting behind an absent one, the list never changes under a create that uses it
/// (the fake counts that as a violation), each link keeps its own connect timeout, and a
/// controller with no list to use gets one create at a time.
@Suite struct HostAcceptListTests {
    /// A legacy-command controller with a Filter Accept List of `size` entries.
    static func host(listSize size: UInt8 = 8, _ configure: (inout HostConfiguration) -> Void = { _ in })
        -> (HCIHost, FakeController) {
        readyHost(configure, controller: {
            $0.leFeatures = []
            $0.filterAcceptListSize = size
        })
    }

    static func plan(timeout seconds: UInt64) -> LinkPlan {
        var p = LinkPlan.noGATT
        p.connectTimeout = HostDuration.seconds(seconds)
        return p
    }

    @Test func oneLinkKeepsTheCreateToItsAddress() throws {
        let (host, fake) = Self.host()
        _ = host.connect(to: peer(1), plan: .noGATT, at: 0)
        fake.run()
        #expect(fake.opcodes == [.leCreateConnection])
        let create = try #require(fake.commands(LECreateConnection.self).first)
        #expect(create.initiatorFilterPolicy == .peerAddress)
        #expect(create.peerAddress == peer(1).address)
    }

    @Test func thePresentPeerConnectsAtOnceWithAnAbsentOneQueuedBeforeIt() throws {
        let (host, fake) = Self.host()
        let absent = host.connect(to: peer(1), plan: .noGATT, at: 0)
        let present = host.connect(to: peer(2), plan: .noGATT, at: 0)
        fake.run()
        // The first link's create went at once; the second joins it (see below).
        #expect(fake.acceptList == [peer(1), peer(2)])
        let create = try #require(fake.commands(LECreateConnection.self).last)
        #expect(create.initiatorFilterPolicy == .filterAcceptList)
        #expect(fake.pulledHost.initiatingConnections == [absent, present])
        #expect(host.state(of: absent) == .initiating)
        #expect(host.state(of: present) == .initiating)

        // The controller hears the second peer first, half a second in.
        fake.now = HostDuration.milliseconds(500)
        fake.connectionComplete(peer: peer(2), handle: 0x0002)
        fake.run()
        #expect(host.state(of: present) == .ready)
        #expect(fake.connections.map(\.0) == [present])
        // The absent peer alone: a create to its address, with its timeout from its first create.
        let again = try #require(fake.commands(LECreateConnection.self).last)
        #expect(fake.count(.leCreateConnection) == 3)
        #expect(again.initiatorFilterPolicy == .peerAddress)
        #expect(again.peerAddress == peer(1).address)
        #expect(fake.pulledHost.pendingConnection == absent)
        #expect(host.nextDeadline == LinkPlan.noGATT.connectTimeout)
        #expect(fake.violations.isEmpty)
    }

    @Test func aLinkJoiningAPendingCreateCancelsRefillsAndRecreates() throws {
        let (host, fake) = Self.host()
        let a = host.connect(to: peer(1), plan: .noGATT, at: 0)
        let b = host.connect(to: peer(2), plan: .noGATT, at: 0)
        fake.run()
        fake.clearRecord()
        let c = host.connect(to: peer(3), plan: .noGATT, at: 0)
        fake.run()
        // The list may not change under the create (§7.8.16): cancel, its 0x02, then the list again.
        #expect(fake.opcodes == [.leCreateConnectionCancel, .leClearFilterAcceptList, .leAddDeviceToFilterAcceptList,
                                 .leAddDeviceToFilterAcceptList, .leAddDeviceToFilterAcceptList, .leCreateConnection])
        #expect(fake.acceptList == [peer(1), peer(2), peer(3)])
        #expect(fake.pulledHost.initiatingConnections == [a, b, c])
        #expect(fake.connectFailures.isEmpty)
        fake.connectionComplete(peer: peer(3), handle: 0x0003)
        fake.run()
        #expect(host.state(of: c) == .ready)
        #expect(fake.acceptList == [peer(1), peer(2)])
        #expect(fake.pulledHost.initiatingConnections == [a, b])
        #expect(fake.violations.isEmpty)
    }

    @Test func aLinkJoiningBeforeTheCommandStatusWaitsForIt() {
        let (host, fake) = Self.host()
        let a = host.connect(to: peer(1), plan: .noGATT, at: 0)
        let b = host.connect(to: peer(2), plan: .noGATT, at: 0)
        #expect(fake.unanswered.map(\.opcode) == [.leCreateConnection])
        // Nothing to cancel before the controller acknowledged the create.
        #expect(fake.pulledHost.queuedConnections == [b])
        fake.run()
        #expect(fake.opcodes == [.leCreateConnection, .leCreateConnectionCancel, .leClearFilterAcceptList,
                                 .leAddDeviceToFilterAcceptList, .leAddDeviceToFilterAcceptList, .leCreateConnection])
        #expect(fake.pulledHost.initiatingConnections == [a, b])
        #expect(fake.violations.isEmpty)
    }

    @Test func aMembersTimeoutRemovesItAndTheCreateGoesAgainForTheOthers() throws {
        let (host, fake) = Self.host()
        let short = host.connect(to: peer(1), plan: Self.plan(timeout: 3), at: 0)
        let long = host.connect(to: peer(2), plan: Self.plan(timeout: 10), at: 0)
        let third = host.connect(to: peer(3), plan: Self.plan(timeout: 10), at: 0)
        fake.run()
        #expect(host.nextDeadline == HostDuration.seconds(3))
        fake.clearRecord()
        fake.now = HostDuration.seconds(3)
        host.advanceTime(to: fake.now)
        fake.run()
        #expect(fake.connectFailures.map(\.0) == [short])
        #expect(fake.connectFailures.first?.1 == .connectTimeout(peer(1)))
        #expect(host.state(of: short) == .disconnected)
        #expect(fake.opcodes == [.leCreateConnectionCancel, .leClearFilterAcceptList, .leAddDeviceToFilterAcceptList,
                                 .leAddDeviceToFilterAcceptList, .leCreateConnection])
        #expect(fake.acceptList == [peer(2), peer(3)])
        #expect(fake.pulledHost.initiatingConnections == [long, third])
        // The others keep the timeout of their first create.
        #expect(host.nextDeadline == HostDuration.seconds(10))
        fake.now = HostDuration.seconds(10)
        host.advanceTime(to: fake.now)
        fake.run()
        #expect(fake.connectFailures.map(\.0) == [short, long, third])
        #expect(fake.pulledHost.pendingConnection == nil)
        #expect(host.nextDeadline == nil)
        #expect(fake.violations.isEmpty)
    }

    @Test func theApplicationGivingUpAMemberRecreatesForTheOthers() throws {
        let (host, fake) = Self.host()
        let a = host.connect(to: peer(1), plan: .noGATT, at: 0)
        let b = host.connect(to: peer(2), plan: .noGATT, at: 0)
        fake.run()
        fake.clearRecord()
        host.cancelConnect(a, at: 0)
        fake.run()
        #expect(host.state(of: a) == .disconnected)
        #expect(fake.opcodes == [.leCreateConnectionCancel, .leCreateConnection])
        let create = try #require(fake.commands(LECreateConnection.self).last)
        #expect(create.initiatorFilterPolicy == .peerAddress)
        #expect(create.peerAddress == peer(2).address)
        #expect(fake.pulledHost.initiatingConnections == [b])
        #expect(fake.connectFailures.isEmpty)
        #expect(fake.violations.isEmpty)
    }

    @Test(arguments: [UInt8(0), 1])
    func aListOfOneOrNoneCreatesOneLinkAtATime(size: UInt8) throws {
        let (host, fake) = Self.host(listSize: size)
        let a = host.connect(to: peer(1), plan: .noGATT, at: 0)
        let b = host.connect(to: peer(2), plan: .noGATT, at: 0)
        fake.run()
        #expect(fake.opcodes == [.leCreateConnection])
        #expect(fake.commands(LECreateConnection.self).first?.initiatorFilterPolicy == .peerAddress)
        #expect(fake.pulledHost.pendingConnection == a)
        #expect(fake.pulledHost.queuedConnections == [b])
    }

    @Test func aFullListLetsTheOtherLinksWait() {
        let (host, fake) = Self.host(listSize: 2)
        let a = host.connect(to: peer(1), plan: .noGATT, at: 0)
        let b = host.connect(to: peer(2), plan: .noGATT, at: 0)
        let c = host.connect(to: peer(3), plan: .noGATT, at: 0)
        fake.run()
        // The one cancel let the second link join the first one's create; the third waits.
        #expect(fake.count(.leCreateConnectionCancel) == 1)
        #expect(fake.pulledHost.initiatingConnections == [a, b])
        #expect(fake.pulledHost.queuedConnections == [c])
        fake.connectionComplete(peer: peer(1), handle: 0x0001)
        fake.run()
        #expect(fake.acceptList == [peer(2), peer(3)])
        #expect(fake.pulledHost.initiatingConnections == [b, c])
        #expect(fake.violations.isEmpty)
    }

    @Test func aRefusedListFallsBackToOneLinkAtATime() throws {
        let (host, fake) = Self.host()
        fake.answers[.leClearFilterAcceptList] = .status(.unknownHCICommand)
        let a = host.connect(to: peer(1), plan: .noGATT, at: 0)
        let b = host.connect(to: peer(2), plan: .noGATT, at: 0)
        fake.run()
        #expect(fake.hasWarning(containing: "one at a time"))
        #expect(fake.opcodes == [.leCreateConnection, .leCreateConnectionCancel, .leClearFilterAcceptList, .leCreateConnection])
        let create = try #require(fake.commands(LECreateConnection.self).first)
        #expect(create.initiatorFilterPolicy == .peerAddress)
        #expect(create.peerAddress == peer(1).address)
        #expect(fake.pulledHost.pendingConnection == a)
        #expect(fake.pulledHost.queuedConnections == [b])
        #expect(fake.violations.isEmpty)
    }
}
