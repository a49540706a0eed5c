import ESPHomeAPI
import HostCore
import Testing
import Wire
@testable import Gateway

/// Connection parameters a proxy client asks for its link (`bluetooth_device_set_connection_params`):
/// the link's host asked for an LE Connection Update and the answer given at once (as ESPHome
/// gives it); values the link layer does not allow, a link that is not the client's, a host
/// that cannot ask, each answered with ESPHome's code and logged.
@Suite struct BluetoothProxyConnectionParamsTests {
    let proxy = BluetoothProxyTests()
    static let heart = BluetoothProxyTests.heartNumber

    /// Asks for parameters as client `client`; what the gateway logged meanwhile.
    @discardableResult
    func set(_ rig: GatewayRig, _ values: (UInt32, UInt32, UInt32, UInt32), address: UInt64 = heart, client: Int = 1) -> [String] {
        rig.controller.proxyRequest(.setConnectionParameters(address: address, minimumInterval: values.0, maximumInterval: values.1,
                                                             latency: values.2, timeout: values.3),
                                    client: client, shortUUIDs: true, at: rig.now)
        let log = rig.controller.takeLog().map(\.1)
        rig.collect()
        return log
    }

    @Test func theFlagIsClaimedOnlyWhereTheHostsCanAsk() {
        #expect(GatewayController.proxyFeatures(pairing: false, connectionParameters: true).contains(.connectionParameters))
        #expect(GatewayController.proxyFeatures(pairing: true, connectionParameters: true).rawValue & (1 << 7) != 0,
                "aioesphomeapi's CONNECTION_PARAMS_SETTING")
        #expect(!GatewayController.proxyFeatures(pairing: true, connectionParameters: false).contains(.connectionParameters))
    }

    @Test func theClientsLinkIsUpdatedAndAnsweredAtOnce() throws {
        let rig = proxy.rig()
        let link = try proxy.connectHeart(rig)
        _ = proxy.taken(rig)
        let log = set(rig, (24, 40, 2, 500))
        #expect(rig.hosts[0].connectionUpdates.map(\.link) == [link])
        #expect(rig.hosts[0].connectionUpdates.first?.parameters
                == ConnectionParameters(intervalMin: 24, intervalMax: 40, latency: 2, supervisionTimeout: 500))
        #expect(proxy.taken(rig) == [.connectionParameters(address: Self.heart, error: 0)], "not waiting for LE Connection Update Complete")
        #expect(log.contains { $0.contains("connection parameters for client 1: interval 24–40") }, "\(log)")
        set(rig, (6, 6, 0, 10))
        #expect(rig.hosts[0].connectionUpdates.count == 2, "each request asks again")
        #expect(proxy.taken(rig) == [.connectionParameters(address: Self.heart, error: 0)])
    }

    @Test func valuesTheLinkLayerDoesNotAllowAreRefusedAsAnInvalidArgumentAndLogged() throws {
        let rig = proxy.rig()
        _ = try proxy.connectHeart(rig)
        _ = proxy.taken(rig)
        let cases: [((UInt32, UInt32, UInt32, UInt32), String)] = [
            ((5, 40, 0, 400), "interval min 5"),
            ((24, 70_000, 0, 400), "interval max 70000 does not fit"),
            ((40, 24, 0, 400), "interval min 40 is above interval max 24"),
            ((24, 40, 500, 3200), "latency 500"),
            ((24, 40, 0, 3201), "supervision timeout 3201"),
            ((3200, 3200, 0, 800), "is not above"),
            ((24, 40, 0, UInt32.max), "supervision timeout 4294967295 does not fit"),
        ]
        for (values, named) in cases {
            let log = set(rig, values)
            #expect(proxy.taken(rig) == [.connectionParameters(address: Self.heart, error: 0x102)], "ESP_ERR_INVALID_ARG for \(values)")
            #expect(log.contains { $0.contains("refused") && $0.contains(named) }, "the log names \(named): \(log)")
        }
        #expect(rig.hosts[0].connectionUpdates.isEmpty, "no controller was asked")
    }

    @Test func onlyTheClientsOwnConnectedLinkIsUpdated() throws {
        let rig = proxy.rig()
        let log = set(rig, (24, 40, 0, 400))
        #expect(proxy.taken(rig) == [.connectionParameters(address: Self.heart, error: -1)], "no link: ESPHome's not connected")
        #expect(log.contains { $0.contains("no connected link") }, "\(log)")
        proxy.request(rig, .deviceRequest(address: Self.heart, kind: .connectV3WithoutCache, addressType: 1))
        set(rig, (24, 40, 0, 400))
        #expect(proxy.taken(rig) == [.connectionParameters(address: Self.heart, error: -1)], "still connecting")
        let link = try #require(rig.hosts[0].link(to: GatewayRig.heart))
        rig.event(.linkState(link, .connected), adapter: 0)
        rig.event(.databaseReady(link, GatewayRig.heartDatabase, fromCache: false), adapter: 0)
        rig.event(.linkState(link, .ready), adapter: 0)
        _ = proxy.taken(rig)
        set(rig, (24, 40, 0, 400), client: 2)
        #expect(proxy.taken(rig, client: 2) == [.connectionParameters(address: Self.heart, error: -1)], "another client's link")
        #expect(rig.hosts[0].connectionUpdates.isEmpty)
    }

    @Test func aHostThatCannotAskIsAnsweredNotSupportedAndALinkGoneNotConnected() throws {
        let rig = proxy.rig()
        _ = try proxy.connectHeart(rig)
        _ = proxy.taken(rig)
        rig.hosts[0].connectionUpdateRefusal = .unsupported("the kernel's backend (--backend kernel) keeps the link layer")
        let log = set(rig, (24, 40, 0, 400))
        #expect(proxy.taken(rig) == [.connectionParameters(address: Self.heart, error: 0x106)], "ESP_ERR_NOT_SUPPORTED")
        #expect(log.contains { $0.contains("--backend kernel") }, "\(log)")
        rig.hosts[0].connectionUpdateRefusal = .notConnected(LinkID(rawValue: 1))
        set(rig, (24, 40, 0, 400))
        #expect(proxy.taken(rig) == [.connectionParameters(address: Self.heart, error: -1)])
        #expect(rig.hosts[0].connectionUpdates.isEmpty)
    }
}
