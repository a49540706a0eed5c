import Testing
import HostCore
import RunTracker
import Sensors
import Wire

/// The run session (`SessionController` on the real `Host`) when the controller reports a
/// Hardware Error (Core Spec v5.4 Vol 4, Part E, §7.7.16) or stops answering a command: the
/// host resets it, and the session gets its sensors back and scans again for the missing ones.
@Suite struct ControllerFaultSessionTests {
    static let heart = DeviceAddress(BDAddress(string: "C1:00:00:00:00:01") ?? .zero, type: .randomDevice)
    /// Heart Rate service 0x000C–0x000F: Heart Rate Measurement value 0x000E, its CCCD 0x000F.
    static let heartDatabase = """
        rtstack-gatt-cache 1
        primary 0001 0005 1800
        characteristic 0002 0003 0003 02 2A00
        primary 000C 000F 180D
        characteristic 000D 000E 000F 10 2A37
        descriptor 000F 2902

        """

    /// A session for a heart sensor (cached database) and a speed sensor that never shows up,
    /// so the scan runs throughout; the heart sensor connected, ready and streaming.
    static func streamingSession() throws -> ScriptedSessionWorld {
        let world = ScriptedSessionWorld { $0.roles = [.heart, .speed] }
        world.cache.stored[heart] = try GATTCacheCodec.decode(heartDatabase)
        world.start()
        #expect(world.host.isReady)
        #expect(world.scanning)
        world.advertise(heart, services: [.heartRate])
        #expect(world.createPending == heart)
        world.completeConnection(handle: 0x0040)
        #expect(world.states(.heart).last == .ready)
        // Heart Rate Measurement (GATT Specification Supplement §3.113): flags 0, 72 bpm.
        world.notify(handle: 0x0040, attribute: 0x000E, [0x00, 72])
        #expect(world.measurements(.heart).count == 1)
        #expect(world.scanning)
        return world
    }

    @Test func hardwareErrorResetsAndTheSessionRecovers() throws {
        let world = try Self.streamingSession()
        let before = world.sessionEvents.count

        world.hardwareError(0x05)

        // The error is shown, naming the hardware code.
        #expect(world.notices.contains { $0.contains("Hardware Error") && $0.contains("0x05") })
        // The host reset the controller and brought it up again.
        #expect(world.opcodes.filter { $0 == .reset }.count == 2)
        #expect(world.host.isReady)
        // The heart link was lost and is being made again; the scan runs again.
        let after = world.states(.heart)
        #expect(after.suffix(2) == [.disconnected, .connecting], "heart: \(after)")
        #expect(world.createPending == Self.heart)
        #expect(world.scanning)
        #expect(world.scanningEvents.suffix(2) == [false, true])
        #expect(world.sessionEvents.count > before)

        world.completeConnection(handle: 0x0041)
        #expect(world.states(.heart).last == .ready)
        world.notify(handle: 0x0041, attribute: 0x000E, [0x00, 75])
        #expect(world.measurements(.heart).count == 2)
        #expect(world.session.summary.reconnections[.heart] == 1)
        // The speed sensor is still looked for.
        #expect(world.states(.speed).last == .scanning)
        #expect(world.scanning)

        // And the session still ends cleanly.
        world.session.stop(at: world.now)
        world.settle()
        #expect(world.session.isFinished)
        #expect(!world.scanning)
    }

    @Test func unansweredCommandResetsAndTheSessionRecovers() throws {
        let world = try Self.streamingSession()
        // The heart sensor drops; the reconnection's LE Create Connection is never answered.
        world.silent.insert(.leCreateConnection)
        world.dropLink(handle: 0x0040)
        #expect(world.states(.heart).last == .connecting)
        world.advance(to: world.now + HostDuration.milliseconds(100))
        #expect(world.opcodes.last == .leCreateConnection)
        #expect(world.createPending == nil)
        // The command timeout (2 s) resets the controller, which answers again.
        let due = try #require(world.host.nextDeadline)
        #expect(due == world.now + HostDuration.seconds(2))
        world.silent.removeAll()
        world.advance(to: due)
        #expect(world.notices.contains { $0.contains("LE Create Connection") && $0.contains("no answer") },
                "notices: \(world.notices)")
        #expect(world.opcodes.filter { $0 == .reset }.count == 2)
        #expect(world.host.isReady)
        #expect(world.scanning)
        #expect(world.createPending == Self.heart)
        world.completeConnection(handle: 0x0042)
        #expect(world.states(.heart).last == .ready)
        world.notify(handle: 0x0042, attribute: 0x000E, [0x00, 80])
        #expect(world.measurements(.heart).count == 2)
    }
}

/// The session on a controller with Zephyr's controller-state rules: the scan for missing
/// sensors is refused while the first sensor's LE Create Connection is pending, and must come
/// back by itself (issue 10: before the fix the speed sensor stayed "scanning" with no scan).
@Suite struct ControllerStateRulesSessionTests {
    static let heart = DeviceAddress(BDAddress(string: "C1:00:00:00:00:01") ?? .zero, type: .randomDevice)
    static let speed = DeviceAddress(BDAddress(string: "C1:00:00:00:00:02") ?? .zero, type: .randomDevice)

    @Test func missingSensorsAreFoundAfterAFixedAddressConnects() {
        let world = ScriptedSessionWorld {
            $0.roles = [.heart, .speed]
            $0.fixedAddresses[.heart] = Self.heart.address
            $0.fixedAddressTypes[.heart] = Self.heart.type
        }
        world.zephyrStateRules = true
        world.start()
        // The heart's create went first; the scan for the speed sensor was refused meanwhile.
        #expect(world.createPending == Self.heart)
        #expect(world.refusals.contains(.leSetScanParameters))
        #expect(!world.scanning)
        world.completeConnection(handle: 0x0040)
        #expect(world.states(.heart).contains(.connected))
        // Scanning is back without anyone asking again, so the speed sensor is found.
        #expect(world.scanning)
        world.advertise(Self.speed, services: [.runningSpeedAndCadence])
        #expect(world.createPending == Self.speed)
        #expect(world.states(.speed).last == .connecting)
        world.completeConnection(handle: 0x0041)
        #expect(world.states(.speed).contains(.connected))
        // Everything found: the session stops scanning.
        #expect(!world.scanning)
        #expect(world.refusals == [.leSetScanParameters])
    }
}
