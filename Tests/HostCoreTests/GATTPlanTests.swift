import Testing
import Wire
@testable import HostCore

@Suite struct GATTPlanTests {
    static let heartRate = Subscription(service: BluetoothUUID(0x180D), characteristic: BluetoothUUID(0x2A37))

    /// Requests the server saw up to and including the first CCCD write, i.e. what a link
    /// costs before notifications can flow; nil when nothing was subscribed.
    private func requestsBeforeStreaming(_ h: GATTHarness) -> Int? {
        guard !h.subscribed.isEmpty, let firstCCCD = h.server.requests.firstIndex(of: .writeRequest) else { return nil }
        return firstCCCD + 1
    }

    // Cold: Exchange MTU → discovery → CCCD → ready (Docs/host-core.md).
    @Test func coldPlanForAHeartRateSensor() throws {
        let server = GATTFixtures.heartRateServer()
        server.serverRxMTU = 247
        let h = GATTHarness(server: server, plan: GATTHarness.plan(mtu: 247, discover: true, subscriptions: [Self.heartRate]))
        h.linkUp()
        #expect(h.linkStates == [.mtu, .discovering, .subscribing, .ready])
        #expect(h.mtuChanges == [247])
        #expect(h.readyDatabases.count == 1)
        #expect(h.readyDatabases.first?.0 == GATTFixtures.heartRateDatabase)
        #expect(h.readyDatabases.first?.1 == false)
        #expect(h.subscribed.map(\.0) == [BluetoothUUID(0x2A37)])
        #expect(h.subscribed.map(\.1) == [0x000E])
        #expect(h.server.writes.map(\.handle) == [0x000F])
        #expect(h.session.state == .ready)
        #expect(h.server.requests.first == .exchangeMTURequest)
        #expect(h.server.inFlightViolations == 0)
        #expect(h.session.requestsSent == h.server.requests.count)
        #expect(h.server.requests.count == 12)
    }

    // Warm: the cache's Database Hash matches → Read By Type 0x2B2A, CCCD write: 2 requests
    // before streaming; Exchange MTU after the subscriptions.
    @Test func warmPlanWithMatchingHashUsesTwoRequests() throws {
        let server = GATTFixtures.heartRateServer()
        server.serverRxMTU = 247
        let h = GATTHarness(server: server, plan: GATTHarness.plan(mtu: 247, discover: true, subscriptions: [Self.heartRate],
                                                                    cache: GATTFixtures.heartRateDatabase))
        h.linkUp()
        #expect(requestsBeforeStreaming(h) == 2)
        #expect(h.server.requests == [.readByTypeRequest, .writeRequest, .exchangeMTURequest])
        #expect(h.linkStates == [.discovering, .subscribing, .mtu, .ready])
        #expect(h.readyDatabases.map(\.1) == [true])
        #expect(h.databaseChangedCount == 0)
        #expect(h.subscribed.map(\.1) == [0x000E])
        #expect(h.mtuChanges == [247])
    }

    @Test func warmPlanWithoutMTUNeedsOnlyTwoRequests() {
        let h = GATTHarness(server: GATTFixtures.heartRateServer(),
                            plan: GATTHarness.plan(mtu: 23, subscriptions: [Self.heartRate], cache: GATTFixtures.heartRateDatabase))
        h.linkUp()
        #expect(h.server.requests == [.readByTypeRequest, .writeRequest])
        #expect(h.linkStates == [.discovering, .subscribing, .ready])
    }

    // A different hash: the cache is stale → databaseChanged, then MTU and full discovery.
    @Test func warmPlanWithDifferentHashRediscovers() {
        let server = GATTFixtures.heartRateServer(hash: Array(repeating: 0x11, count: 16))
        let h = GATTHarness(server: server, plan: GATTHarness.plan(mtu: 247, discover: true, subscriptions: [Self.heartRate],
                                                                    cache: GATTFixtures.heartRateDatabase))
        h.linkUp()
        #expect(h.databaseChangedCount == 1)
        #expect(h.readyDatabases.map(\.1) == [false])
        #expect(h.readyDatabases.first?.0.databaseHash == Array(repeating: 0x11, count: 16))
        #expect(h.linkStates == [.discovering, .mtu, .discovering, .subscribing, .ready])
        #expect(h.server.requests.prefix(2) == [.readByTypeRequest, .exchangeMTURequest])
        #expect(h.subscribed.map(\.1) == [0x000E])
    }

    // A cache without a hash is trusted: only the CCCD write before streaming.
    @Test func warmPlanForAThingyTrustsACacheWithoutHash() throws {
        let cold = GATTHarness(server: GATTFixtures.thingyServer())
        cold.linkUp()
        guard case let .success(.database(db))? = cold.result(cold.perform(.discoverAll)) else {
            Issue.record("no database")
            return
        }
        let subscription = Subscription(service: GATTFixtures.thingyEnvironment, characteristic: GATTFixtures.thingyTemperature)
        let h = GATTHarness(server: GATTFixtures.thingyServer(),
                            plan: GATTHarness.plan(mtu: 247, subscriptions: [subscription], cache: db))
        h.linkUp()
        #expect(h.server.requests == [.writeRequest, .exchangeMTURequest])
        #expect(h.readyDatabases.map(\.1) == [true])
        #expect(h.linkStates == [.subscribing, .mtu, .ready])
        let temperature = try #require(db.characteristic(GATTFixtures.thingyTemperature))
        #expect(h.subscribed.map(\.1) == [temperature.valueHandle])
    }

    @Test func missingSubscriptionIsWarnedAndSkipped() {
        let subscriptions = [
            Subscription(characteristic: BluetoothUUID(0x2A53)),
            Self.heartRate,
            Subscription(service: BluetoothUUID(0x1816), characteristic: BluetoothUUID(0x2A19)),
            Subscription(characteristic: BluetoothUUID(0x2A38)),
        ]
        let h = GATTHarness(server: GATTFixtures.heartRateServer(),
                            plan: GATTHarness.plan(subscriptions: subscriptions, cache: GATTFixtures.heartRateDatabase))
        h.linkUp()
        #expect(h.session.state == .ready)
        #expect(h.subscribed.map(\.0) == [BluetoothUUID(0x2A37)])
        #expect(h.warnings.count == 3)
        #expect(h.warnings[0].contains("2A53"))
        #expect(h.warnings[1].contains("2A19") && h.warnings[1].contains("1816"))
        #expect(h.warnings[2].contains("2A38") && h.warnings[2].contains("0x2902"))
    }

    @Test func failedCCCDWriteIsWarnedAndThePlanGoesOn() {
        let server = GATTFixtures.heartRateServer()
        server.handleErrors[0x000F] = .insufficientAuthentication
        let battery = Subscription(characteristic: BluetoothUUID(0x2A19))
        let h = GATTHarness(server: server, plan: GATTHarness.plan(subscriptions: [Self.heartRate, battery],
                                                                    cache: GATTFixtures.heartRateDatabase))
        h.linkUp()
        #expect(h.subscribed.map(\.0) == [BluetoothUUID(0x2A19)])
        #expect(h.warnings.count == 1)
        #expect(h.warnings.first?.contains("Insufficient Authentication") == true)
        #expect(h.session.state == .ready)
    }

    // Vol 3, Part G, §7.1 Service Changed: forget the database, discover and subscribe again.
    @Test func serviceChangedIndicationRediscoversAndResubscribes() throws {
        let server = GATTFixtures.heartRateServer()
        let h = GATTHarness(server: server, plan: GATTHarness.plan(discover: true, subscriptions: [Self.heartRate]))
        h.linkUp()
        #expect(h.session.state == .ready)
        h.clearEvents()

        // The peer adds a service in front of Heart Rate; handles move by 4.
        let moved = GATTFixtures.heartRateServer(hash: Array(repeating: 0x22, count: 16))
        var attributes = moved.attributes
        for i in attributes.indices where attributes[i].handle >= 0x000C {
            attributes[i].handle += 4
            if let end = attributes[i].groupEnd { attributes[i].groupEnd = end + 4 }
            if attributes[i].type == .characteristic {
                attributes[i].value[1] &+= 4
            }
        }
        var b = FakeGATTBuilder()
        b.skip(to: 0x000C)
        b.service(BluetoothUUID(0x1805)) { s in s.characteristic(BluetoothUUID(0x2A2B), .read, value: [0]) }
        attributes += b.attributes
        server.replaceAttributes(attributes)

        server.indicate(handle: 0x0008, value: [0x0C, 0x00, 0xFF, 0xFF])
        h.pump()
        #expect(server.confirmations == 1)
        #expect(h.databaseChangedCount == 1)
        #expect(h.linkStates == [.discovering, .subscribing, .ready])
        let db = try #require(h.readyDatabases.last?.0)
        #expect(db.services.count == 5)
        #expect(db.characteristic(BluetoothUUID(0x2A37))?.valueHandle == 0x0012)
        #expect(h.subscribed.map(\.1) == [0x0012])
        #expect(server.writes.last?.handle == 0x0013)
        #expect(server.writes.last?.value == [0x01, 0x00])
    }

    @Test func serviceChangedDuringThePlanRestartsIt() {
        let server = GATTFixtures.heartRateServer()
        let h = GATTHarness(server: server, plan: GATTHarness.plan(subscriptions: [Self.heartRate],
                                                                    cache: GATTFixtures.heartRateDatabase))
        // Hold the hash read, indicate Service Changed, then answer.
        server.stall = true
        h.linkUp()
        #expect(server.requests == [.readByTypeRequest])
        server.stall = false
        server.indicate(handle: 0x0008, value: [0x01, 0x00, 0xFF, 0xFF])
        server.injectResponse(ATTPDU.readByTypeResponse([ATTHandleValue(handle: 0x000B, value: GATTFixtures.hash)]).encoded)
        h.pump()
        #expect(h.databaseChangedCount == 1)
        // The stale hash answer is dropped: no cache adoption, a full discovery instead.
        #expect(h.readyDatabases.map(\.1) == [false])
        #expect(h.session.state == .ready)
        #expect(h.subscribed.map(\.1) == [0x000E])
        #expect(server.inFlightViolations == 0)
    }

    // The MTU exchange is about the bearer, not the database: Service Changed during it must
    // not drop the new MTU.
    @Test func serviceChangedDuringTheMTUExchangeKeepsTheMTU() {
        let server = GATTFixtures.heartRateServer()
        server.serverRxMTU = 247
        server.stallOpcodes = [ATTOpcode.exchangeMTURequest.rawValue]
        var cache = GATTFixtures.heartRateDatabase
        cache.databaseHash = nil
        let h = GATTHarness(server: server, plan: GATTHarness.plan(mtu: 247, subscriptions: [Self.heartRate], cache: cache))
        h.linkUp()
        #expect(h.linkStates == [.subscribing, .mtu])
        server.stallOpcodes = []
        server.indicate(handle: 0x0008, value: [0x01, 0x00, 0xFF, 0xFF])
        server.injectResponse(ATTPDU.exchangeMTUResponse(serverRxMTU: 247).encoded)
        h.pump()
        #expect(h.session.mtu == 247)
        #expect(h.mtuChanges == [247])
        #expect(h.databaseChangedCount == 1)
        #expect(h.linkStates == [.subscribing, .mtu, .discovering, .subscribing, .ready])
        #expect(h.server.requests.filter { $0 == .exchangeMTURequest }.count == 1)
    }

    @Test func indicationOnAnotherCharacteristicIsNotServiceChanged() {
        let h = GATTHarness(server: GATTFixtures.heartRateServer(),
                            plan: GATTHarness.plan(discover: true, subscriptions: [Self.heartRate]))
        h.linkUp()
        let before = h.server.requests.count
        h.server.indicate(handle: 0x0016, value: [1])
        h.pump()
        #expect(h.databaseChangedCount == 0)
        #expect(h.server.requests.count == before)
    }

    // Operations asked while the plan runs wait for it (one request in flight).
    @Test func userOperationsQueueBehindThePlan() {
        let server = GATTFixtures.heartRateServer()
        server.stall = true
        let h = GATTHarness(server: server, plan: GATTHarness.plan(mtu: 247, discover: true, subscriptions: [Self.heartRate]))
        h.linkUp()
        let read = h.perform(.read(handle: 0x0011))
        #expect(server.requests == [.exchangeMTURequest])
        server.stall = false
        server.injectResponse(ATTPDU.exchangeMTUResponse(serverRxMTU: 23).encoded)
        h.pump()
        #expect(h.value(read) == [0x01])
        let readyAt = h.index { if case .linkState(_, .ready) = $0 { return true } else { return false } }
        let readAt = h.index { if case .operationCompleted = $0 { return true } else { return false } }
        #expect(readyAt != nil && readAt != nil && readyAt! < readAt!)
        #expect(server.requests.last == .readRequest)
        #expect(server.inFlightViolations == 0)
    }

    @Test func planWithNothingToDoIsReadyAtOnce() {
        let h = GATTHarness(server: GATTFixtures.heartRateServer(), plan: GATTHarness.plan())
        h.linkUp()
        #expect(h.linkStates == [.ready])
        #expect(h.server.requests.isEmpty)
    }

    @Test func peerRefusingExchangeMTUDoesNotStopThePlan() {
        let server = GATTFixtures.heartRateServer()
        server.opcodeErrors[ATTOpcode.exchangeMTURequest.rawValue] = .requestNotSupported
        let h = GATTHarness(server: server, plan: GATTHarness.plan(mtu: 247, discover: true))
        h.linkUp()
        #expect(h.session.state == .ready)
        #expect(h.session.mtu == 23)
        #expect(h.warnings.count == 1)
        #expect(h.readyDatabases.count == 1)
    }

    /// The request counts quoted in the GATT report, kept here so a change shows.
    @Test func requestCountsColdAndWarm() throws {
        func run(_ server: FakeATTServer, _ plan: LinkPlan) -> (total: Int, beforeStreaming: Int?) {
            let h = GATTHarness(server: server, plan: plan)
            h.linkUp()
            #expect(h.session.state == .ready)
            return (h.server.requests.count, requestsBeforeStreaming(h))
        }
        let hr = GATTFixtures.heartRateServer()
        hr.serverRxMTU = 247
        let hrCold = run(hr, GATTHarness.plan(mtu: 247, discover: true, subscriptions: [Self.heartRate]))
        let hrWarm = run(GATTFixtures.heartRateServer(),
                         GATTHarness.plan(mtu: 247, discover: true, subscriptions: [Self.heartRate], cache: GATTFixtures.heartRateDatabase))
        let thingySub = Subscription(service: GATTFixtures.thingyEnvironment, characteristic: GATTFixtures.thingyTemperature)
        let th = GATTFixtures.thingyServer()
        th.serverRxMTU = 247
        let probe = GATTHarness(server: th, plan: GATTHarness.plan(mtu: 247, discover: true, subscriptions: [thingySub]))
        probe.linkUp()
        let thingyDB = try #require(probe.session.database)
        let thCold = (probe.server.requests.count, requestsBeforeStreaming(probe))
        let thWarm = run(GATTFixtures.thingyServer(), GATTHarness.plan(mtu: 247, discover: true, subscriptions: [thingySub], cache: thingyDB))
        #expect(hrCold.total == 12 && hrCold.beforeStreaming == 12)
        #expect(hrWarm.total == 3 && hrWarm.beforeStreaming == 2)
        #expect(thCold.0 == 35 && thCold.1 == 35)
        #expect(thWarm.total == 2 && thWarm.beforeStreaming == 1)
    }
}
