import HostCore
import RunTracker
import Wire

/// The first difference between what a recorded host sent and what the replayed core sent.
struct Divergence: CustomStringConvertible {
    /// Position among the sent packets (0-based).
    var sentIndex: Int
    /// Index in the recording of the expected packet (nil: the core sent more than recorded).
    var recordingIndex: Int?
    var description: String

    static func first(in recording: Recording, _ outcome: SessionReplay.Outcome) -> Divergence? {
        let expected = recording.sent
        let got = outcome.sent
        for k in 0..<max(expected.count, got.count) {
            let e = k < expected.count ? expected[k] : nil
            let g = k < got.count ? got[k] : nil
            if let e, let g, e.packet.packet == g.packet { continue }
            var text = "\(recording.name): host→controller packet \(k) differs "
                + "(the recording has \(expected.count), the core sent \(got.count))\n"
            if let e {
                text += "  expected (recording #\(e.index), \(PacketText.time(e.packet.time))): \(PacketText.describe(e.packet.packet))\n"
            } else {
                text += "  expected: nothing more\n"
            }
            if let g {
                let after = g.afterRecording.map { "last input recording #\($0)" } ?? "before any input"
                text += "  got      (\(after), \(PacketText.time(g.time))): \(PacketText.describe(g.packet))\n"
            } else {
                text += "  got:      nothing more\n"
            }
            let anchor = e?.index ?? g?.afterRecording.map { $0 + 1 } ?? 0
            text += "  recording before that:\n"
            for i in max(0, anchor - 4)..<min(anchor, recording.packets.count) {
                let p = recording.packets[i]
                text += "    #\(i) \(PacketText.time(p.time)) \(p.direction.arrow) \(PacketText.headline(p.packet))\n"
            }
            return Divergence(sentIndex: k, recordingIndex: e?.index, description: text)
        }
        return nil
    }
}
