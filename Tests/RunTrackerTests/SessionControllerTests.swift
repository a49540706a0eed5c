import Testing
import HostCore
import RunTracker
import Sensors
import Wire

/// A host that records what the session asks of it (the session's logic alone; the session on
/// a real host against a scripted controller is `ScriptedSessionWorld`).
final class FakeSessionHost: Host {
    var calls: [String] = []
    var nextLink: UInt32 = 1
    var links: [LinkID: (DeviceAddress, LinkPlan)] = [:]
    let linkTable = LinkTable()

    func start(at now: HostTime) {}
    var isReady: Bool { true }
    var hasFailed: Bool { false }
    var controllerInfo: ControllerInfo? { nil }
    var isScanning: Bool { false }
    var nextDeadline: HostTime? { nil }
    func advanceTime(to now: HostTime) {}
    func serviceLinks(at now: HostTime) {}
    func pollEvent() -> HostEvent? { nil }
    func perform(_ operation: GATTOperation, on link: LinkID, at now: HostTime) -> OperationID {
        OperationID(rawValue: 0)
    }

    func startScan(_ configuration: ScanConfiguration?, at now: HostTime) { calls.append("scan on") }
    func stopScan(at now: HostTime) { calls.append("scan off") }
    func connect(to address: DeviceAddress, plan: LinkPlan, at now: HostTime) -> LinkID {
        let id = LinkID(rawValue: nextLink)
        nextLink += 1
        links[id] = (address, plan)
        calls.append("connect \(address)")
        return id
    }
    func disconnect(_ link: LinkID, at now: HostTime) { calls.append("disconnect \(link)") }
}

final class MemoryCache: GATTCacheStore {
    var stored: [DeviceAddress: GATTDatabase] = [:]
    func database(for peer: DeviceAddress) -> GATTDatabase? { stored[peer] }
    func store(_ database: GATTDatabase, for peer: DeviceAddress) { stored[peer] = database }
    func remove(for peer: DeviceAddress) { stored[peer] = nil }
}

@Suite struct SessionControllerTests {
    static let heart = DeviceAddress(BDAddress(string: "C1:00:00:00:00:01")!, type: .randomDevice)
    static let speed = DeviceAddress(BDAddress(string: "C2:00:00:00:00:01")!, type: .randomDevice)
    static let thingy = DeviceAddress(BDAddress(string: "C3:00:00:00:00:01")!, type: .randomDevice)
    static let other = DeviceAddress(BDAddress(string: "C4:00:00:00:00:01")!, type: .randomDevice)

    func report(_ a: DeviceAddress, services: [BluetoothUUID], name: String? = nil, connectable: Bool = true) -> AdvertisementReport {
        var b = AdvertisingData.Builder().flags([.leGeneralDiscoverableMode, .brEdrNotSupported]).serviceUUIDs(services, complete: true)
        if let n = name { b = b.completeLocalName(n) }
        return AdvertisementReport(address: a, rssi: -50, connectable: connectable, scannable: true,
                                   isScanResponse: false, data: b.bytes[...])
    }

    final class Recorder {
        weak var session: SessionController?
        private var taken: [SessionEvent] = []
        /// What the session said so far, pulled from it.
        var events: [SessionEvent] {
            while let e = session?.pollEvent() { taken.append(e) }
            return taken
        }
        var states: [(SensorRole, SensorState)] {
            events.compactMap { if case let .state(r, s, _, _) = $0 { return (r, s) } else { return nil } }
        }
        var measurements: [DecodedSensorValue] {
            events.compactMap { if case let .measurement(_, m, _, _) = $0 { return m } else { return nil } }
        }
    }

    func makeSession(_ host: FakeSessionHost, _ rec: Recorder, cache: MemoryCache? = nil,
                     configure: (inout SessionController.Configuration) -> Void = { _ in }) -> SessionController {
        var c = SessionController.Configuration()
        configure(&c)
        let s = SessionController(configuration: c, host: host, cache: cache)
        rec.session = s
        return s
    }

    @Test func findsEachSensorByAdvertisedServiceAndStopsScanning() {
        let host = FakeSessionHost(), rec = Recorder()
        let s = makeSession(host, rec)
        s.start(at: 0)
        #expect(host.calls == ["scan on"])
        s.handle(.advertisement(report(Self.other, services: [BluetoothUUID(0x1234)])), at: 1)
        s.handle(.advertisement(report(Self.heart, services: [.heartRate], name: "Heart 1")), at: 2)
        s.handle(.advertisement(report(Self.heart, services: [.heartRate])), at: 3)
        s.handle(.advertisement(report(Self.speed, services: [.runningSpeedAndCadence])), at: 4)
        #expect(host.calls == ["scan on", "connect \(Self.heart)", "connect \(Self.speed)"])
        s.handle(.advertisement(report(Self.thingy, services: [.thingyConfiguration])), at: 5)
        #expect(host.calls.last == "scan off")
        let plan = try? #require(host.links[LinkID(rawValue: 3)]?.1)
        #expect(plan?.subscriptions.first?.characteristic == .thingyTemperature)
        #expect(plan?.subscriptions.first?.service == .thingyWeather)
        #expect(plan?.reconnect != nil)
    }

    @Test func notificationsBecomeMeasurementsAndSummary() throws {
        let host = FakeSessionHost(), rec = Recorder()
        let s = makeSession(host, rec) { $0.roles = [.heart, .speed] }
        s.start(at: 0)
        s.handle(.advertisement(report(Self.heart, services: [.heartRate])), at: 1)
        s.handle(.advertisement(report(Self.speed, services: [.runningSpeedAndCadence])), at: 1)
        let h = LinkID(rawValue: 1), sp = LinkID(rawValue: 2)
        s.handle(.linkState(h, .ready), at: 2)
        s.handle(.subscribed(h, characteristic: .heartRateMeasurement, valueHandle: 0x12), at: 2)
        s.handle(.subscribed(sp, characteristic: .rscMeasurement, valueHandle: 0x22), at: 2)
        // HRS §3.1.1: flags 0x08 (energy expended present), 72 bpm, 10 kJ.
        s.handle(.notification(h, attributeHandle: 0x12, value: [0x08, 72, 10, 0]), at: 3)
        s.handle(.notification(h, attributeHandle: 0x12, value: [0x00, 80]), at: 4)
        s.handle(.notification(h, attributeHandle: 0x99, value: [0x00, 200]), at: 4) // other handle: ignored
        // RSCS §3.1: flags 0x02 (total distance), 3 m/s = 768/256, cadence 170, distance 100.0 m then 112.5 m.
        s.handle(.notification(sp, attributeHandle: 0x22, value: [0x02, 0x00, 0x03, 170, 0xE8, 0x03, 0, 0]), at: 5)
        s.handle(.notification(sp, attributeHandle: 0x22, value: [0x02, 0x00, 0x03, 170, 0x65, 0x04, 0, 0]), at: 6)
        s.handle(.notification(h, attributeHandle: 0x12, value: [0x01]), at: 7) // truncated: malformed
        #expect(rec.measurements.count == 4)
        guard case .heartRate(let first)? = rec.measurements.first else { Issue.record("no heart rate first"); return }
        #expect(first.heartRate == 72 && first.energyExpended == 10 && first.rrIntervals.isEmpty)
        s.stop(at: 2_000_000_000)
        #expect(host.calls.suffix(2) == ["disconnect link1", "disconnect link2"])
        #expect(!s.isFinished)
        s.handle(.disconnected(h, reason: .connectionTerminatedByLocalHost, willReconnect: false), at: 2_100_000_000)
        s.handle(.disconnected(sp, reason: .connectionTerminatedByLocalHost, willReconnect: false), at: 2_100_000_000)
        #expect(s.isFinished)
        guard case .summary(let sum)? = rec.events.last else { Issue.record("no summary"); return }
        #expect(sum.heartRate.min == 72)
        #expect(sum.heartRate.max == 80)
        #expect(sum.heartRate.mean == 76)
        #expect(abs(sum.distanceMeters - 12.5) < 1e-9)
        #expect(sum.malformed == 1)
        #expect(abs(sum.durationSeconds - 2.1) < 1e-9)
    }

    @Test func droppedSensorWithoutReconnectIsLookedForAgain() {
        let host = FakeSessionHost(), rec = Recorder()
        let s = makeSession(host, rec) { $0.roles = [.heart] }
        s.start(at: 0)
        s.handle(.advertisement(report(Self.heart, services: [.heartRate])), at: 1)
        #expect(host.calls == ["scan on", "connect \(Self.heart)", "scan off"])
        s.handle(.connectFailed(LinkID(rawValue: 1), .connectTimeout(Self.heart), willRetry: false), at: 2)
        #expect(host.calls.last == "scan on")
        #expect(rec.states.last! == (.heart, .scanning))
    }

    @Test func fixedAddressLearnsItsTypeFromAdvertising() {
        let host = FakeSessionHost(), rec = Recorder()
        let s = makeSession(host, rec) {
            $0.roles = [.heart]
            $0.fixedAddresses[.heart] = Self.heart.address
        }
        s.start(at: 0)
        // The same address advertising something else still counts: the user named it.
        s.handle(.advertisement(report(Self.other, services: [.heartRate])), at: 1)
        #expect(host.calls == ["scan on"])
        s.handle(.advertisement(report(Self.heart, services: [])), at: 2)
        #expect(host.calls == ["scan on", "connect \(Self.heart)", "scan off"])
    }

    @Test func cacheIsUsedAndInvalidated() {
        let host = FakeSessionHost(), rec = Recorder(), cache = MemoryCache()
        let db = GATTDatabase(services: [GATTService(uuid: .heartRate, startHandle: 1, endHandle: 5)])
        cache.stored[Self.heart] = db
        let s = makeSession(host, rec, cache: cache) { $0.roles = [.heart] }
        s.start(at: 0)
        s.handle(.advertisement(report(Self.heart, services: [.heartRate])), at: 1)
        #expect(host.links[LinkID(rawValue: 1)]?.1.cachedDatabase == db)
        s.handle(.databaseChanged(LinkID(rawValue: 1)), at: 2)
        #expect(cache.stored[Self.heart] == nil)
        s.handle(.databaseReady(LinkID(rawValue: 1), db, fromCache: false), at: 3)
        #expect(cache.stored[Self.heart] == db)
    }
}
