import Capture
import Glibc
import Wire

/// `--adapter replay:FILE`: a recorded controller played back. The controller→host packets
/// of a capture arrive at their recorded pace (relative to the first one) through a socket
/// pair, as if from an H4 link; what the host sends is read and dropped. When the recording
/// ends the stream ends, so the host sees the controller go away.
///
/// It answers nothing by itself: a replay is faithful as long as the host behaves as it did
/// when recording (the replay tests check exactly that, without the pacing).
public final class ReplayTransport: DescriptorTransport {
    public let name: String
    public var framing: TransportFraming { .h4Stream }
    var io: DescriptorIO

    struct Timed: Sendable {
        var offsetNanos: UInt64
        var bytes: [UInt8]
    }

    public init(path: String) throws(TransportError) {
        name = "replay:\(path)"
        var reader: CaptureReader
        do {
            reader = try CaptureFile.open(path: path)
        } catch {
            throw .unavailable("replay:\(path): \(error)")
        }
        var packets: [Timed] = []
        var first: Int64?
        while true {
            let record: CaptureRecord?
            do {
                record = try reader.next()
            } catch {
                if error.endsStream { break }
                continue
            }
            guard let r = record else { break }
            let t0 = first ?? r.timestampMicros
            first = t0
            guard r.direction == .controllerToHost else { continue }
            let offset = UInt64(max(0, r.timestampMicros - t0)) * 1000
            packets.append(Timed(offsetNanos: offset, bytes: r.packet.h4Bytes))
        }
        guard !packets.isEmpty else {
            throw .unavailable("replay:\(path): the capture has no controller→host packets to play")
        }
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0 else {
            throw .systemCall(operation: "socketpair", errno: currentErrno)
        }
        if let e = FileDescriptorFlags.makeNonBlockingCloseOnExec(pair[0]) {
            FileDescriptorFlags.closeIgnoringErrors(pair[0])
            FileDescriptorFlags.closeIgnoringErrors(pair[1])
            throw .systemCall(operation: "fcntl", errno: e)
        }
        io = DescriptorIO(fd: pair[0], name: name, writeCall: .socketSend, queueLimit: 1 << 20, keepsPacketBoundaries: false)
        let feederFD = pair[1]
        let list = packets
        let spawned = LoopThread.spawn(name: "rtstack-replay") { ReplayTransport.feed(list, fd: feederFD) }
        if spawned.thread == nil {
            FileDescriptorFlags.closeIgnoringErrors(feederFD)
            io.close()
            throw .systemCall(operation: "pthread_create", errno: spawned.error)
        } else if let t = spawned.thread {
            pthread_detach(t)
        }
    }

    deinit { io.close() }

    /// The playing side: waits for each packet's moment while draining (and dropping) what the
    /// host writes, then sends it; closes its end after the last one.
    static func feed(_ packets: [Timed], fd: Int32) {
        defer { FileDescriptorFlags.closeIgnoringErrors(fd) }
        let start = MonotonicClock.now()
        var sink = [UInt8](repeating: 0, count: 4096)
        for p in packets {
            while true {
                let now = MonotonicClock.now()
                let due = start &+ p.offsetNanos
                if now >= due { break }
                var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let waitMs = Int32(min(1000, (due - now + 999_999) / 1_000_000))
                let n = poll(&pfd, 1, waitMs)
                if n > 0 {
                    if pfd.revents & Int16(POLLHUP | POLLERR) != 0 { return }
                    let got = sink.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                    if got == 0 { return }
                }
            }
            var off = 0
            while off < p.bytes.count {
                let n = p.bytes.withUnsafeBytes { send(fd, $0.baseAddress! + off, p.bytes.count - off, Int32(MSG_NOSIGNAL)) }
                if n < 0 {
                    if errno == EINTR { continue }
                    return
                }
                off += n
            }
        }
        // Let the host read the last packets before the end of the stream.
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        _ = poll(&pfd, 1, 200)
    }
}
