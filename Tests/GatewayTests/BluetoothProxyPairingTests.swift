import ESPHomeAPI
import HostCore
import Testing
import Wire
@testable import Gateway

/// Pair and unpair requests of the proxy's clients, when the adapters' hosts pair
/// (`Options.proxyPairs`): the link's security raised, the answer when it is encrypted or fails,
/// the bond removed from every host and the state directory, and the link ended with it.
@Suite struct BluetoothProxyPairingTests {
    let proxy = BluetoothProxyTests()
    static let heart = BluetoothProxyTests.heartNumber

    final class Bonds {
        var files: Set<DeviceAddress> = []
    }

    func rig(adapters: Int = 1, bonds: Bonds = Bonds()) -> GatewayRig {
        GatewayRig(adapters: adapters, configuration: BluetoothProxyTests.proxyConfiguration(), proxy: true) { o in
            o.proxyPairs = true
            o.forgetBond = { bonds.files.remove($0) != nil }
        }
    }

    func pair(_ rig: GatewayRig, _ address: UInt64 = heart, client: Int = 1) {
        proxy.request(rig, .deviceRequest(address: address, kind: .pair, addressType: nil), client: client)
    }

    func unpair(_ rig: GatewayRig, _ address: UInt64 = heart) {
        proxy.request(rig, .deviceRequest(address: address, kind: .unpair, addressType: nil))
    }

    @Test func theFlagIsClaimedOnlyWhenTheHostsPair() {
        #expect(GatewayController.proxyFeatures(pairing: true).contains(.pairing))
        #expect(!GatewayController.proxyFeatures(pairing: false).contains(.pairing))
    }

    @Test func aPairingRaisesTheLinksSecurityAndIsAnsweredOnceItIsEncrypted() throws {
        let rig = rig()
        let link = try proxy.connectHeart(rig)
        _ = proxy.taken(rig)
        pair(rig)
        #expect(rig.hosts[0].secures.map(\.need) == [SecurityNeed(level: .medium)], "encrypted, no MITM asked: Just Works")
        #expect(proxy.taken(rig).isEmpty, "answered when security is done")
        pair(rig)
        #expect(rig.hosts[0].secures.count == 1, "a pairing under way is not started twice")
        rig.event(.security(link, .pairingStarted(SecurityNeed(level: .medium))), adapter: 0)
        rig.event(.security(link, .encrypted(level: .medium, keySize: 16, withBond: false)), adapter: 0)
        #expect(proxy.taken(rig) == [.pairing(address: Self.heart, paired: true, error: 0)])
        pair(rig)
        #expect(proxy.taken(rig) == [.pairing(address: Self.heart, paired: true, error: 0)], "already encrypted: at once, as ESPHome")
        #expect(rig.hosts[0].secures.count == 1)
    }

    @Test func aFailedPairingIsAnsweredWithItsSMPReasonOrHCIStatus() throws {
        let rig = rig()
        let link = try proxy.connectHeart(rig)
        _ = proxy.taken(rig)
        pair(rig)
        rig.event(.security(link, .failed(.pairing(.peerFailed(SMPPairingFailedReason(rawValue: 0x05))))), adapter: 0)
        #expect(proxy.taken(rig) == [.pairing(address: Self.heart, paired: false, error: 0x05)], "Pairing Not Supported, as the peer sent it")
        pair(rig)
        rig.event(.security(link, .failed(.pairing(.confirmValueMismatch))), adapter: 0)
        #expect(proxy.taken(rig) == [.pairing(address: Self.heart, paired: false, error: 0x04)], "Confirm Value Failed, as rtstack sent it")
        pair(rig)
        rig.event(.security(link, .failed(.encryption(HCIStatus(rawValue: 0x06)))), adapter: 0)
        #expect(proxy.taken(rig) == [.pairing(address: Self.heart, paired: false, error: 0x06)], "PIN or Key Missing")
        pair(rig)
        rig.event(.security(link, .failed(.pairing(.timeout))), adapter: 0)
        #expect(proxy.taken(rig) == [.pairing(address: Self.heart, paired: false, error: 0x85)])
        rig.event(.security(link, .failed(.pairing(.timeout))), adapter: 0)
        #expect(proxy.taken(rig).isEmpty, "a failure nobody asked about is not reported")
    }

    @Test func aPairingWithoutTheClientsLinkIsRefusedAsNotConnected() throws {
        let rig = rig()
        pair(rig)
        #expect(proxy.taken(rig) == [.pairing(address: Self.heart, paired: false, error: -1)])
        _ = try proxy.connectHeart(rig)
        _ = proxy.taken(rig)
        pair(rig, client: 2)
        #expect(proxy.taken(rig, client: 2) == [.pairing(address: Self.heart, paired: false, error: -1)], "another client's link")
        #expect(rig.hosts[0].secures.isEmpty)
    }

    @Test func aLinkEncryptedWithABondOrByThePeerIsAlreadyPaired() throws {
        let rig = rig()
        let link = try proxy.connectHeart(rig)
        rig.event(.security(link, .encrypted(level: .medium, keySize: 16, withBond: true)), adapter: 0)
        #expect(proxy.taken(rig).allSatisfy { if case .pairing = $0 { false } else { true } }, "nobody asked: nothing said")
        pair(rig)
        #expect(proxy.taken(rig) == [.pairing(address: Self.heart, paired: true, error: 0)])
        #expect(rig.hosts[0].secures.isEmpty)
    }

    @Test func anUnpairingRemovesTheBondFromEveryHostAndTheStateDirectoryAndEndsTheLink() throws {
        let bonds = Bonds()
        let rig = rig(adapters: 2, bonds: bonds)
        // The heart distributed a public identity of its own: its bond is filed under that.
        let identity = DeviceAddress(BDAddress(string: "00:00:C1:00:00:01")!, type: .publicDevice)
        bonds.files = [identity, GatewayRig.speed]
        rig.hosts[0].hold(GatewayRig.heart, identity: identity)
        rig.hosts[1].hold(GatewayRig.heart, identity: identity)
        rig.hosts[1].hold(GatewayRig.speed)
        let link = try proxy.connectHeart(rig)
        _ = proxy.taken(rig)
        unpair(rig)
        #expect(proxy.taken(rig) == [.unpairing(address: Self.heart, success: true, error: 0)])
        #expect(bonds.files == [GatewayRig.speed], "the file under the identity removed, the others kept")
        #expect(rig.hosts[0].bonds.isEmpty && rig.hosts[1].bonds.map(\.address) == [GatewayRig.speed], "gone from every host")
        #expect(rig.hosts[0].disconnects == [link], "the link encrypted with the bond's key ends")
        rig.event(.disconnected(link, reason: HCIStatus(rawValue: 0x16), willReconnect: false), adapter: 0)
        #expect(proxy.taken(rig).first == .connection(address: Self.heart, connected: false, mtu: 0, error: 0x16))

        unpair(rig)
        #expect(proxy.taken(rig) == [.unpairing(address: Self.heart, success: false, error: 0x105)], "no bond: ESP_ERR_NOT_FOUND")
    }

    @Test func withoutPairingHostsPairAndUnpairAreNotSupported() throws {
        let rig = proxy.rig()
        _ = try proxy.connectHeart(rig)
        _ = proxy.taken(rig)
        pair(rig)
        unpair(rig)
        #expect(proxy.taken(rig) == [.pairing(address: Self.heart, paired: false, error: 0x106),
                                     .unpairing(address: Self.heart, success: false, error: 0x106)])
        #expect(rig.hosts[0].secures.isEmpty)
    }
}
