import HostCore
import RunTracker
import Testing
import Wire

/// The replay driver's own pieces, on hand-made packets.
@Suite struct SessionReplayUnitTests {
    // Core Spec v5.4 Vol 4, Part E, §7.8.4: LE Set Random Address, opcode 0x2005, 6 address
    // bytes little-endian.
    static let setRandomAddress = HCIPacket(type: .command, bytes: [0x05, 0x20, 0x06, 0x11, 0x75, 0x2F, 0x62, 0xA2, 0xC2])
    // §7.1.6: Disconnect, opcode 0x0406: handle 0x0001, reason 0x13.
    static let disconnect = HCIPacket(type: .command, bytes: [0x06, 0x04, 0x03, 0x01, 0x00, 0x13])
    // §7.7.14: Command Complete for LE Set Random Address, status 0.
    static let complete = HCIPacket(type: .event, bytes: [0x0E, 0x04, 0x01, 0x05, 0x20, 0x00])

    @Test func timelineIsNanosecondsFromTheFirstPacket() {
        let t = SessionReplay.Packet.timeline([
            (1_700_000_000_000_000, .hostToController, Self.setRandomAddress),
            (1_700_000_000_000_250, .controllerToHost, Self.complete),
            (1_700_000_000_000_100, .controllerToHost, Self.complete), // earlier: clamped
            (1_700_000_002_000_000, .hostToController, Self.disconnect),
        ])
        #expect(t.map(\.time) == [0, 250_000, 250_000, 2_000_000_000])
        #expect(t.map(\.direction) == [.hostToController, .controllerToHost, .controllerToHost, .hostToController])
        #expect(SessionReplay.Packet.timeline([]).isEmpty)
    }

    /// Capture timestamps are input: extreme ones saturate, they do not trap.
    @Test func timelineSaturatesExtremeTimestamps() {
        let t = SessionReplay.Packet.timeline([
            (Int64.min, .hostToController, Self.setRandomAddress),
            (Int64.max, .controllerToHost, Self.complete),
            (Int64.min, .controllerToHost, Self.complete),
        ])
        #expect(t.map(\.time) == [0, HostTime.max, HostTime.max])
        let u = SessionReplay.Packet.timeline([
            (0, .hostToController, Self.setRandomAddress),
            (Int64.max, .controllerToHost, Self.complete),
        ])
        #expect(u.map(\.time) == [0, HostTime.max])
    }

    @Test func ownAddressComesFromLESetRandomAddress() {
        let packets = [SessionReplay.Packet(time: 0, direction: .hostToController, packet: Self.setRandomAddress)]
        #expect(SessionReplay.ownAddress(in: packets) == .randomStatic(BDAddress(string: "C2:A2:62:2F:75:11")!))
        // The same bytes from the controller are not the host's command.
        let echoed = [SessionReplay.Packet(time: 0, direction: .controllerToHost, packet: Self.setRandomAddress)]
        #expect(SessionReplay.ownAddress(in: echoed) == .publicAddress)
        #expect(SessionReplay.ownAddress(in: []) == .publicAddress)
    }

    @Test func stopPointIsTheFirstDisconnectCommand() {
        let packets = [
            SessionReplay.Packet(time: 0, direction: .hostToController, packet: Self.setRandomAddress),
            SessionReplay.Packet(time: 1, direction: .controllerToHost, packet: Self.complete),
            SessionReplay.Packet(time: 2, direction: .hostToController, packet: Self.disconnect),
            SessionReplay.Packet(time: 3, direction: .hostToController, packet: Self.disconnect),
        ]
        #expect(SessionReplay.firstDisconnectCommand(in: packets) == 2)
        #expect(SessionReplay.firstDisconnectCommand(in: Array(packets.prefix(2))) == nil)
    }

    /// With nothing from the controller, the core sends its Reset and waits; the Reset's
    /// timeout (5 s) lies beyond the recording's end, so nothing else happens.
    @Test func emptyControllerSideSendsOnlyReset() {
        let packets = [SessionReplay.Packet(time: 0, direction: .hostToController, packet: HCIPacket(type: .command, bytes: [0x03, 0x0C, 0x00]))]
        let outcome = SessionReplay.run(packets, stop: .never)
        #expect(outcome.sent.map(\.packet) == [HCIPacket(type: .command, bytes: [0x03, 0x0C, 0x00])])
        #expect(outcome.stoppedAt == nil)
        #expect(!outcome.finished)
    }

    @Test func memoryCacheKeepsTheFileText() {
        let cache = MemoryGATTCache()
        let peer = DeviceAddress(BDAddress(string: "C1:00:00:00:00:01")!, type: .randomDevice)
        var db = GATTDatabase()
        db.databaseHash = [UInt8](repeating: 0xAB, count: 16)
        cache.store(db, for: peer)
        #expect(cache.texts[peer] == GATTCacheCodec.encode(db))
        #expect(cache.database(for: peer)?.databaseHash == db.databaseHash)
        #expect(cache.peers == [peer])
        cache.remove(for: peer)
        #expect(cache.database(for: peer) == nil)
    }
}
