import ESPHomeAPI
import HostCore
import Testing
import Wire
@testable import Gateway

/// The Home Assistant Bluetooth proxy inside the gateway, over scripted hosts: what each request
/// of an ESPHome API client does to the adapters, and what the client is told.
@Suite struct BluetoothProxyTests {
    static let heartNumber: UInt64 = 0xC100_0000_0001
    static let speedNumber: UInt64 = 0xC200_0000_0001
    let heartAd = GatewayRig.advertisingData(.heartRate, name: "Heart 1")

    /// A proxy-only gateway (ESPHome's API, no broker, no devices): it connects nothing itself.
    static func proxyConfiguration() -> GatewayConfiguration {
        var c = GatewayConfiguration()
        c.esphome.listen = ":6053"
        return c
    }

    func rig(adapters: Int = 1, configuration: GatewayConfiguration = proxyConfiguration(), cache: GATTCacheStore? = nil) -> GatewayRig {
        GatewayRig(adapters: adapters, configuration: configuration, proxy: true, cache: cache)
    }

    func request(_ rig: GatewayRig, _ m: ClientMessage, client: Int = 1, shortUUIDs: Bool = true) {
        rig.controller.proxyRequest(m, client: client, shortUUIDs: shortUUIDs, at: rig.now)
        rig.collect()
    }

    /// Messages client `client` got since the last call.
    func taken(_ rig: GatewayRig, client: Int = 1) -> [ServerMessage] {
        defer { rig.proxied.removeAll() }
        return rig.proxied.filter { $0.client == client }.map(\.message)
    }

    /// Client 1 connects to the heart sensor (v3) and the link comes up with `mtu`.
    func connectHeart(_ rig: GatewayRig, withCache: Bool = false, mtu: UInt16 = 247) throws -> LinkID {
        request(rig, .deviceRequest(address: Self.heartNumber, kind: withCache ? .connectV3WithCache : .connectV3WithoutCache, addressType: 1))
        let link = try #require(rig.hosts[0].link(to: GatewayRig.heart))
        rig.event(.linkState(link, .connected), adapter: 0)
        rig.event(.mtuChanged(link, mtu), adapter: 0)
        if !withCache { rig.event(.databaseReady(link, GatewayRig.heartDatabase, fromCache: false), adapter: 0) }
        rig.event(.linkState(link, .ready), adapter: 0)
        return link
    }

    @Test func aProxyOnlyGatewayConnectsNothingAndDoesNotScanUntilAClientSubscribes() {
        let rig = rig()
        rig.advertise(GatewayRig.heart, heartAd, adapter: 0, rssi: -50)
        rig.advance(milliseconds: 1000)
        #expect(rig.hosts[0].connects.isEmpty, "no device of its own accord")
        #expect(rig.hosts[0].scanRequests.isEmpty)
        request(rig, .subscribeAdvertisements(flags: 1))
        #expect(rig.hosts[0].scanRequests == [true])
        #expect(taken(rig) == [.scannerState(.running, mode: .active, configuredMode: .active)])
        request(rig, .unsubscribeAdvertisements)
        #expect(rig.hosts[0].scanRequests == [true, false])
    }

    @Test func advertisementsGoToTheSubscriberBatchedWithRSSIAndAddressTypeAndTheScanResponseAsItsOwnEntry() {
        let rig = rig()
        request(rig, .subscribeAdvertisements(flags: 1))
        _ = taken(rig)
        let response: [UInt8] = [0x08, 0x09] + Array("Heart 1".utf8)
        rig.controller.hostEvent(.advertisement(AdvertisementReport(address: GatewayRig.heart, rssi: -61, connectable: true, scannable: true,
                                                                    isScanResponse: false, data: heartAd[...])), adapter: 0, at: rig.now)
        rig.controller.hostEvent(.advertisement(AdvertisementReport(address: GatewayRig.heart, rssi: -62, connectable: true, scannable: true,
                                                                    isScanResponse: true, data: response[...])), adapter: 0, at: rig.now)
        rig.collect()
        #expect(taken(rig) == [.rawAdvertisements([
            ProxyRawAdvertisement(address: Self.heartNumber, rssi: -61, addressType: 1, data: heartAd),
            ProxyRawAdvertisement(address: Self.heartNumber, rssi: -62, addressType: 1, data: response),
        ])], "one batch for the turn")
        for i in 0..<20 {
            rig.controller.hostEvent(.advertisement(AdvertisementReport(address: GatewayRig.speed, rssi: Int8(-40 - i), connectable: false,
                                                                        scannable: false, isScanResponse: false, data: [0x02, 0x01, 0x06])),
                                     adapter: 0, at: rig.now)
        }
        rig.collect()
        let batches = taken(rig).compactMap { m -> Int? in if case let .rawAdvertisements(a) = m { return a.count } else { return nil } }
        #expect(batches == [16, 4], "at most ESPHome's 16 a message")
    }

    @Test func onlyOneClientTakesTheAdvertisementsAndAClientThatLeavesReleasesThem() {
        let rig = rig()
        request(rig, .subscribeAdvertisements(flags: 1), client: 1)
        request(rig, .subscribeAdvertisements(flags: 1), client: 2)
        #expect(rig.proxied.filter { $0.client == 2 }.isEmpty, "refused, as ESPHome refuses a second subscription")
        rig.advertise(GatewayRig.heart, heartAd, adapter: 0, rssi: -50)
        #expect(rig.proxied.contains { entry in
            guard entry.client == 1, case .rawAdvertisements = entry.message else { return false }
            return true
        })
        rig.controller.proxyClientClosed(client: 1, at: rig.now)
        rig.collect()
        #expect(rig.hosts[0].scanRequests == [true, false], "nobody takes them: the scan stops")
        request(rig, .subscribeAdvertisements(flags: 1), client: 2)
        #expect(taken(rig, client: 2).first == .scannerState(.running, mode: .active, configuredMode: .active))
    }

    @Test func thePassiveModeAClientChoosesIsTheScanAndIsKept() {
        let rig = rig()
        request(rig, .subscribeAdvertisements(flags: 1))
        _ = taken(rig)
        request(rig, .setScannerMode(.passive))
        #expect(taken(rig) == [.scannerState(.running, mode: .passive, configuredMode: .active)])
        #expect(rig.hosts[0].scanRequests == [true, true], "the running scan changed")
        #expect(rig.controller.adapters[0].scanActive == false)
        request(rig, .unsubscribeAdvertisements)
        request(rig, .subscribeAdvertisements(flags: 1))
        #expect(taken(rig).last == .scannerState(.running, mode: .passive, configuredMode: .active))
        #expect(rig.controller.adapters[0].scanActive == false)
    }

    @Test func connectionsFreeAreSentWhenSubscribedAndOnEveryChange() throws {
        let rig = rig(adapters: 2)
        request(rig, .subscribeConnectionsFree)
        #expect(taken(rig) == [.connectionsFree(free: 10, limit: 10, allocated: [])], "5 assumed on each adapter until one refuses")
        _ = try connectHeart(rig)
        #expect(taken(rig).contains(.connectionsFree(free: 9, limit: 10, allocated: [Self.heartNumber])))
        request(rig, .deviceRequest(address: Self.heartNumber, kind: .disconnect, addressType: nil))
        let link = try #require(rig.hosts[0].link(to: GatewayRig.heart))
        rig.event(.disconnected(link, reason: HCIStatus(rawValue: 0x16), willReconnect: false), adapter: 0)
        #expect(taken(rig) == [.connection(address: Self.heartNumber, connected: false, mtu: 0, error: 0x16),
                               .connectionsFree(free: 10, limit: 10, allocated: [])])
    }

    @Test func theGatewaysOwnDevicesAndALearnedLimitLeaveTheProxyFewerSlots() throws {
        var c = Self.proxyConfiguration()
        var rule = DeviceRule()
        rule.address = GatewayRig.speed.address
        c.devices = [rule]
        let rig = rig(configuration: c)
        rig.advertise(GatewayRig.speed, GatewayRig.advertisingData(.runningSpeedAndCadence), adapter: 0, rssi: -40)
        rig.advance(milliseconds: 600)
        #expect(rig.hosts[0].link(to: GatewayRig.speed) != nil, "the configured device is connected")
        request(rig, .subscribeConnectionsFree)
        #expect(taken(rig) == [.connectionsFree(free: 4, limit: 4, allocated: [])])
        rig.controller.adapters[0].slotLimit = 2
        rig.collect()
        #expect(taken(rig) == [.connectionsFree(free: 1, limit: 1, allocated: [])])
        _ = try connectHeart(rig)
        #expect(taken(rig).contains(.connectionsFree(free: 0, limit: 1, allocated: [Self.heartNumber])))
        request(rig, .deviceRequest(address: Self.speedNumber, kind: .connectV3WithoutCache, addressType: 1))
        #expect(taken(rig) == [.connection(address: Self.speedNumber, connected: false, mtu: 0, error: 0x91)],
                "the gateway's own device: refused as already open")
        let other: UInt64 = 0xC300_0000_0001
        request(rig, .deviceRequest(address: other, kind: .connectV3WithoutCache, addressType: 1))
        #expect(taken(rig) == [.connection(address: other, connected: false, mtu: 0, error: 0)], "no slot left: ESPHome's answer")
    }

    @Test func aProxyLinkTakesAnAdapterSlotFromTheGatewaysOwnDevicesUntilItEnds() throws {
        var c = Self.proxyConfiguration()
        var rule = DeviceRule()
        rule.address = GatewayRig.speed.address
        c.devices = [rule]
        let rig = rig(configuration: c)
        rig.controller.adapters[0].slotLimit = 1
        let link = try connectHeart(rig)
        rig.advertise(GatewayRig.speed, GatewayRig.advertisingData(.runningSpeedAndCadence), adapter: 0, rssi: -40)
        rig.advance(milliseconds: 600)
        #expect(rig.hosts[0].link(to: GatewayRig.speed) == nil, "the only slot is the proxy's")
        #expect(rig.lastText(on: "rtstack/gw/\(TopicLevel.fromAddress(GatewayRig.speed.address.string))/state")?
                    .contains("waiting_for_slot") == true)
        rig.event(.disconnected(link, reason: HCIStatus(rawValue: 0x13), willReconnect: false), adapter: 0)
        #expect(rig.hosts[0].link(to: GatewayRig.speed) != nil, "placed once the proxy's link ended")
    }

    @Test func connectWithoutCacheDiscoversAndAnswersOnceReadyWithTheMTU() throws {
        let rig = rig()
        request(rig, .deviceRequest(address: Self.heartNumber, kind: .connectV3WithoutCache, addressType: 1))
        let connect = try #require(rig.hosts[0].connects.first)
        #expect(connect.peer == GatewayRig.heart)
        #expect(connect.plan.discover && connect.plan.reconnect == nil && connect.plan.subscriptions.isEmpty)
        rig.event(.linkState(connect.link, .connected), adapter: 0)
        rig.event(.mtuChanged(connect.link, 185), adapter: 0)
        #expect(taken(rig).isEmpty, "not before it is ready")
        rig.event(.databaseReady(connect.link, GatewayRig.heartDatabase, fromCache: false), adapter: 0)
        rig.event(.linkState(connect.link, .ready), adapter: 0)
        #expect(taken(rig) == [.connection(address: Self.heartNumber, connected: true, mtu: 185, error: 0)])
        request(rig, .deviceRequest(address: Self.heartNumber, kind: .connectV3WithoutCache, addressType: 1))
        #expect(taken(rig) == [.connection(address: Self.heartNumber, connected: true, mtu: 185, error: 0)], "asked again: told again")
        #expect(rig.hosts[0].connects.count == 1)
    }

    @Test func connectWithCacheSkipsDiscoveryAndGetServicesDiscoversOnDemand() throws {
        let rig = rig()
        let link = try connectHeart(rig, withCache: true)
        #expect(rig.hosts[0].connects.first?.plan.discover == false)
        #expect(taken(rig).first == .connection(address: Self.heartNumber, connected: true, mtu: 247, error: 0))
        request(rig, .getServices(address: Self.heartNumber))
        let op = try #require(rig.hosts[0].operations.last)
        guard case .discoverAll = op.operation else { Issue.record("discovery, got \(op.operation)"); return }
        rig.event(.operationCompleted(op.op, .success(.database(GatewayRig.heartDatabase))), adapter: 0)
        let messages = taken(rig)
        #expect(messages.count == 3 && messages.last == .servicesDone(address: Self.heartNumber))
        _ = link
    }

    @Test func servicesGoOnePerServiceWithShortUUIDsWhenTheClientTakesThem() throws {
        let rig = rig()
        _ = try connectHeart(rig)
        _ = taken(rig)
        request(rig, .getServices(address: Self.heartNumber), shortUUIDs: true)
        let services = ProxyServiceList.services(of: GatewayRig.heartDatabase)
        #expect(taken(rig) == [.services(address: Self.heartNumber, [services[0]], shortUUIDs: true),
                               .services(address: Self.heartNumber, [services[1]], shortUUIDs: true),
                               .servicesDone(address: Self.heartNumber)])
        #expect(services[0].characteristics.map(\.handle) == [0x12, 0x15, 0x17], "value handles")
        #expect(services[0].characteristics[0].descriptors.map(\.handle) == [0x13])
        #expect(services[0].uuid.short == 0x180D)
        request(rig, .getServices(address: Self.heartNumber), shortUUIDs: false)
        #expect(taken(rig).first == .services(address: Self.heartNumber, [services[0]], shortUUIDs: false))
    }

    @Test func readsAndWritesAnswerByAddressAndHandleAndATTErrorsKeepTheirCode() throws {
        let rig = rig()
        let link = try connectHeart(rig)
        _ = taken(rig)
        request(rig, .read(address: Self.heartNumber, handle: 0x15))
        let read = try #require(rig.hosts[0].operations.last)
        guard case .read(0x15) = read.operation, read.link == link else { Issue.record("a read of 0x15, got \(read.operation)"); return }
        rig.event(.operationCompleted(read.op, .success(.value([0x01]))), adapter: 0)
        #expect(taken(rig) == [.readResponse(address: Self.heartNumber, handle: 0x15, data: [0x01])])

        request(rig, .read(address: Self.heartNumber, handle: 0x17))
        let refused = try #require(rig.hosts[0].operations.last)
        rig.event(.operationCompleted(refused.op, .failure(.att(error: 0x02, request: 0x0A, handle: 0x17))), adapter: 0)
        #expect(taken(rig) == [.gattError(address: Self.heartNumber, handle: 0x17, error: 0x02)], "Read Not Permitted, as ESPHome reports it")

        request(rig, .write(address: Self.heartNumber, handle: 0x17, withResponse: true, data: [0x01]))
        let write = try #require(rig.hosts[0].operations.last)
        guard case .write(0x17, [0x01]) = write.operation else { Issue.record("a write, got \(write.operation)"); return }
        rig.event(.operationCompleted(write.op, .success(.done)), adapter: 0)
        #expect(taken(rig) == [.writeResponse(address: Self.heartNumber, handle: 0x17)])

        request(rig, .write(address: Self.heartNumber, handle: 0x17, withResponse: false, data: [0x02]))
        guard case .writeWithoutResponse(0x17, [0x02]) = try #require(rig.hosts[0].operations.last).operation else {
            Issue.record("a write without response"); return
        }
        #expect(taken(rig).isEmpty, "nothing to answer")

        request(rig, .readDescriptor(address: Self.heartNumber, handle: 0x13))
        let descriptor = try #require(rig.hosts[0].operations.last)
        rig.event(.operationCompleted(descriptor.op, .failure(.attTimeout(request: 0x0A))), adapter: 0)
        #expect(taken(rig) == [.gattError(address: Self.heartNumber, handle: 0x13, error: 0x85)], "no ATT code: ESP_GATT_ERROR")
    }

    @Test func withRemoteCachingTheClientWritesTheCCCDAndTheProxyOnlyForwards() throws {
        let rig = rig()
        let link = try connectHeart(rig)
        _ = taken(rig)
        let before = rig.hosts[0].operations.count
        rig.event(.notification(link, attributeHandle: 0x12, value: [0x00, 0x40]), adapter: 0)
        #expect(taken(rig).isEmpty, "not asked for yet")
        request(rig, .notify(address: Self.heartNumber, handle: 0x12, enable: true))
        #expect(taken(rig) == [.notifyResponse(address: Self.heartNumber, handle: 0x12)])
        #expect(rig.hosts[0].operations.count == before, "no CCCD written by the proxy")
        request(rig, .writeDescriptor(address: Self.heartNumber, handle: 0x13, data: [0x01, 0x00]))
        let cccd = try #require(rig.hosts[0].operations.last)
        guard case .write(0x13, [0x01, 0x00]) = cccd.operation else { Issue.record("the client's CCCD write, got \(cccd.operation)"); return }
        #expect(rig.hosts[0].operations.count == before + 1, "written once")
        rig.event(.operationCompleted(cccd.op, .success(.done)), adapter: 0)
        #expect(taken(rig) == [.writeResponse(address: Self.heartNumber, handle: 0x13)], "the descriptor's handle echoed")
        rig.event(.notification(link, attributeHandle: 0x12, value: [0x00, 0x48]), adapter: 0)
        rig.event(.indication(link, attributeHandle: 0x12, value: [0x00, 0x49]), adapter: 0)
        #expect(taken(rig) == [.notifyData(address: Self.heartNumber, handle: 0x12, data: [0x00, 0x48]),
                               .notifyData(address: Self.heartNumber, handle: 0x12, data: [0x00, 0x49])])
        request(rig, .notify(address: Self.heartNumber, handle: 0x12, enable: false))
        rig.event(.notification(link, attributeHandle: 0x12, value: [0x00, 0x50]), adapter: 0)
        #expect(taken(rig) == [.notifyResponse(address: Self.heartNumber, handle: 0x12)])
    }

    @Test func aDisconnectWithNoLinkIsAnsweredAtOnceAndGATTRequestsWithoutALinkAreNotConnected() {
        let rig = rig()
        request(rig, .deviceRequest(address: Self.heartNumber, kind: .disconnect, addressType: nil))
        #expect(taken(rig) == [.connection(address: Self.heartNumber, connected: false, mtu: 0, error: 0)])
        request(rig, .read(address: Self.heartNumber, handle: 0x15))
        request(rig, .getServices(address: Self.heartNumber))
        request(rig, .notify(address: Self.heartNumber, handle: 0x12, enable: true))
        #expect(taken(rig) == [.gattError(address: Self.heartNumber, handle: 0x15, error: -1),
                               .gattError(address: Self.heartNumber, handle: 0, error: -1),
                               .gattError(address: Self.heartNumber, handle: 0x12, error: -1)], "ESPHome's ESP_GATT_NOT_CONNECTED")
    }

    @Test func aPeerLostMidConnectionIsReportedWithItsReason() throws {
        let rig = rig()
        let link = try connectHeart(rig)
        request(rig, .read(address: Self.heartNumber, handle: 0x15))
        _ = taken(rig)
        rig.event(.disconnected(link, reason: HCIStatus(rawValue: 0x08), willReconnect: false), adapter: 0)
        #expect(taken(rig) == [.connection(address: Self.heartNumber, connected: false, mtu: 0, error: 0x08)],
                "Connection Timeout; the read in flight ends with it")
        let read = try #require(rig.hosts[0].operations.last)
        rig.event(.operationCompleted(read.op, .failure(.disconnected(HCIStatus(rawValue: 0x08)))), adapter: 0)
        #expect(taken(rig).isEmpty)
    }

    @Test func aConnectionThatFailsIsAnsweredWithTheControllersStatus() throws {
        let rig = rig()
        request(rig, .deviceRequest(address: Self.heartNumber, kind: .connectV3WithoutCache, addressType: 1))
        let link = try #require(rig.hosts[0].link(to: GatewayRig.heart))
        rig.event(.connectFailed(link, .connectionFailed(HCIStatus(rawValue: 0x3E)), willRetry: false), adapter: 0)
        #expect(taken(rig) == [.connection(address: Self.heartNumber, connected: false, mtu: 0, error: 0x3E)])
        request(rig, .subscribeConnectionsFree)
        #expect(taken(rig) == [.connectionsFree(free: 5, limit: 5, allocated: [])], "the slot is back")
    }

    @Test func anAttemptTheHostWouldRetryIsEndedThereAndAnsweredOnce() throws {
        let rig = rig()
        request(rig, .deviceRequest(address: Self.heartNumber, kind: .connectV3WithoutCache, addressType: 1))
        let link = try #require(rig.hosts[0].link(to: GatewayRig.heart))
        rig.event(.connectFailed(link, .connectTimeout(GatewayRig.heart), willRetry: true), adapter: 0)
        #expect(rig.hosts[0].disconnects == [link], "a proxy link is not retried behind the client's back")
        #expect(taken(rig) == [.connection(address: Self.heartNumber, connected: false, mtu: 0, error: 0x3E)])
        rig.event(.disconnected(link, reason: HCIStatus(rawValue: 0x44), willReconnect: false), adapter: 0)
        #expect(taken(rig).isEmpty, "the end of the cancelled attempt is not a second answer")
    }

    @Test func linksBelongToTheClientThatAskedAndGoWhenItLeaves() throws {
        let rig = rig()
        let link = try connectHeart(rig)
        _ = taken(rig)
        request(rig, .read(address: Self.heartNumber, handle: 0x15), client: 2)
        request(rig, .deviceRequest(address: Self.heartNumber, kind: .connectV3WithoutCache, addressType: 1), client: 2)
        #expect(taken(rig, client: 2) == [.gattError(address: Self.heartNumber, handle: 0x15, error: -1),
                                          .connection(address: Self.heartNumber, connected: false, mtu: 0, error: 0x91)])
        rig.controller.proxyClientClosed(client: 1, at: rig.now)
        rig.collect()
        #expect(rig.hosts[0].disconnects == [link])
        request(rig, .subscribeConnectionsFree, client: 2)
        #expect(taken(rig, client: 2) == [.connectionsFree(free: 4, limit: 5, allocated: [Self.heartNumber])],
                "its slot is held until the host reports the link gone")
        request(rig, .deviceRequest(address: Self.heartNumber, kind: .connectV3WithoutCache, addressType: 1), client: 2)
        #expect(taken(rig, client: 2) == [.connection(address: Self.heartNumber, connected: false, mtu: 0, error: 0x91)],
                "not while it is being ended")
        rig.event(.disconnected(link, reason: HCIStatus(rawValue: 0x16), willReconnect: false), adapter: 0)
        #expect(taken(rig, client: 2) == [.connectionsFree(free: 5, limit: 5, allocated: [])], "nobody told of it but the slots")
    }

    @Test func aLostAdapterTellsTheClientsOfItsLinks() throws {
        let rig = rig()
        _ = try connectHeart(rig)
        _ = taken(rig)
        rig.controller.adapterClosed(0, reason: "the transport ended", at: rig.now)
        rig.collect()
        #expect(taken(rig) == [.connection(address: Self.heartNumber, connected: false, mtu: 0, error: 0x16)])
    }

    @Test func pairingIsRefusedWithESPHomesNotSupportedAndClearingTheCacheWorks() throws {
        final class Cache: GATTCacheStore {
            var stored: [DeviceAddress: GATTDatabase] = [:]
            func database(for peer: DeviceAddress) -> GATTDatabase? { stored[peer] }
            func store(_ database: GATTDatabase, for peer: DeviceAddress) { stored[peer] = database }
            func remove(for peer: DeviceAddress) { stored[peer] = nil }
        }
        let cache = Cache()
        let rig = rig(cache: cache)
        _ = try connectHeart(rig)
        #expect(cache.stored[GatewayRig.heart] != nil, "what the proxy discovered is cached")
        _ = taken(rig)
        request(rig, .deviceRequest(address: Self.heartNumber, kind: .pair, addressType: nil))
        request(rig, .deviceRequest(address: Self.heartNumber, kind: .unpair, addressType: nil))
        request(rig, .deviceRequest(address: Self.heartNumber, kind: .clearCache, addressType: nil))
        request(rig, .setConnectionParameters(address: Self.heartNumber, minimumInterval: 6, maximumInterval: 12, latency: 0, timeout: 400))
        #expect(taken(rig) == [.pairing(address: Self.heartNumber, paired: false, error: 0x106),
                               .unpairing(address: Self.heartNumber, success: false, error: 0x106),
                               .clearCache(address: Self.heartNumber, success: true, error: 0),
                               .connectionParameters(address: Self.heartNumber, error: 0x106)])
        #expect(cache.stored.isEmpty)
        let features = GatewayController.proxyFeatures(pairing: false)
        #expect(features.contains([.passiveScan, .activeConnections, .remoteCaching, .rawAdvertisements, .stateAndMode, .cacheClearing]))
        #expect(!features.contains(.pairing) && !features.contains(.connectionParameters), "only what works is claimed")
    }

    @Test func theAdaptersPublishedLinksCountTheProxysToo() throws {
        let rig = rig()
        #expect(rig.lastText(on: "rtstack/gw/adapter/hci0")?.contains(#""links":0"#) == true)
        let link = try connectHeart(rig)
        #expect(rig.lastText(on: "rtstack/gw/adapter/hci0")?.contains(#""links":1"#) == true)
        rig.event(.disconnected(link, reason: HCIStatus(rawValue: 0x13), willReconnect: false), adapter: 0)
        #expect(rig.lastText(on: "rtstack/gw/adapter/hci0")?.contains(#""links":0"#) == true)
    }

    @Test func theStatusLineCountsTheProxysLinks() throws {
        let rig = rig()
        #expect(rig.controller.statusLine == "0 of 0 devices connected, 1 of 1 adapters up, 0 Bluetooth proxy links")
        _ = try connectHeart(rig)
        #expect(rig.controller.statusLine.hasSuffix(", 1 Bluetooth proxy link"))
    }

    @Test func aReloadLeavesTheAPIAsItIsAndSaysItNeedsARestart() throws {
        let rig = rig()
        var changed = Self.proxyConfiguration()
        changed.esphome.listen = ":6054"
        #expect(rig.controller.reload(changed, at: rig.now) == ["esphome"])
        #expect(rig.controller.configuration.esphome.listen == ":6053")
    }

    @Test func addressesAreTheIntegerESPHomeCarriesMostSignificantByteFirst() {
        #expect(ProxyAddress.number(GatewayRig.heart.address) == 0xC100_0000_0001)
        #expect(ProxyAddress.address(0xC100_0000_0001) == GatewayRig.heart.address)
        #expect(ProxyAddress.type(LEAddressType.randomDevice) == 1 && ProxyAddress.type(LEAddressType.publicDevice) == 0)
    }
}
