import HostCore
import RunTracker
import Sensors
import Testing
import Wire

/// The recordings of `Captures/` (made by `scripts/record-captures` with the real program
/// against the Bumble test world) replayed through the core: it must send exactly what the
/// recorded program sent, and the session must read exactly the measurements the recording's
/// notifications carry. Docs/replay.md.
@Suite("Replay of Captures/")
struct CaptureReplayTests {
    /// Replays a recording and checks it against itself; returns the outcome for more checks.
    @discardableResult
    func replay(_ name: String, cache: MemoryGATTCache = MemoryGATTCache()) throws -> (Recording, SessionReplay.Outcome) {
        let recording = try Recording.load(name)
        #expect(recording.packets.count > 100, "\(name) is unexpectedly short")
        let outcome = SessionReplay.run(recording.packets, cache: cache)
        #expect(outcome.problems.isEmpty, "\(outcome.problems)")
        if let d = Divergence.first(in: recording, outcome) {
            Issue.record("\(d)")
        }
        #expect(outcome.warnings.isEmpty, "host warnings: \(outcome.warnings)")
        #expect(outcome.stoppedAt != nil, "no Disconnect command in \(name)")
        #expect(outcome.finished, "the session did not end after the stop")

        let recorded = RecordedMeasurement.all(in: recording.packets)
        let replayed = outcome.measurements
        #expect(!recorded.isEmpty)
        #expect(replayed.map(\.role) == recorded.map(\.role))
        #expect(replayed.map(\.measurement) == recorded.map(\.measurement))
        for role in SensorRole.allCases {
            let count = recorded.filter { $0.role == role }.count
            #expect(count > 0, "\(name): no \(role.rawValue) measurement recorded")
            #expect(outcome.summary.measurements[role, default: 0] == count, "\(name): \(role.rawValue)")
        }
        return (recording, outcome)
    }

    @Test func coldSessionDiscoversAndReplaysByteForByte() throws {
        let cache = MemoryGATTCache()
        let (_, outcome) = try replay("session-three-sensors-cold", cache: cache)
        // Full discovery of the three sensors, kept as the file cache would keep it.
        #expect(cache.peers.count == 3)
        #expect(outcome.summary.reconnections.values.allSatisfy { $0 == 0 })
    }

    @Test func warmSessionUsesTheCacheTheColdRunLeft() throws {
        let cache = MemoryGATTCache()
        _ = try replay("session-three-sensors-cold", cache: cache)
        let before = cache.texts
        let (recording, _) = try replay("session-three-sensors-warm", cache: cache)
        // The warm run discovers nothing: no Read By Group Type Request (primary services).
        #expect(!recording.sent.contains { PacketText.headline($0.packet.packet).contains("Read By Group Type Request") })
        #expect(cache.texts == before, "the warm run changed the cache")
    }

    /// Without the cold run's databases the warm recording cannot be reproduced: on the first
    /// connection the recorded program checked its cached database (Database Hash, 0x2B2A)
    /// where an empty cache makes the core start with the MTU exchange and a full discovery.
    /// (Also shows that the comparison fails when it should.)
    @Test func warmSessionWithoutTheCacheDiverges() throws {
        let recording = try Recording.load("session-three-sensors-warm")
        let outcome = SessionReplay.run(recording.packets, cache: MemoryGATTCache())
        let d = try #require(Divergence.first(in: recording, outcome))
        let expected = try #require(d.recordingIndex)
        #expect(PacketText.headline(recording.packets[expected].packet).contains("Read By Type Request: 0x0001-0xffff type 2B2A"), "\(d)")
        #expect(PacketText.headline(outcome.sent[d.sentIndex].packet).contains("Exchange MTU Request"), "\(d)")
    }

    @Test func droppedHeartLinkReconnectsAndReplays() throws {
        let (recording, outcome) = try replay("session-drop-reconnect")
        #expect(outcome.summary.reconnections[.heart] == 1)
        // The peer's drop is in the recording: Disconnection Complete 0x13 before the stop.
        let drop = recording.received.first { p in
            if case .disconnectionComplete(let e)? = try? HCIEvent.decode(p.packet.bytes) { return e.reason == .remoteUserTerminatedConnection }
            return false
        }
        #expect(drop != nil)
    }

    /// A recording with the heart's Disconnection Complete taken out: the core never
    /// reconnects, and the comparison points at the recorded reconnection attempt.
    @Test func tamperedRecordingIsCaughtAtTheFirstDifference() throws {
        let recording = try Recording.load("session-drop-reconnect")
        let dropIndex = try #require(recording.packets.firstIndex { p in
            guard p.direction == .controllerToHost, case .disconnectionComplete? = try? HCIEvent.decode(p.packet.bytes) else { return false }
            return true
        })
        var packets = recording.packets
        packets.remove(at: dropIndex)
        let tampered = Recording(name: "tampered", packets: packets)
        let outcome = SessionReplay.run(packets)
        let d = try #require(Divergence.first(in: tampered, outcome))
        let expectedIndex = try #require(d.recordingIndex)
        #expect(expectedIndex >= dropIndex)
        #expect(PacketText.headline(packets[expectedIndex].packet).contains("LE Create Connection"), "\(d)")
    }

    /// The real program runs on CLOCK_MONOTONIC (time since boot); the replay starts at 0.
    /// The core must not care where time starts: the same packets come out at any origin,
    /// including one close to the top of the 64-bit range (no overflowing deadline arithmetic).
    @Test(arguments: [1, 3_600_000_000_000, 1 << 62, HostTime.max - 3_600_000_000_000] as [HostTime])
    func replayDoesNotDependOnTheClockOrigin(origin: HostTime) throws {
        for name in ["session-three-sensors-cold", "session-drop-reconnect"] {
            let recording = try Recording.load(name)
            let shifted = Recording(name: name + " from \(origin)", packets: recording.packets.map {
                SessionReplay.Packet(time: $0.time + origin, direction: $0.direction, packet: $0.packet)
            })
            let outcome = SessionReplay.run(shifted.packets)
            #expect(outcome.problems.isEmpty, "\(outcome.problems)")
            if let d = Divergence.first(in: shifted, outcome) { Issue.record("\(d)") }
        }
    }

    @Test func replayIsRepeatable() throws {
        let recording = try Recording.load("session-drop-reconnect")
        let a = SessionReplay.run(recording.packets)
        let b = SessionReplay.run(recording.packets)
        #expect(a.sent.map(\.packet) == b.sent.map(\.packet))
        #expect(a.sent.map(\.time) == b.sent.map(\.time))
        #expect(a.summary == b.summary)
    }
}
