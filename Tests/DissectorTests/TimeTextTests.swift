import Testing
import Capture
import Dissector
import Wire

/// The headline's time is taken from the capture's timestamps, which a corrupt record can put
/// anywhere: it is shown clamped, never converted with a trap.
@Suite struct TimeTextTests {
    /// Command Complete for Reset, Status Success (Core Spec v5.4 Vol 4, Part E, §7.7.14).
    static let resetComplete: [UInt8] = [0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]

    func record(at t: Int64) -> CaptureRecord {
        CaptureRecord(timestampMicros: t, direction: .controllerToHost,
                      packet: HCIPacket(type: .event, bytes: Self.resetComplete))
    }

    @Test func farApartTimestampsAreShownClamped() {
        let d = PacketDissector()
        _ = d.dissect(record(at: -(1 << 62)))
        // Int64.max microseconds after the first: more than an Int64 once rounded as a Double.
        let p = d.dissect(record(at: Int64.max - (1 << 62)))
        let line = TextRenderer(showFields: false).render(p)
        #expect(line == "     2 9223372036854.775807 > EVT Command Complete (0x0E): Reset (0x03|0x0003) ncmd 1: Success (0x00)\n")
        #expect(JSONRenderer().render(p).contains("\"index\":2,"))
    }

    @Test func ordinaryTimesKeepMicroseconds() {
        let d = PacketDissector()
        _ = d.dissect(record(at: 1_000_000))
        let p = d.dissect(record(at: 13_682_310 + 1_000_000))
        #expect(TextRenderer(showFields: false).render(p).hasPrefix("     2    13.682310 > EVT"))
    }
}
