import Testing
import Timing
@testable import HostCore
import Wire

/// `HCIHost.copyBeforeLinks`: the fuzz harness starts every input from a copy of a host brought
/// up once (Docs/fuzzing.md), so a copy must be that host, faithfully and on its own.
@Suite struct HCIHostCopyTests {
    /// A plan with GATT work: Exchange MTU, then discovery (answered only by the script below).
    private static var mtuPlan: LinkPlan {
        var plan = LinkPlan.noGATT
        plan.mtu = 185
        plan.reconnect = Backoff.linkReconnect
        return plan
    }

    /// One fixed input: a connection, its Exchange MTU answered, ACL data, a disconnection by
    /// the peer, the reconnect backoff and a second connection, a Hardware Error and the bring-up
    /// that follows. What the host sends and says, as text.
    private static func script(_ host: HCIHost, _ fake: FakeController) -> (sent: [HCIPacket], events: [String]) {
        fake.clearRecord()
        let link = host.connect(to: peer(1), plan: mtuPlan, at: fake.now)
        fake.run()
        fake.connectionComplete(peer: peer(1), handle: 0x0040)
        fake.run()
        fake.l2cap(handle: 0x0040, channel: 0x0004, [0x03, 0xB9, 0x00])
        fake.completeAllPackets()
        fake.l2cap(handle: 0x0040, channel: 0x0004, [0x1B, 0x03, 0x00, 0x2A])
        fake.l2cap(handle: 0x0040, channel: 0x0005, [0x12, 0x01, 0x08, 0x00, 0x18, 0x00, 0x28, 0x00, 0x00, 0x00, 0xC8, 0x00])
        fake.run()
        _ = host.perform(.read(handle: 0x0003), on: link, at: fake.now)
        fake.run()
        fake.disconnectionComplete(handle: 0x0040, reason: .remoteUserTerminatedConnection)
        for _ in 0..<40 {
            fake.now += HostDuration.milliseconds(250)
            host.advanceTime(to: fake.now)
            fake.run()
        }
        fake.connectionComplete(peer: peer(1), handle: 0x0041)
        fake.run()
        fake.hardwareError(0x01)
        fake.run()
        return (fake.sent, fake.events.map { String(describing: $0) })
    }

    private static func configure(_ c: inout HostConfiguration) {
        c.security.crypto = NoCryptography()
    }

    @Test func aCopyBehavesAsAFreshlyBroughtUpHost() throws {
        let (fresh, freshFake) = readyHost(Self.configure)
        let expected = Self.script(fresh, freshFake)

        let (template, templateFake) = readyHost(Self.configure)
        let copy = try #require(template.copyBeforeLinks())
        // The original goes its own way first: none of it may reach the copy.
        _ = template.connect(to: peer(2), plan: .noGATT, at: 0)
        templateFake.run()
        templateFake.connectionComplete(peer: peer(2), handle: 0x0050)
        templateFake.hardwareError(0x02)
        templateFake.run()

        let copyFake = FakeController()
        copyFake.attach(copy)
        let got = Self.script(copy, copyFake)
        // The script ran to its end: the bring-up after the Hardware Error begins with Reset.
        #expect(got.sent.count >= 20)
        #expect(got.sent.contains(HCIPacket(type: .command, bytes: [0x03, 0x0C, 0x00])))
        #expect(got.sent == expected.sent)
        #expect(got.events == expected.events)
        #expect(copyFake.violations.isEmpty)

        // The copy, used, has left the original as it was: it still has only its own link.
        #expect(template.links.map(\.peer) == [peer(2)])
    }

    @Test func aCopyOfAHostNeverStartedStartsLikeIt() throws {
        let (original, _) = makeHost(Self.configure)
        let copy = try #require(original.copyBeforeLinks())
        let fake = FakeController()
        fake.attach(copy)
        fake.bringUp()
        #expect(copy.isReady)
        #expect(!original.isReady)
        #expect(fake.violations.isEmpty)
    }

    @Test func noCopyOnceALinkExists() {
        let (host, fake) = readyHost()
        connectLink(host, fake, peer(1), handle: 0x0040)
        #expect(host.copyBeforeLinks() == nil)
        // Gone for good, the link's record stays: still no copy.
        host.disconnect(host.links[0].id, at: fake.now)
        fake.run()
        #expect(host.copyBeforeLinks() == nil)
    }

    /// `HCIHost.init(copying:linkTable:)` copies each of these; a stored property added to the
    /// host fails this test until it is copied there too (and added here).
    @Test func everyStoredPropertyIsOneTheCopyTakes() {
        let (host, _) = makeHost()
        let labels = Mirror(reflecting: host).children.compactMap(\.label)
        #expect(labels == [
            "configuration", "linkTable", "phase", "bringUp", "commands", "acl", "scanner", "initiator",
            "connections", "strayHandles", "clock", "securityContext", "resolver", "privateAddress",
            "attObserver", "controllerInfo",
        ])
        let tableLabels = Mirror(reflecting: host.linkTable).children.compactMap(\.label)
        #expect(tableLabels == [
            "list", "byID", "nextLinkNumber", "nextOperationNumber", "lastTurn", "lastUrgentTurn",
            "impossibleTransitions", "maximumPayload", "events", "requests", "outgoing",
        ])
    }
}
