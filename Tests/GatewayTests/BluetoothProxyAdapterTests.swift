import ESPHomeAPI
import HostCore
import Testing
import Wire
@testable import Gateway

/// The Bluetooth proxy over several adapters: the slots add up, a link goes to the adapter with
/// the most free slots that hears the device, and an adapter lost ends its links for their
/// clients, whose reconnects land on the adapters left.
@Suite struct BluetoothProxyAdapterTests {
    let proxy = BluetoothProxyTests()
    static let other: UInt64 = 0xC300_0000_0001

    // MARK: The policy

    typealias Candidate = ProxyPlacement.Candidate

    @Test func theAdapterWithTheMostFreeSlotsOfThoseThatHearTheDeviceTakesIt() {
        #expect(ProxyPlacement.choose([Candidate(adapter: 0, free: 2, rssi: -40), Candidate(adapter: 1, free: 4, rssi: -80)]) == 1,
                "more free slots outweigh a louder signal")
        #expect(ProxyPlacement.choose([Candidate(adapter: 0, free: 2, rssi: -70), Candidate(adapter: 1, free: 5, rssi: nil)]) == 0,
                "an adapter that does not hear the device is not chosen while one that does has room")
        #expect(ProxyPlacement.choose([Candidate(adapter: 0, free: 0, rssi: -40), Candidate(adapter: 1, free: 3, rssi: nil)]) == 1,
                "the one hearing it is full: any adapter with room")
        #expect(ProxyPlacement.choose([Candidate(adapter: 0, free: 3, rssi: -60), Candidate(adapter: 1, free: 3, rssi: -50)]) == 1,
                "as many free: the louder")
        #expect(ProxyPlacement.choose([Candidate(adapter: 0, free: 3, rssi: nil), Candidate(adapter: 1, free: 3, rssi: nil)]) == 0,
                "nothing to tell them apart: the first")
        #expect(ProxyPlacement.choose([Candidate(adapter: 0, free: 0, rssi: -40), Candidate(adapter: 1, free: 0, rssi: nil)]) == nil)
        #expect(ProxyPlacement.choose([]) == nil)
    }

    // MARK: Over the controller

    func rig() -> GatewayRig { proxy.rig(adapters: 2) }

    func connect(_ rig: GatewayRig, _ address: UInt64) {
        proxy.request(rig, .deviceRequest(address: address, kind: .connectV3WithCache, addressType: 1))
    }

    func up(_ rig: GatewayRig, _ peer: DeviceAddress, adapter: Int) throws {
        let link = try #require(rig.hosts[adapter].link(to: peer))
        rig.event(.linkState(link, .connected), adapter: adapter)
        rig.event(.linkState(link, .ready), adapter: adapter)
    }

    @Test func theSlotsOfBothAdaptersAddUpAfterTheGatewaysOwnDevices() throws {
        var c = BluetoothProxyTests.proxyConfiguration()
        var rule = DeviceRule()
        rule.address = GatewayRig.speed.address
        c.devices = [rule]
        let rig = proxy.rig(adapters: 2, configuration: c)
        rig.advertise(GatewayRig.speed, GatewayRig.advertisingData(.runningSpeedAndCadence), adapter: 1, rssi: -40)
        rig.advance(milliseconds: 600)
        #expect(rig.hosts[1].link(to: GatewayRig.speed) != nil, "the configured device is on the adapter that heard it")
        proxy.request(rig, .subscribeConnectionsFree)
        #expect(proxy.taken(rig) == [.connectionsFree(free: 9, limit: 9, allocated: [])], "5 + 5, less the gateway's own link")
        rig.controller.adapters[0].slotLimit = 2
        rig.collect()
        #expect(proxy.taken(rig) == [.connectionsFree(free: 6, limit: 6, allocated: [])], "2 learned + 4 left on the second")
    }

    @Test func aLinkGoesWhereTheMostSlotsAreFreeAmongTheAdaptersThatHearTheDevice() throws {
        let rig = rig()
        let ad = GatewayRig.advertisingData(.heartRate)
        rig.advertise(GatewayRig.heart, ad, adapter: 0, rssi: -40)
        rig.advertise(GatewayRig.heart, ad, adapter: 1, rssi: -70)
        rig.advertise(GatewayRig.speed, ad, adapter: 0, rssi: -40)
        rig.advertise(GatewayRig.speed, ad, adapter: 1, rssi: -70)
        rig.advertise(GatewayRig.thingy, ad, adapter: 0, rssi: -90)
        connect(rig, BluetoothProxyTests.heartNumber)
        #expect(rig.hosts[0].link(to: GatewayRig.heart) != nil, "as many free: the louder adapter")
        connect(rig, BluetoothProxyTests.speedNumber)
        #expect(rig.hosts[1].link(to: GatewayRig.speed) != nil, "the second has more free slots, and hears it too")
        #expect(rig.hosts[0].link(to: GatewayRig.speed) == nil)
        connect(rig, Self.other)
        #expect(rig.hosts[0].link(to: GatewayRig.thingy) != nil, "heard only by the first: it goes there though both have 4 free")
        #expect(rig.hosts[1].link(to: GatewayRig.thingy) == nil)
    }

    @Test func aSightingOlderThanThirtySecondsNoLongerCounts() throws {
        let rig = rig()
        rig.advertise(GatewayRig.heart, GatewayRig.advertisingData(.heartRate), adapter: 1, rssi: -90)
        rig.advance(milliseconds: 31_000)
        rig.advertise(GatewayRig.speed, GatewayRig.advertisingData(.heartRate), adapter: 0, rssi: -40)
        connect(rig, BluetoothProxyTests.speedNumber)
        #expect(rig.hosts[0].link(to: GatewayRig.speed) != nil)
        connect(rig, BluetoothProxyTests.heartNumber)
        #expect(rig.hosts[1].link(to: GatewayRig.heart) != nil, "no adapter heard it lately: the one with the most free slots")
    }

    @Test func aLostAdapterEndsItsLinksForTheirClientsAndTheReconnectLandsOnTheOther() throws {
        let rig = rig()
        let ad = GatewayRig.advertisingData(.heartRate)
        rig.advertise(GatewayRig.heart, ad, adapter: 0, rssi: -40)
        rig.advertise(GatewayRig.heart, ad, adapter: 1, rssi: -70)
        rig.advertise(GatewayRig.speed, ad, adapter: 1, rssi: -50)
        proxy.request(rig, .subscribeConnectionsFree)
        connect(rig, BluetoothProxyTests.heartNumber)
        try up(rig, GatewayRig.heart, adapter: 0)
        connect(rig, BluetoothProxyTests.speedNumber)
        try up(rig, GatewayRig.speed, adapter: 1)
        #expect(proxy.taken(rig).contains(.connectionsFree(free: 8, limit: 10, allocated: [BluetoothProxyTests.heartNumber, BluetoothProxyTests.speedNumber])))

        rig.controller.adapterClosed(0, reason: "the transport ended", at: rig.now)
        rig.collect()
        #expect(proxy.taken(rig) == [.connection(address: BluetoothProxyTests.heartNumber, connected: false, mtu: 0, error: 0x16),
                                     .connectionsFree(free: 4, limit: 5, allocated: [BluetoothProxyTests.speedNumber])],
                "the lost adapter's link is reported down (ESP_GATT_CONN_TERMINATE_LOCAL_HOST), the other stays; slots recounted")
        #expect(rig.controller.statusLine.hasSuffix(", 1 Bluetooth proxy link"), "the gateway does not make the link again itself")

        connect(rig, BluetoothProxyTests.heartNumber)
        try up(rig, GatewayRig.heart, adapter: 1)
        #expect(proxy.taken(rig) == [.connectionsFree(free: 3, limit: 5, allocated: [BluetoothProxyTests.heartNumber, BluetoothProxyTests.speedNumber]),
                                     .connection(address: BluetoothProxyTests.heartNumber, connected: true, mtu: 23, error: 0)],
                "the client's reconnect lands on the adapter left")
    }
}
