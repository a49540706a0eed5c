import Testing
import Timing
@testable import HostCore
import Wire

/// The whole host end to end: FakeController and the GATT test servers wired through ACL
/// (`HostGATTWorld`), so that every ATT PDU goes through L2CAP framing, fragmentation to the
/// controller's 27-byte ACL buffers, flow control, reassembly and the link's GATT session (Core
/// Spec v5.4 Vol 3, Part A, §3 and §7.2; Vol 4, Part E, §4.1.1, §5.4.2; Vol 3, Parts F and G).
@Suite struct HostGATTIntegrationTests {
    static let heartRate = Subscription(characteristic: .heartRateMeasurement)
    static let rsc = Subscription(characteristic: .rscMeasurement)
    static let thingyTemperature = Subscription(service: GATTFixtures.thingyEnvironment,
                                                characteristic: GATTFixtures.thingyTemperature)
    /// The whole cold plan, as each link of these tests goes through it.
    static let coldStates: [LinkState] = [.queued, .initiating, .connected, .mtu, .discovering, .subscribing, .ready]

    /// The default plan (ATT_MTU 247, discovery) with these subscriptions.
    static func plan(_ subscriptions: [Subscription], reconnect: Bool = false) -> LinkPlan {
        var plan = LinkPlan()
        plan.subscriptions = subscriptions
        if reconnect { plan.reconnect = Backoff.linkReconnect }
        return plan
    }

    static func succeeded(_ result: Result<GATTResult, HostError>?) -> Bool {
        if case .success? = result { return true }
        return false
    }

    static func isSubscribed(_ e: HostEvent) -> Bool {
        if case .subscribed = e { return true }
        return false
    }

    static func isMTUChanged(_ e: HostEvent) -> Bool {
        if case .mtuChanged = e { return true }
        return false
    }

    /// Service Changed value (Vol 3, Part G, §7.1): the affected range, here all of it.
    static let wholeRangeChanged: [UInt8] = [0x01, 0x00, 0xFF, 0xFF]

    // MARK: One sensor

    @Test func heartRateSensorFromConnectionToNotifications() throws {
        let world = HostGATTWorld()
        let fake = world.fake
        let sensor = world.addPeer(1, GATTFixtures.heartRateServer())
        let link = world.connect(sensor, plan: Self.plan([Self.heartRate]))

        #expect(fake.linkStates(link) == Self.coldStates)
        #expect(world.host.state(of: link) == .ready)
        // Exchange MTU (Vol 3, Part F, §3.4.2): both sides offer 247.
        #expect(fake.mtuChanges(link) == [247])
        #expect(world.fake.pulledHost.status(of: link)?.mtu == 247)
        #expect(sensor.server.mtu == 247)
        #expect(sensor.server.mtuResponsesReceived.isEmpty)
        let discovered = try #require(fake.databases(link).first)
        #expect(discovered.database == GATTFixtures.heartRateDatabase)
        #expect(!discovered.fromCache)
        #expect(fake.databases(link).count == 1)
        #expect(fake.subscriptions(link).map(\.characteristic) == [.heartRateMeasurement])
        #expect(fake.subscriptions(link).map(\.valueHandle) == [0x000E])
        // Its CCCD (0x000F) set to notifications (Vol 3, Part G, §3.3.3.3).
        #expect(sensor.server.writes.map(\.handle) == [0x000F])
        #expect(sensor.server.writes.first?.value == [0x01, 0x00])
        #expect(sensor.requestsThisConnection.first == .exchangeMTURequest)
        #expect(sensor.requestsThisConnection.contains(.readByGroupTypeRequest))
        #expect(sensor.requestsThisConnection.last == .writeRequest)
        // Answers at ATT_MTU 247 do not fit one 27-byte ACL packet: more packets than answers.
        #expect(world.inboundACLPackets > sensor.requestsThisConnection.count)
        // While the plan ran, the GATT session had its request in flight and its deadline; now
        // nothing waits for time.
        #expect(world.host.nextDeadline == nil)

        // Heart Rate Measurement (HRS 1.0, §3.1.1): flags 0x10 (UINT8 rate, RR-Intervals
        // present), 72 bpm, ten RR-Intervals: 22 bytes, 29 with the ATT and L2CAP headers, so
        // it arrives in two ACL packets.
        let measurement: [UInt8] = [0x10, 72] + (0..<10).flatMap { i in [UInt8(0x40 + i), 0x03] }
        let before = world.inboundACLPackets
        sensor.server.notify(handle: 0x000E, value: measurement)
        world.settle()
        #expect(world.inboundACLPackets == before + 2)
        #expect(fake.notifications(link).map(\.handle) == [0x000E])
        #expect(fake.notifications(link).first?.value == measurement)

        // A write longer than one ACL packet reaches the server whole, through fragments.
        let value = (0..<60).map { UInt8($0) }
        let op = world.perform(.write(handle: 0x0013, value: value), on: link)
        #expect(Self.succeeded(fake.result(op)))
        #expect(sensor.server.writes.last?.handle == 0x0013)
        #expect(sensor.server.writes.last?.value == value)
        #expect(world.fragmentedOutboundFrames == 1)

        #expect(world.problems.isEmpty)
        #expect(fake.violations.isEmpty)
        #expect(fake.warnings.isEmpty)
        #expect(sensor.server.inFlightViolations == 0)
        #expect(world.fake.pulledHost.aclCreditsInUse == 0)
    }

    @Test func unfragmentedInboundDataAsBumbleSendsIt() throws {
        // Bumble's virtual controller hands peer data over as one ACL packet, larger than the
        // buffer size it advertises (27), always with PB 0b10 (/work/shared/notes/test-world.md).
        let world = HostGATTWorld()
        world.inboundFragmentSize = 1024
        let fake = world.fake
        let sensor = world.addPeer(1, GATTFixtures.heartRateServer())
        let link = world.connect(sensor, plan: Self.plan([Self.heartRate]))
        #expect(fake.linkStates(link) == Self.coldStates)
        #expect(fake.databases(link).first?.database == GATTFixtures.heartRateDatabase)
        // One ACL packet per server PDU: the answers, nothing else.
        #expect(world.inboundACLPackets == sensor.requestsThisConnection.count)
        let measurement: [UInt8] = [0x10, 72] + (0..<10).flatMap { i in [UInt8(0x40 + i), 0x03] }
        sensor.server.notify(handle: 0x000E, value: measurement)
        world.settle()
        #expect(fake.notifications(link).map(\.value) == [measurement])
        #expect(world.problems.isEmpty)
        #expect(fake.warnings.isEmpty)
    }

    // MARK: Several sensors

    @Test func threeSensorsAtOnceEachGetsItsOwnNotifications() throws {
        let world = HostGATTWorld()
        let fake = world.fake
        let heart = world.addPeer(1, GATTFixtures.heartRateServer())
        let rsc = world.addPeer(2, GATTFixtures.runningSpeedAndCadenceServer())
        let thingy = world.addPeer(3, GATTFixtures.thingyServer())
        // All three asked for at once: the initiator takes them one at a time.
        let a = world.host.connect(to: heart.address, plan: Self.plan([Self.heartRate]), at: world.now)
        let b = world.host.connect(to: rsc.address, plan: Self.plan([Self.rsc]), at: world.now)
        let c = world.host.connect(to: thingy.address, plan: Self.plan([Self.thingyTemperature]), at: world.now)
        world.settle()

        for link in [a, b, c] {
            #expect(fake.linkStates(link) == Self.coldStates)
            #expect(world.host.state(of: link) == .ready)
            #expect(world.fake.pulledHost.status(of: link)?.mtu == 247)
        }
        #expect(Set(world.fake.pulledHost.links.compactMap { $0.connection?.handle }).count == 3)
        let rscMeasurement = try #require(rsc.server.handle(of: .rscMeasurement))
        let temperature = try #require(thingy.server.handle(of: GATTFixtures.thingyTemperature))
        #expect(rscMeasurement == 0x000A)
        #expect(fake.subscriptions(a).map(\.valueHandle) == [0x000E])
        #expect(fake.subscriptions(b).map(\.valueHandle) == [rscMeasurement])
        #expect(fake.subscriptions(c).map(\.valueHandle) == [temperature])
        // Each server got its own CCCD write, right after its value handle.
        #expect(heart.server.writes.map(\.handle) == [0x000F])
        #expect(rsc.server.writes.map(\.handle) == [rscMeasurement + 1])
        #expect(thingy.server.writes.map(\.handle) == [temperature + 1])

        // Interleaved notifications, each tagged with what its sender is.
        for i in 0..<5 {
            let n = UInt8(i)
            heart.server.notify(handle: 0x000E, value: [0x00, 60 + n])
            rsc.server.notify(handle: rscMeasurement, value: [0x00, 0x00, 0x03, 80 + n])
            thingy.server.notify(handle: temperature, value: [20 + n, 50])
        }
        world.settle()
        #expect(fake.notifications(a).map(\.handle) == Array(repeating: 0x000E, count: 5))
        #expect(fake.notifications(a).map(\.value) == (0..<5).map { [0x00, 60 + UInt8($0)] })
        #expect(fake.notifications(b).map(\.handle) == Array(repeating: rscMeasurement, count: 5))
        #expect(fake.notifications(b).map(\.value) == (0..<5).map { [0x00, 0x00, 0x03, 80 + UInt8($0)] })
        #expect(fake.notifications(c).map(\.handle) == Array(repeating: temperature, count: 5))
        #expect(fake.notifications(c).map(\.value) == (0..<5).map { [20 + UInt8($0), 50] })

        #expect(world.problems.isEmpty)
        #expect(fake.violations.isEmpty)
        #expect(fake.warnings.isEmpty)
        for p in [heart, rsc, thingy] { #expect(p.server.inFlightViolations == 0) }
    }

    @Test func aclCreditsNeverExceedTheControllersCount() throws {
        // Three buffers, given back one at a time, for three links streaming long writes.
        let world = HostGATTWorld(bufferCount: 3)
        world.completionsPerStep = 1
        let fake = world.fake
        let heart = world.addPeer(1, GATTFixtures.heartRateServer())
        let rsc = world.addPeer(2, GATTFixtures.runningSpeedAndCadenceServer())
        let thingy = world.addPeer(3, GATTFixtures.thingyServer())
        let a = world.host.connect(to: heart.address, plan: Self.plan([Self.heartRate]), at: world.now)
        let b = world.host.connect(to: rsc.address, plan: Self.plan([Self.rsc]), at: world.now)
        let c = world.host.connect(to: thingy.address, plan: Self.plan([Self.thingyTemperature]), at: world.now)
        world.settle()
        for link in [a, b, c] { #expect(world.host.state(of: link) == .ready) }
        #expect(world.fake.pulledHost.aclCreditCapacity == 3)

        // Write Commands of 200 bytes (Vol 3, Part F, §3.4.5.3): 207 L2CAP bytes, 8 ACL packets each.
        let controlPoint = try #require(rsc.server.handle(of: .scControlPoint))
        let thingyCommand = try #require(thingy.server.handle(of: GATTFixtures.thingy(0x0502)))
        let targets: [(LinkID, HostGATTWorld.Peer, UInt16)] = [(a, heart, 0x0013), (b, rsc, controlPoint), (c, thingy, thingyCommand)]
        for round in 0..<3 {
            for (link, _, handle) in targets {
                let value = (0..<200).map { UInt8(truncatingIfNeeded: $0 + round) }
                world.host.perform(.writeWithoutResponse(handle: handle, value: value), on: link, at: world.now)
            }
        }
        #expect(world.fake.pulledHost.aclCreditsInUse == 3)
        #expect(world.fake.pulledHost.aclPacketsQueued == 3 * 3 * 8 - 3)
        // Notifications keep arriving while the writes drain.
        heart.server.notify(handle: 0x000E, value: [0x00, 90])
        world.settle()

        #expect(world.maxCreditsInUse == 3)
        #expect(fake.maxACLInFlight == 3)
        #expect(world.maxPacketsQueued > 0)
        #expect(world.fake.pulledHost.aclPacketsQueued == 0)
        #expect(world.fake.pulledHost.aclCreditsInUse == 0)
        for (_, p, handle) in targets {
            #expect(p.server.commands.map(\.handle) == [handle, handle, handle])
            #expect(p.server.commands.map(\.value) == (0..<3).map { round in (0..<200).map { UInt8(truncatingIfNeeded: $0 + round) } })
        }
        #expect(fake.notifications(a).map(\.value) == [[0x00, 90]])
        #expect(world.problems.isEmpty)
        #expect(fake.violations.isEmpty)
    }

    // MARK: Reconnection and the cache

    @Test func reconnectionAfterADropUsesTheCachedDatabase() throws {
        let world = HostGATTWorld()
        let fake = world.fake
        let sensor = world.addPeer(1, GATTFixtures.heartRateServer())
        let link = world.connect(sensor, plan: Self.plan([Self.heartRate], reconnect: true))
        #expect(world.host.state(of: link) == .ready)
        #expect(sensor.requestsThisConnection.count > 5)
        world.clearRecord()

        world.advance(to: HostDuration.seconds(60))
        world.drop(sensor, reason: .connectionTimeout)
        #expect(fake.disconnections.map(\.0) == [link])
        #expect(fake.disconnections.map(\.2) == [true])
        #expect(world.host.state(of: link) == .waitingToReconnect)
        world.advance(by: HostDuration.milliseconds(250))
        #expect(sensor.connections == 2)
        #expect(world.host.state(of: link) == .ready)

        // Database Hash read (Read By Type 0x2B2A, Vol 3, Part G, §7.3), the CCCD write, and only
        // then Exchange MTU: notifications may flow after two requests.
        let warm = sensor.requestsThisConnection
        #expect(warm == [.readByTypeRequest, .writeRequest, .exchangeMTURequest])
        let beforeStreaming = (warm.firstIndex(of: .writeRequest) ?? warm.count) + 1
        #expect(beforeStreaming <= 2)
        let subscribedAt = try #require(fake.index(where: Self.isSubscribed))
        let mtuAt = try #require(fake.index(where: Self.isMTUChanged))
        #expect(subscribedAt < mtuAt)
        #expect(fake.databases(link).map(\.fromCache) == [true])
        #expect(fake.databases(link).first?.database == GATTFixtures.heartRateDatabase)
        #expect(fake.linkStates(link) == [.waitingToReconnect, .queued, .initiating, .connected,
                                          .discovering, .subscribing, .mtu, .ready])
        #expect(fake.subscriptions(link).map(\.valueHandle) == [0x000E])
        // The server forgot the CCCD with the connection; the host wrote it again.
        #expect(sensor.server.value(at: 0x000F) == [0x01, 0x00])
        #expect(world.fake.pulledHost.status(of: link)?.mtu == 247)
        #expect(world.fake.pulledHost.status(of: link)?.attempts == 0)

        sensor.server.notify(handle: 0x000E, value: [0x00, 75])
        world.settle()
        #expect(fake.notifications(link).map(\.value) == [[0x00, 75]])
        #expect(world.problems.isEmpty)
        #expect(fake.violations.isEmpty)
    }

    @Test func hardwareErrorMidPlanBringsTheLinkBackWarm() throws {
        let world = HostGATTWorld(bufferCount: 4)
        let fake = world.fake
        let heart = world.addPeer(1, GATTFixtures.heartRateServer())
        let rsc = world.addPeer(2, GATTFixtures.runningSpeedAndCadenceServer())
        let kept = world.connect(heart, plan: Self.plan([Self.heartRate], reconnect: true))
        #expect(world.host.state(of: kept) == .ready)
        // The second sensor is mid-discovery when the controller fails.
        rsc.server.stallOpcodes = [ATTOpcode.findInformationRequest.rawValue]
        let lost = world.connect(rsc, plan: Self.plan([Self.rsc]))
        #expect(world.host.state(of: lost) == .discovering)
        world.clearRecord()

        fake.hardwareError(0x01)
        world.settle()
        #expect(fake.controllerFailures.count == 1)
        #expect(fake.disconnections.map(\.0) == [kept, lost])
        #expect(fake.disconnections.map(\.2) == [true, false])
        #expect(world.host.isReady)
        #expect(world.host.state(of: lost) == .disconnected)
        // Reconnected at once after bring-up (no backoff: the peer did nothing wrong), from the cache.
        #expect(heart.connections == 2)
        #expect(world.host.state(of: kept) == .ready)
        #expect(fake.databases(kept).map(\.fromCache) == [true])
        #expect(heart.requestsThisConnection == [.readByTypeRequest, .writeRequest, .exchangeMTURequest])
        #expect(world.fake.pulledHost.aclCreditCapacity == 4)
        #expect(world.fake.pulledHost.aclCreditsInUse == 0)
        #expect(world.host.nextDeadline == nil)
        heart.server.notify(handle: 0x000E, value: [0x00, 66])
        world.settle()
        #expect(fake.notifications(kept).map(\.value) == [[0x00, 66]])
        #expect(world.problems.isEmpty)
        #expect(fake.violations.isEmpty)
    }

    // MARK: ATT transaction timeout

    @Test func attTimeoutDisconnectsAndThePolicyReconnects() throws {
        let world = HostGATTWorld()
        let fake = world.fake
        let sensor = world.addPeer(1, GATTFixtures.heartRateServer())
        // The sensor answers Exchange MTU, then never answers discovery.
        sensor.server.stallOpcodes = [ATTOpcode.readByGroupTypeRequest.rawValue]
        world.advance(to: HostDuration.seconds(5))
        let link = world.connect(sensor, plan: Self.plan([Self.heartRate], reconnect: true))
        #expect(world.host.state(of: link) == .discovering)
        #expect(sensor.requestsThisConnection == [.exchangeMTURequest, .readByGroupTypeRequest])
        let handle = try #require(sensor.handle)
        // A transaction not completed within 30 s times out (Vol 3, Part F, §3.3.3).
        #expect(world.host.nextDeadline == HostDuration.seconds(35))
        world.advance(to: HostDuration.seconds(35) - 1)
        #expect(fake.count(.disconnect) == 0)
        #expect(fake.disconnections.isEmpty)

        world.advance(to: HostDuration.seconds(35))
        // §3.3.3: no more ATT on this bearer; a new connection is the only way on.
        let disconnect = try #require(fake.commands(Disconnect.self).first)
        #expect(disconnect.connectionHandle == handle)
        #expect(disconnect.reason == .remoteUserTerminatedConnection)
        #expect(fake.count(.disconnect) == 1)
        #expect(fake.hasWarning(containing: "within 30 s"))
        #expect(fake.hasWarning(containing: "disconnecting"))
        #expect(fake.disconnections.map(\.0) == [link])
        #expect(fake.disconnections.map(\.1) == [.connectionTerminatedByLocalHost])
        #expect(fake.disconnections.map(\.2) == [true])
        #expect(world.host.state(of: link) == .waitingToReconnect)
        #expect(world.fake.pulledHost.status(of: link)?.reconnectAt == HostDuration.seconds(35) + HostDuration.milliseconds(250))

        // The sensor behaves on the next connection, which starts cold: nothing was learned.
        sensor.server.stallOpcodes = []
        world.advance(by: HostDuration.milliseconds(250))
        #expect(sensor.connections == 2)
        #expect(world.host.state(of: link) == .ready)
        #expect(Array(fake.linkStates(link).suffix(8)) == [.waitingToReconnect] + Self.coldStates)
        #expect(fake.databases(link).map(\.fromCache) == [false])
        #expect(fake.subscriptions(link).map(\.valueHandle) == [0x000E])
        #expect(sensor.requestsThisConnection.first == .exchangeMTURequest)
        #expect(world.host.nextDeadline == nil)
        #expect(world.problems.isEmpty)
        #expect(fake.violations.isEmpty)
    }

    @Test func attTimeoutWithoutAPolicyEndsTheLink() throws {
        let world = HostGATTWorld()
        let fake = world.fake
        let sensor = world.addPeer(1, GATTFixtures.heartRateServer())
        sensor.server.stall = true
        let link = world.connect(sensor, plan: Self.plan([Self.heartRate]))
        #expect(world.host.state(of: link) == .mtu)
        #expect(sensor.requestsThisConnection == [.exchangeMTURequest])
        world.advance(by: HostDuration.seconds(30))
        #expect(fake.count(.disconnect) == 1)
        #expect(fake.disconnections.map(\.2) == [false])
        #expect(world.host.state(of: link) == .disconnected)
        #expect(world.host.nextDeadline == nil)
        world.advance(by: HostDuration.seconds(60))
        #expect(fake.count(.leExtendedCreateConnection) == 1)
        #expect(sensor.connections == 1)
    }

    @Test func userDisconnectWhileTheTimeoutDisconnectIsPendingEndsTheLink() throws {
        let world = HostGATTWorld()
        let fake = world.fake
        let sensor = world.addPeer(1, GATTFixtures.heartRateServer())
        sensor.server.stall = true
        let link = world.connect(sensor, plan: Self.plan([Self.heartRate], reconnect: true))
        let handle = try #require(sensor.handle)
        // The controller takes its time to end the connection.
        fake.disconnectCompletes = false
        world.advance(by: HostDuration.seconds(30))
        #expect(fake.count(.disconnect) == 1)
        // The application gives up on the peer meanwhile: one Disconnect is enough, and no
        // reconnection follows.
        world.host.disconnect(link, at: world.now)
        world.settle()
        #expect(fake.count(.disconnect) == 1)
        fake.disconnectionComplete(handle: handle, reason: .connectionTerminatedByLocalHost)
        world.settle()
        #expect(fake.disconnections.map(\.2) == [false])
        #expect(world.host.state(of: link) == .disconnected)
        world.advance(by: HostDuration.seconds(60))
        #expect(sensor.connections == 1)
        #expect(!fake.warnings.contains { $0.message.contains("Disconnect of") })
    }

    // MARK: Service Changed

    @Test func serviceChangedIndicationRediscoversAndResubscribes() throws {
        let world = HostGATTWorld()
        let fake = world.fake
        let sensor = world.addPeer(1, GATTFixtures.heartRateServer())
        let link = world.connect(sensor, plan: Self.plan([Self.heartRate], reconnect: true))
        #expect(world.host.state(of: link) == .ready)
        let coldRequests = sensor.requestsThisConnection.count
        world.clearRecord()

        // New firmware: a Device Information service in front of Heart Rate moves its handles by 3.
        let newHash: [UInt8] = Array(0xB0...0xBF)
        sensor.server.replaceAttributes(GATTFixtures.heartRateServer(hash: newHash, deviceInformation: true).attributes)
        let measurement = try #require(sensor.server.handle(of: .heartRateMeasurement))
        #expect(measurement == 0x0011)
        // Service Changed (Vol 3, Part G, §7.1) is indicated at its value handle 0x0008.
        sensor.server.indicate(handle: 0x0008, value: Self.wholeRangeChanged)
        world.settle()

        // Confirmed (Vol 3, Part F, §3.4.7.3), the database forgotten, found again, subscribed again.
        #expect(sensor.server.confirmations == 1)
        #expect(fake.indications(link).map(\.handle) == [0x0008])
        #expect(fake.indications(link).first?.value == Self.wholeRangeChanged)
        #expect(fake.databaseChanges(link) == 1)
        #expect(fake.linkStates(link) == [.discovering, .subscribing, .ready])
        let rediscovered = try #require(fake.databases(link).last)
        #expect(!rediscovered.fromCache)
        #expect(rediscovered.database.characteristic(.heartRateMeasurement)?.valueHandle == measurement)
        #expect(rediscovered.database.characteristic(.manufacturerNameString) != nil)
        #expect(rediscovered.database.databaseHash == newHash)
        #expect(fake.subscriptions(link).map(\.valueHandle) == [measurement])
        #expect(sensor.server.value(at: measurement + 1) == [0x01, 0x00])
        // Exchange MTU is done once per connection (Vol 3, Part F, §3.4.2.1): not again.
        let again = sensor.requestsThisConnection.dropFirst(coldRequests)
        #expect(!again.contains(.exchangeMTURequest))
        #expect(again.contains(.readByGroupTypeRequest))
        #expect(world.fake.pulledHost.status(of: link)?.mtu == 247)

        sensor.server.notify(handle: measurement, value: [0x00, 80])
        world.settle()
        #expect(fake.notifications(link).map(\.handle) == [measurement])

        // The next connection starts from the new database, checked by its new hash.
        world.drop(sensor)
        world.advance(by: HostDuration.milliseconds(250))
        #expect(world.host.state(of: link) == .ready)
        #expect(fake.databases(link).last?.fromCache == true)
        #expect(fake.databases(link).last?.database == rediscovered.database)
        #expect(sensor.requestsThisConnection == [.readByTypeRequest, .writeRequest, .exchangeMTURequest])
        #expect(fake.subscriptions(link).last?.valueHandle == measurement)
        #expect(world.problems.isEmpty)
        #expect(fake.violations.isEmpty)
    }

    @Test func databaseChangedBeforeADropIsNotTakenFromTheCache() throws {
        // A Thingy has no Database Hash: a cache of it is trusted as it is. After Service Changed
        // the old database must not come back as a cache, even when the link drops before
        // rediscovery ends.
        let world = HostGATTWorld()
        let fake = world.fake
        let thingy = world.addPeer(3, GATTFixtures.thingyServer())
        let link = world.connect(thingy, plan: Self.plan([Self.thingyTemperature], reconnect: true))
        #expect(world.host.state(of: link) == .ready)
        let oldTemperature = try #require(thingy.server.handle(of: GATTFixtures.thingyTemperature))
        let serviceChanged = try #require(thingy.server.handle(of: .serviceChanged))
        // A drop and a reconnection: from now on the link has a cache, trusted without a request.
        world.drop(thingy)
        world.advance(by: HostDuration.milliseconds(250))
        #expect(world.host.state(of: link) == .ready)
        #expect(fake.databases(link).map(\.fromCache) == [false, true])
        #expect(thingy.requestsThisConnection == [.writeRequest, .exchangeMTURequest])

        thingy.server.replaceAttributes(GATTFixtures.thingyServer(extraConfiguration: true).attributes)
        let temperature = try #require(thingy.server.handle(of: GATTFixtures.thingyTemperature))
        #expect(temperature == oldTemperature + 2)
        // Rediscovery stalls, and the link drops before it ends.
        thingy.server.stallOpcodes = [ATTOpcode.readByGroupTypeRequest.rawValue]
        thingy.server.indicate(handle: serviceChanged, value: Self.wholeRangeChanged)
        world.settle()
        #expect(fake.databaseChanges(link) == 1)
        #expect(world.host.state(of: link) == .discovering)
        world.drop(thingy)
        thingy.server.stallOpcodes = []
        world.advance(by: HostDuration.milliseconds(250))

        #expect(thingy.connections == 3)
        #expect(world.host.state(of: link) == .ready)
        #expect(fake.databases(link).map(\.fromCache) == [false, true, false])
        #expect(fake.databases(link).last?.database.characteristic(GATTFixtures.thingyTemperature)?.valueHandle == temperature)
        #expect(fake.subscriptions(link).last?.valueHandle == temperature)
        #expect(thingy.server.value(at: temperature + 1) == [0x01, 0x00])
        // Nothing was written to where the CCCD used to be once the database had changed.
        #expect(thingy.server.writes.map(\.handle) == [oldTemperature + 1, oldTemperature + 1, temperature + 1])
        #expect(world.problems.isEmpty)
        #expect(fake.violations.isEmpty)
    }
}
