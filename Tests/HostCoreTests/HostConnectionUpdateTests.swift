import Testing
@testable import HostCore
import Wire

/// Connection parameters the application asks of a connected link (`Host.updateConnection`):
/// LE Connection Update (Core Spec Vol 4, Part E, §7.8.18) with the link's handle, values the
/// command does not allow refused with their name, no command for a link without a connection.
@Suite struct HostConnectionUpdateTests {
    @Test func aConnectedLinksUpdateIsSentWithItsHandle() throws {
        let (host, fake) = readyHost()
        let link = connectLink(host, fake, peer(1), handle: 0x0041)
        fake.clearRecord()
        try host.updateConnection(link, to: ConnectionParameters(intervalMin: 6, intervalMax: 12, latency: 2, supervisionTimeout: 300),
                                  at: fake.now)
        fake.run()
        #expect(fake.commands(LEConnectionUpdate.self) == [LEConnectionUpdate(connectionHandle: 0x0041, connectionIntervalMin: 6,
                                                                              connectionIntervalMax: 12, maxLatency: 2,
                                                                              supervisionTimeout: 300)])
        #expect(fake.warnings.isEmpty)
    }

    @Test func valuesTheCommandDoesNotAllowAreRefusedByName() {
        let (host, fake) = readyHost()
        let link = connectLink(host, fake, peer(1), handle: 0x0041)
        fake.clearRecord()
        let cases: [(ConnectionParameters, String)] = [
            (ConnectionParameters(intervalMin: 5, intervalMax: 40, latency: 0, supervisionTimeout: 400), "interval min 5"),
            (ConnectionParameters(intervalMin: 24, intervalMax: 3201, latency: 0, supervisionTimeout: 3200), "interval max 3201"),
            (ConnectionParameters(intervalMin: 40, intervalMax: 24, latency: 0, supervisionTimeout: 400), "is above interval max"),
            (ConnectionParameters(intervalMin: 24, intervalMax: 40, latency: 500, supervisionTimeout: 3200), "latency 500"),
            (ConnectionParameters(intervalMin: 24, intervalMax: 40, latency: 0, supervisionTimeout: 9), "supervision timeout 9"),
            // 1 s × (1 + 0) × 2 = 2 s: a timeout of 2 s is not above it.
            (ConnectionParameters(intervalMin: 800, intervalMax: 800, latency: 0, supervisionTimeout: 200), "is not above"),
        ]
        for (parameters, named) in cases {
            #expect {
                try host.updateConnection(link, to: parameters, at: fake.now)
            } throws: { error in
                guard case .invalidParameters(let problem)? = error as? ConnectionUpdateRefusal else { return false }
                return problem.contains(named)
            }
        }
        fake.run()
        #expect(fake.commands(LEConnectionUpdate.self).isEmpty)
        #expect(ConnectionParameters(intervalMin: 800, intervalMax: 800, latency: 0, supervisionTimeout: 201).problem == nil,
                "just above twice the interval")
    }

    @Test func anUpdateTheControllerCouldNotMakeIsAWarningAndTheLinkKeepsItsParameters() throws {
        let (host, fake) = readyHost()
        let link = connectLink(host, fake, peer(1), handle: 0x0041)
        let before = fake.pulledHost.links.first?.connection?.interval
        try host.updateConnection(link, to: ConnectionParameters(intervalMin: 6, intervalMax: 12, latency: 0, supervisionTimeout: 300),
                                  at: fake.now)
        fake.run()
        fake.emitLE(.connectionUpdateComplete(LEConnectionUpdateCompleteEvent(
            status: .unacceptableConnectionParameters, connectionHandle: 0x0041, connectionInterval: 12, supervisionTimeout: 300)))
        #expect(fake.warnings.contains { $0.message.contains("LE Connection Update on \(link) failed") }, "\(fake.warnings)")
        #expect(fake.pulledHost.links.first?.connection?.interval == before)
    }

    @Test func aLinkWithoutAConnectionIsRefused() {
        let (host, fake) = readyHost()
        let link = host.connect(to: peer(2), plan: .noGATT, at: fake.now)
        fake.run()
        #expect(throws: ConnectionUpdateRefusal.notConnected(link)) {
            try host.updateConnection(link, to: ConnectionParameters(), at: fake.now)
        }
        #expect(fake.commands(LEConnectionUpdate.self).isEmpty)
    }
}
