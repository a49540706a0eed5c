import Glibc

/// H4 over TCP: a virtual controller (Bumble's `tcp-server`, an emulator) or a serial-to-TCP
/// bridge. The stream carries the H4 indicator byte before every packet.
///
/// Not thread-safe: see `HCITransport`.
public final class TCPTransport: DescriptorTransport {
    public let name: String
    public var framing: TransportFraming { .h4Stream }

    var io: DescriptorIO

    public static let defaultConnectTimeout: UInt64 = 5 * MonotonicClock.nanosecondsPerSecond
    public static let defaultWriteQueueLimit = 1 << 20

    /// Resolves `host` (a name, IPv4 or IPv6 literal), connects with a timeout, then switches
    /// the socket to non-blocking with TCP_NODELAY.
    ///
    /// TCP_NODELAY because HCI traffic is many small packets where latency matters (a command
    /// waits for its Command Complete); Nagle would hold them up to 40 ms.
    public init(
        host: String,
        port: UInt16,
        connectTimeout: UInt64 = TCPTransport.defaultConnectTimeout,
        writeQueueLimit: Int = TCPTransport.defaultWriteQueueLimit
    ) throws(TransportError) {
        let endpoint = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        self.name = "tcp:\(endpoint)"
        let fd = try Self.connect(host: host, port: port, endpoint: endpoint, timeout: connectTimeout)
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        self.io = DescriptorIO(fd: fd, name: name, writeCall: .socketSend, queueLimit: writeQueueLimit, keepsPacketBoundaries: false)
    }

    deinit { io.close() }

    // MARK: Connecting

    private static func connect(host: String, port: UInt16, endpoint: String, timeout: UInt64) throws(TransportError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        // No AI_ADDRCONFIG: it drops IPv4 results when only loopback is configured, which is
        // exactly a board talking to a local controller bridge with no network up.
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            let detail = status == EAI_SYSTEM ? describeErrno(currentErrno) : String(cString: gai_strerror(status))
            throw .hostNotFound(host: host, detail: detail)
        }
        defer { freeaddrinfo(list) }

        // Try every address (localhost may give ::1 and 127.0.0.1); report the most telling
        // failure: refused beats timed out beats anything else.
        var failure: TransportError?
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            cursor = entry.pointee.ai_next
            let result = attempt(entry.pointee, endpoint: endpoint, timeout: timeout)
            switch result {
            case .success(let fd):
                return fd
            case .failure(let error):
                if case .connectionRefused = failure { continue }
                if case .connectTimedOut = failure, case .systemCall = error { continue }
                failure = error
            }
        }
        throw failure ?? .hostNotFound(host: host, detail: "no usable address")
    }

    private static func attempt(_ info: addrinfo, endpoint: String, timeout: UInt64) -> Result<Int32, TransportError> {
        let fd = socket(info.ai_family, info.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), info.ai_protocol)
        guard fd >= 0 else { return .failure(.systemCall(operation: "socket", errno: currentErrno)) }
        if let code = FileDescriptorFlags.makeNonBlockingCloseOnExec(fd) {
            FileDescriptorFlags.closeIgnoringErrors(fd)
            return .failure(.systemCall(operation: "fcntl(O_NONBLOCK)", errno: code))
        }
        if Glibc.connect(fd, info.ai_addr, info.ai_addrlen) == 0 { return .success(fd) }
        var code = currentErrno
        if code == EINPROGRESS || code == EINTR {
            code = waitForConnect(fd, timeout: timeout)
        }
        if code == 0 { return .success(fd) }
        FileDescriptorFlags.closeIgnoringErrors(fd)
        switch code {
        case ECONNREFUSED: return .failure(.connectionRefused(endpoint: endpoint))
        case ETIMEDOUT: return .failure(.connectTimedOut(endpoint: endpoint, milliseconds: timeout / MonotonicClock.nanosecondsPerMillisecond))
        default: return .failure(.systemCall(operation: "connect to \(endpoint)", errno: code))
        }
    }

    /// Waits for a non-blocking connect to finish; returns 0 or the connect errno.
    private static func waitForConnect(_ fd: Int32, timeout: UInt64) -> Int32 {
        let deadline = MonotonicClock.now() &+ timeout
        while true {
            let now = MonotonicClock.now()
            guard now < deadline else { return ETIMEDOUT }
            var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let ms = Int32(clamping: (deadline - now + MonotonicClock.nanosecondsPerMillisecond - 1) / MonotonicClock.nanosecondsPerMillisecond)
            let n = poll(&p, 1, ms)
            if n < 0 {
                if currentErrno == EINTR { continue }
                return currentErrno
            }
            if n == 0 { continue }
            var soError: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &soError, &length) == 0 else { return currentErrno }
            return soError
        }
    }
}

@available(*, unavailable, message: "a transport belongs to its event loop thread")
extension TCPTransport: Sendable {}
