#if canImport(Glibc)
import Glibc
#endif
import Capture
import RunTracker
import Wire

/// One recording of `Captures/`, read whole (they are a few KB).
struct Recording {
    let name: String
    let packets: [SessionReplay.Packet]

    /// `Captures/` of this package, found from this file's path; `REPLAY_CAPTURES=DIR` replays
    /// the recordings of another folder instead (e.g. fresh ones from
    /// `scripts/record-captures --out DIR`, to check a new recording before keeping it).
    static var capturesDirectory: String {
        if let dir = getenv("REPLAY_CAPTURES"), dir.pointee != 0 { return String(cString: dir) }
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3) // Tests/ReplayTests/Recording.swift
        return parts.joined(separator: "/") + "/Captures"
    }

    static func load(_ name: String) throws -> Recording {
        var reader = try CaptureFile.open(path: capturesDirectory + "/" + name + ".btsnoop")
        let records = try reader.readAll()
        return Recording(name: name, packets: SessionReplay.Packet.timeline(records.map {
            ($0.timestampMicros, $0.direction, HCIPacket(type: $0.packet.type, bytes: Array($0.packet.bytes)))
        }))
    }

    /// What the recorded host sent, with each packet's index in the recording.
    var sent: [(index: Int, packet: SessionReplay.Packet)] {
        packets.enumerated().filter { $0.element.direction == .hostToController }.map { ($0.offset, $0.element) }
    }

    var received: [SessionReplay.Packet] { packets.filter { $0.direction == .controllerToHost } }
}
