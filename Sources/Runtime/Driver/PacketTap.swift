#if canImport(Glibc)
import Glibc
#endif
import Capture
import Wire

/// The one place every packet passes, in both directions, with its time: sinks hang on it
/// (the `--trace` decoder, the `--capture` writer, counters). Called on the loop thread.
public final class PacketTap {
    public typealias Sink = (CaptureRecord) -> Void

    private var sinks: [Sink] = []
    /// Wall-clock microseconds at the monotonic instant `monotonicOrigin`, so records carry
    /// real timestamps (Wireshark shows dates) while the core runs on the monotonic clock.
    private let wallOrigin: Int64
    private let monotonicOrigin: UInt64
    public private(set) var sent = 0
    public private(set) var received = 0

    public init(wallClockMicros: Int64, monotonicNanos: UInt64) {
        wallOrigin = wallClockMicros
        monotonicOrigin = monotonicNanos
    }

    public var isEmpty: Bool { sinks.isEmpty }

    /// A tap with real wall-clock timestamps and the sinks the factories make.
    public static func make(_ factories: [any PacketSinkFactory]) -> PacketTap {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        let wall = Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
        let tap = PacketTap(wallClockMicros: wall, monotonicNanos: MonotonicClock.now())
        for f in factories { tap.add(f.makeSink()) }
        return tap
    }

    public func add(_ sink: @escaping Sink) { sinks.append(sink) }

    /// A packet someone else saw and stamped (a frame of the kernel's monitor channel).
    public func pass(_ record: CaptureRecord) {
        if record.direction == .hostToController { sent += 1 } else { received += 1 }
        for s in sinks { s(record) }
    }

    public func pass(_ packet: HCIPacket, _ direction: Direction, at now: UInt64) {
        if direction == .hostToController { sent += 1 } else { received += 1 }
        guard !sinks.isEmpty else { return }
        let micros = wallOrigin &+ Int64(bitPattern: (now &- monotonicOrigin) / 1000)
        let record = CaptureRecord(timestampMicros: micros, direction: direction, packet: packet)
        for s in sinks { s(record) }
    }
}

/// Makes a tap sink on the loop thread. Sinks (a capture writer, a decoder printing `--trace`)
/// are not thread-safe; their factories are, so callers describe the sink and the loop thread
/// builds it.
public protocol PacketSinkFactory: Sendable {
    func makeSink() -> PacketTap.Sink
}
