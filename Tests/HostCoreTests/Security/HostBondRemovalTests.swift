import Testing
@testable import HostCore
import Wire

/// A bond forgotten while the host runs (`Host.removeBond`, the Bluetooth proxy's unpair): the
/// host no longer encrypts with its key, and the next link to the peer pairs anew.
@Suite struct HostBondRemovalTests {
    @Test func aRemovedBondIsForgottenAndTheNextLinkPairsAgain() throws {
        let (world, p, smp) = HostSecurityTests.world()
        let id = world.connect(p, plan: HostSecurityTests.reconnectingPlan(subscribe: false))
        world.host.secure(id, SecurityNeed(level: .medium), at: world.now)
        world.settle()
        let bond = try #require(world.host.bonds.first, "\(world.fake.securityEvents)")
        #expect(smp.pairings == 1)

        #expect(world.host.removeBond(DeviceAddress(bond.address.address, type: bond.address.type.isRandom ? .publicDevice : .randomDevice)) == false,
                "another address keeps nothing")
        #expect(world.host.removeBond(bond.address))
        #expect(world.host.bonds.isEmpty)
        #expect(world.host.removeBond(bond.address) == false, "once only")

        smp.newConnection()
        world.drop(p)
        world.advance(by: HostDuration.seconds(1))
        #expect(world.host.state(of: id) == .ready, "\(world.fake.events)")
        #expect(smp.encryptions.count == 1, "not encrypted with the forgotten key on reconnection")
        world.host.secure(id, SecurityNeed(level: .medium), at: world.now)
        world.settle()
        #expect(smp.pairings == 2, "paired anew")
        #expect(world.host.bonds.count == 1)
    }
}
