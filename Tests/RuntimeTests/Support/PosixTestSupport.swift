import Glibc
@testable import Runtime

/// Generous limits: tests assert ordering and "not before", never tight timing (2 shared cores).
let testTimeout: UInt64 = 10 * MonotonicClock.nanosecondsPerSecond

/// Polls `condition` every millisecond until it holds or `timeout` passes.
func eventually(timeout: UInt64 = testTimeout, _ condition: () -> Bool) -> Bool {
    let deadline = MonotonicClock.now() + timeout
    while MonotonicClock.now() < deadline {
        if condition() { return true }
        usleep(1000)
    }
    return condition()
}

/// `eventually` for async tests: sleeps instead of blocking its thread, so that the tasks it
/// waits for can run on the pool (with 2 cores the pool has 2 threads, and a test blocking
/// one while another test blocks the other starves every task the test started).
func eventuallyAsync(timeout: UInt64 = testTimeout, _ condition: () -> Bool) async -> Bool {
    let deadline = MonotonicClock.now() + timeout
    while MonotonicClock.now() < deadline {
        if condition() { return true }
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
    return condition()
}

/// Reads from a blocking-or-not descriptor until `count` bytes arrived, EOF, or timeout.
func readBytes(_ fd: Int32, count: Int, timeout: UInt64 = testTimeout) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(count)
    var chunk = [UInt8](repeating: 0, count: 65536)
    let deadline = MonotonicClock.now() + timeout
    while out.count < count {
        let now = MonotonicClock.now()
        guard now < deadline else { break }
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&p, 1, PollTimeout.milliseconds(until: deadline, now: now))
        if ready <= 0 { continue }
        let want = min(chunk.count, count - out.count)
        let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, want) }
        if n > 0 {
            out.append(contentsOf: chunk[0..<n])
        } else if n == 0 || (errno != EAGAIN && errno != EINTR) {
            break
        }
    }
    return out
}

/// Writes everything (waiting for POLLOUT on a non-blocking descriptor); false on error/timeout.
@discardableResult
func writeAll(_ fd: Int32, _ bytes: [UInt8], timeout: UInt64 = testTimeout) -> Bool {
    var offset = 0
    let deadline = MonotonicClock.now() + timeout
    while offset < bytes.count {
        let n = bytes.withUnsafeBytes { raw in
            Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
        }
        if n > 0 {
            offset += n
            continue
        }
        if n < 0 && errno == ENOTSOCK {
            let w = bytes.withUnsafeBytes { raw in Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset) }
            if w > 0 { offset += w; continue }
        }
        let code = errno
        guard code == EAGAIN || code == EINTR, MonotonicClock.now() < deadline else { return false }
        var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        _ = poll(&p, 1, 10)
    }
    return true
}

/// A TCP listener on 127.0.0.1 with a kernel-chosen port: the "controller" end of TCP tests.
final class LoopbackListener {
    let fd: Int32
    let port: UInt16

    init(receiveBuffer: Int32? = nil) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        precondition(fd >= 0, "socket: \(errno)")
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        if var size = receiveBuffer {
            // Set before listen so accepted sockets inherit it (and the window stays small).
            _ = setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        precondition(bound == 0, "bind: \(errno)")
        precondition(listen(fd, 8) == 0, "listen: \(errno)")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        self.fd = fd
        self.port = UInt16(bigEndian: address.sin_port)
    }

    /// The next connection (blocking, with the test timeout); -1 if none came.
    func accept() -> Int32 {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, 10_000) == 1 else { return -1 }
        return Glibc.accept(fd, nil, nil)
    }

    deinit { Glibc.close(fd) }
}

/// A port on 127.0.0.1 where nothing listens: bound (so no one else takes it) but not listening,
/// so a connect gets RST → ECONNREFUSED.
final class RefusingPort {
    let fd: Int32
    let port: UInt16

    init() {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        self.fd = fd
        self.port = UInt16(bigEndian: address.sin_port)
    }

    deinit { Glibc.close(fd) }
}

/// A pseudo-terminal pair: `masterFD` plays the controller, `path` is the serial port.
final class PseudoTerminal {
    let masterFD: Int32
    private var slaveFD: Int32
    let path: String

    init() {
        var master: Int32 = -1
        var slave: Int32 = -1
        var name = [CChar](repeating: 0, count: 128)
        precondition(openpty(&master, &slave, &name, nil, nil) == 0, "openpty: \(errno)")
        masterFD = master
        slaveFD = slave
        path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let flags = fcntl(master, F_GETFL)
        _ = fcntl(master, F_SETFL, flags | O_NONBLOCK)
    }

    /// Closes openpty's own slave descriptor once the transport has the port open (otherwise
    /// it would keep the port alive after the transport closes).
    func releaseInitialSlave() {
        if slaveFD >= 0 { Glibc.close(slaveFD); slaveFD = -1 }
    }

    func closeMaster() { Glibc.close(masterFD) }

    deinit {
        if slaveFD >= 0 { Glibc.close(slaveFD) }
    }
}

/// A transport over a Unix socketpair, for loop tests that need exact control of the peer.
/// SOCK_SEQPACKET keeps message boundaries, which models the HCI socket's `.packets` framing.
final class SocketPairTransport: HCITransport {
    let name: String
    let framing: TransportFraming
    private var io: DescriptorIO
    var fd: Int32 { io.fd }
    var hasPendingWrites: Bool { io.hasPendingWrites }

    /// Returns the transport and the peer descriptor (blocking; the test owns it).
    static func make(framing: TransportFraming = .h4Stream, queueLimit: Int = 1 << 20) -> (SocketPairTransport, Int32) {
        var fds: [Int32] = [-1, -1]
        let type = framing == .packets ? Int32(SOCK_SEQPACKET.rawValue) : Int32(SOCK_STREAM.rawValue)
        precondition(socketpair(AF_UNIX, type, 0, &fds) == 0, "socketpair: \(errno)")
        _ = FileDescriptorFlags.makeNonBlockingCloseOnExec(fds[0])
        let transport = SocketPairTransport(fd: fds[0], framing: framing, queueLimit: queueLimit)
        return (transport, fds[1])
    }

    private init(fd: Int32, framing: TransportFraming, queueLimit: Int) {
        self.name = "socketpair"
        self.framing = framing
        self.io = DescriptorIO(fd: fd, name: "socketpair", writeCall: .socketSend, queueLimit: queueLimit,
                               keepsPacketBoundaries: framing == .packets)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(TransportError) -> Int { try io.read(into: buffer) }
    func write(_ bytes: UnsafeRawBufferPointer) throws(TransportError) { try io.write(bytes) }
    func flushPendingWrites() throws(TransportError) { try io.flushPendingWrites() }
    func close() { io.close() }
    deinit { io.close() }
}
