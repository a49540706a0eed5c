import HostCore
import RunTracker
import Sensors
import Testing
import Wire

/// The environment role filled by an Environmental Sensing peripheral (0x181A, Temperature
/// 0x2A6E) as well as by a Thingy:52.
extension SessionControllerTests {
    static let ess = DeviceAddress(BDAddress(string: "C4:02:95:2C:F1:AF")!, type: .randomDevice)

    @Test func anEnvironmentalSensingAdvertiserFillsTheEnvironmentRole() throws {
        let host = FakeSessionHost(), rec = Recorder()
        let s = makeSession(host, rec) { $0.roles = [.environment] }
        s.start(at: 0)
        // Battery alone is no environment sensor.
        s.handle(.advertisement(report(Self.other, services: [BluetoothUUID(0x180F)])), at: 1)
        s.handle(.advertisement(report(Self.ess, services: [.environmentalSensing, BluetoothUUID(0x180F)], name: "ESP peripheral")), at: 2)
        #expect(host.calls == ["scan on", "connect \(Self.ess)", "scan off"])
        let plan = try #require(host.links[LinkID(rawValue: 1)]?.1)
        #expect(plan.subscriptions == [Subscription(service: .environmentalSensing, characteristic: .temperature)])

        let link = LinkID(rawValue: 1)
        s.handle(.subscribed(link, characteristic: .temperature, valueHandle: 0x1B), at: 3)
        s.handle(.linkState(link, .ready), at: 3)
        // Temperature (GATT Specification Supplement): sint16 in 0.01 °C; 0x04B5 = 12.05 °C,
        // 0xFF38 = −2.00 °C; 0x8000 = value not known: no reading, not malformed.
        s.handle(.notification(link, attributeHandle: 0x1B, value: [0xB5, 0x04]), at: 4)
        s.handle(.notification(link, attributeHandle: 0x1B, value: [0x38, 0xFF]), at: 5)
        s.handle(.notification(link, attributeHandle: 0x1B, value: [0x00, 0x80]), at: 6)
        s.handle(.notification(link, attributeHandle: 0x1B, value: [0x01]), at: 7)
        #expect(rec.measurements.map(\.celsius) == [12.05, -2.0])
        let notices = rec.events.compactMap { if case let .notice(m) = $0 { return m } else { return nil } }
        #expect(notices.count == 1 && notices[0].hasPrefix("environment measurement:"), "\(notices)")
        let readyState = rec.events.contains {
            if case let .state(.environment, .ready, address, name) = $0 { return address == Self.ess && name == "ESP peripheral" }
            return false
        }
        #expect(readyState)
        s.stop(at: 10)
        s.handle(.disconnected(link, reason: .connectionTerminatedByLocalHost, willReconnect: false), at: 11)
        guard case .summary(let sum)? = rec.events.last else { Issue.record("no summary"); return }
        #expect(sum.malformed == 1)
        #expect(sum.measurements[.environment] == 2)
        #expect(abs((sum.temperature.mean ?? 0) - 5.025) < 1e-9)
    }

    @Test func anEnvironmentSensorGivenByAddressIsSubscribedByWhicheverMeasurementItHas() throws {
        let host = FakeSessionHost(), rec = Recorder()
        let s = makeSession(host, rec) {
            $0.roles = [.environment]
            $0.fixedAddresses[.environment] = Self.ess.address
            $0.fixedAddressTypes[.environment] = .randomDevice
        }
        s.start(at: 0)
        let plan = try #require(host.links[LinkID(rawValue: 1)]?.1)
        // Nothing has said what it is yet: the plan asks for both; the peer has one of them.
        #expect(plan.subscriptions.map(\.characteristic) == [.thingyTemperature, .temperature])
        let link = LinkID(rawValue: 1)
        s.handle(.subscribed(link, characteristic: .temperature, valueHandle: 0x1B), at: 1)
        s.handle(.linkState(link, .ready), at: 1)
        s.handle(.notification(link, attributeHandle: 0x1B, value: [0xBA, 0x04]), at: 2)
        // Once known, it stays what it is: a Thingy-style subscription on the link is not taken.
        s.handle(.subscribed(link, characteristic: .thingyTemperature, valueHandle: 0x30), at: 3)
        s.handle(.notification(link, attributeHandle: 0x30, value: [20, 50]), at: 4)
        s.handle(.notification(link, attributeHandle: 0x1B, value: [0xBF, 0x04]), at: 5)
        // Both from the Temperature characteristic the link settled on, none from the Thingy's.
        #expect(rec.measurements.map(\.celsius) == [12.10, 12.15])
        #expect(rec.measurements.allSatisfy { if case .temperature = $0 { true } else { false } })
    }
}

private extension DecodedSensorValue {
    /// The temperature a reading carries, from either kind of environment sensor.
    var celsius: Double? {
        switch self {
        case .temperature(let t): return t.celsius
        case .thingyTemperature(let t): return t.celsius
        default: return nil
        }
    }
}
