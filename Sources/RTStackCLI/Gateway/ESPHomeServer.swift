#if canImport(Glibc)
import Glibc
#endif
import ESPHomeAPI
import HostCore
import Service

/// The Home Assistant Bluetooth proxy's TCP listener: ESPHome's native API for every client
/// (one `APIServerConnection` each), on the gateway's loop thread and non-blocking throughout,
/// like the control socket. It only moves bytes and keeps time: the Bluetooth requests go up to
/// the proxy, its answers come down through `send`. A client that misbehaves (bytes that are no
/// frames, a handshake that never ends, a socket it does not read, a reset) loses its own
/// connection with one log line; the links, the other clients and MQTT never notice (issue 20).
final class ESPHomeServer {
    struct Client {
        let fd: Int32
        /// `192.168.1.20:51234`: what the log lines name.
        let peer: String
        var connection: APIServerConnection
        /// Bytes the socket did not take yet.
        var output: [UInt8] = []
        let acceptedAt: HostTime
        /// The last bytes from the client after its hello (ESPHome's `last_traffic_`).
        var lastTraffic: HostTime
        var pingSent = false
    }

    /// ESPHome's default `max_connections` on its host platform (8; 5 on an ESP32 since 2026):
    /// Home Assistant needs one, ESPHome's dashboard a second. Connections beyond it are
    /// accepted and closed at once, so a flood of connects holds nothing.
    static let defaultClientLimit = 8
    /// From the connect to the client's hello, Noise handshake included, as ESPHome's
    /// `HANDSHAKE_TIMEOUT_MS`: real clients take milliseconds; a stalled one must not hold a slot.
    static let handshakeTimeout = HostDuration.seconds(15)
    /// ESPHome's keepalive: a client silent for 60 s is pinged, and dropped when nothing has come
    /// 150 s (2.5 times that) after its last bytes. aioesphomeapi pings every 20 s itself.
    static let keepaliveInterval = HostDuration.seconds(60)
    static let keepaliveTimeout = HostDuration.seconds(150)
    /// A client that does not read is dropped past this many waiting bytes, so a stuck one cannot
    /// make the gateway hold advertisements without bound (a second's worth is far less).
    static let outputLimit = 512 * 1024
    /// Connections accepted per readiness of the listener, so a flood cannot starve the loop.
    static let acceptsPerTurn = 64
    /// Refused connections are logged at most this often (a flood would flood the journal).
    static let refusalLogInterval = HostDuration.seconds(10)

    let endpoint: ESPHomeEndpoint
    /// The address the listener got (the port the system chose for port 0).
    let address: InternetSocketAddress
    let identity: ProxyIdentity
    let clientLimit: Int
    private let key: NoisePresharedKey?
    private var listenFD: Int32
    private(set) var clients: [Int: Client] = [:]
    private var nextID = 1
    private var buffer = [UInt8](repeating: 0, count: 16384)
    private var log: [(LogLine.Level, String)] = []
    private var lastRefusalLogged: HostTime?
    private var refusalsNotLogged = 0
    private var shortage = DescriptorShortage()
    /// accept(2), replaced by tests: running out of descriptors for real would starve every other
    /// test of the process.
    var acceptCall: (Int32, UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32 = { Glibc.accept($0, $1, $2) }

    /// Listens on `endpoint`; `key` nil serves plaintext clients only, as ESPHome without
    /// `api: encryption:`.
    init(endpoint: ESPHomeEndpoint, identity: ProxyIdentity, key: NoisePresharedKey?,
         clientLimit: Int = ESPHomeServer.defaultClientLimit) throws(ESPHomeServerError) {
        (listenFD, address) = try Self.listen(on: endpoint)
        self.endpoint = endpoint
        self.identity = identity
        self.key = key
        self.clientLimit = clientLimit
    }

    deinit {
        for c in clients.values { Glibc.close(c.fd) }
        if listenFD >= 0 { Glibc.close(listenFD) }
    }

    /// The bound port.
    var port: UInt16 { address.port }

    /// Said once at start when the proxy is reachable from other machines without encryption:
    /// allowed, as ESPHome allows it, but whoever reaches the port may use the Bluetooth links.
    var unencryptedNotice: String? {
        guard key == nil, !address.isLoopback else { return nil }
        return "the ESPHome API on \(address.text) is not encrypted: anyone who can reach it may scan, connect and write through this proxy; give --esphome-key (32 bytes of Base64, `openssl rand -base64 32`, the key Home Assistant then asks for) or listen on 127.0.0.1"
    }

    /// The listener (client nil; not while it rests at the descriptor limit), then every client's
    /// descriptor (POLLOUT too while output waits).
    func descriptors() -> [(fd: Int32, events: Int16, client: Int?)] {
        var out: [(fd: Int32, events: Int16, client: Int?)] = []
        if listenFD >= 0, !shortage.isPaused { out.append((listenFD, Int16(POLLIN), nil)) }
        for (id, c) in clients.sorted(by: { $0.key < $1.key }) {
            out.append((c.fd, Int16(POLLIN) | (c.output.isEmpty ? 0 : Int16(POLLOUT)), id))
        }
        return out
    }

    /// New connections; those beyond the client limit are closed at once. Out of file
    /// descriptors, the listener rests a while (`DescriptorShortage`) rather than spin.
    func accept(at now: HostTime) {
        guard listenFD >= 0, !shortage.isPaused else { return }
        for _ in 0..<Self.acceptsPerTurn {
            let (peerAddress, fd) = InternetSocketAddress.filled { acceptCall(listenFD, $0, $1) }
            guard fd >= 0 else {
                let code = errno
                let (short, line) = shortage.acceptFailed(code, listener: "ESPHome API on \(address.text)", at: now)
                if let line { log.append((.warning, line)) }
                if !short, code != EAGAIN, code != EINTR, code != ECONNABORTED {
                    logRefusal("cannot accept a connection: \(String(cString: strerror(code)))", at: now)
                }
                return
            }
            if let line = shortage.accepted(at: now) { log.append((.notice, "ESPHome API: " + line)) }
            let peer = peerAddress.text
            guard clients.count < clientLimit else {
                Glibc.close(fd)
                logRefusal("refused \(peer): \(clientLimit) clients are connected, the most this proxy serves (as ESPHome's max_connections)", at: now)
                continue
            }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            // Notifications and advertisements are small messages whose latency matters.
            var one: Int32 = 1
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            clients[nextID] = Client(fd: fd, peer: peer, connection: APIServerConnection(identity: identity, key: key),
                                     acceptedAt: now, lastTraffic: now)
            log.append((.debug, "ESPHome API client \(peer) connected"))
            nextID += 1
        }
    }

    /// Reads what client `id` sent: the Bluetooth requests it completes (in order, including
    /// those before a fault), and whether the client is gone (then it is closed here and logged).
    func read(_ id: Int, events: Int16, at now: HostTime) -> (requests: [ClientMessage], closed: Bool) {
        guard var c = clients[id] else { return ([], true) }
        if events & Int16(POLLOUT) != 0, let failure = flush(&c) {
            finish(id, c, because: failure, level: .info)
            return ([], true)
        }
        guard events & Int16(POLLIN | POLLHUP | POLLERR) != 0 else {
            clients[id] = c
            return ([], false)
        }
        let n = buffer.withUnsafeMutableBytes { recv(c.fd, $0.baseAddress, $0.count, 0) }
        if n < 0, errno == EAGAIN || errno == EINTR {
            clients[id] = c
            return ([], false)
        }
        guard n > 0 else {
            let reason = n == 0 ? (c.connection.isReady ? "the client closed the connection" : "the client closed the connection before its hello")
                : errno == ECONNRESET ? "the client reset the connection" : "the socket could not be read: \(String(cString: strerror(errno)))"
            finish(id, c, because: reason, level: .info)
            return ([], true)
        }
        let requests = c.connection.receive(buffer[0..<n])
        // Only traffic after the hello counts (ESPHome): before it the handshake deadline holds.
        if c.connection.isReady {
            c.lastTraffic = now
            c.pingSent = false
        }
        return (requests, !settle(id, &c))
    }

    /// Queues a message for client `id` and writes what the socket takes; false when the client
    /// is gone, or was dropped for not reading (then logged).
    @discardableResult
    func send(_ message: ServerMessage, to id: Int) -> Bool {
        guard var c = clients[id] else { return false }
        c.connection.send(message)
        return settle(id, &c)
    }

    func isReady(_ id: Int) -> Bool { clients[id]?.connection.isReady ?? false }
    func acceptsShortUUIDs(_ id: Int) -> Bool { clients[id]?.connection.acceptsShortUUIDs ?? false }

    /// The earliest handshake deadline, keepalive ping or keepalive timeout of any client, or
    /// the end of the listener's rest.
    var nextDeadline: HostTime? {
        var d = EarliestDeadline(shortage.pausedUntil)
        for c in clients.values { d.consider(deadline(of: c)) }
        return d.time
    }

    private func deadline(of c: Client) -> HostTime {
        guard c.connection.isReady else { return c.acceptedAt + Self.handshakeTimeout }
        return c.lastTraffic + (c.pingSent ? Self.keepaliveTimeout : Self.keepaliveInterval)
    }

    /// Pings clients silent for the keepalive interval; closes those past the handshake or
    /// keepalive timeout and returns them. Ends the listener's rest when it is over.
    func advanceTime(to now: HostTime) -> [Int] {
        shortage.advanceTime(to: now)
        var closed: [Int] = []
        for id in clients.keys.sorted() {
            guard var c = clients[id], deadline(of: c) <= now else { continue }
            if !c.connection.isReady {
                let what = key == nil ? "its hello" : "its Noise handshake and hello"
                finish(id, c, because: "the client did not finish \(what) within \(Self.handshakeTimeout / 1_000_000_000) s", level: .warning)
                closed.append(id)
            } else if c.pingSent {
                finish(id, c, because: "the client sent nothing for \(Self.keepaliveTimeout / 1_000_000_000) s, not even an answer to the keepalive ping", level: .warning)
                closed.append(id)
            } else {
                c.pingSent = true
                c.connection.send(.ping)
                if !settle(id, &c) { closed.append(id) }
            }
        }
        return closed
    }

    /// The log lines since the last call, for the gateway's log.
    func takeLog() -> [(LogLine.Level, String)] {
        defer { log.removeAll(keepingCapacity: true) }
        return log
    }

    /// Ends every connection (ESPHome's DisconnectRequest to clients past their hello, written
    /// as far as the sockets take it) and stops listening.
    func closeAll(because reason: String) {
        let count = clients.count
        for id in clients.keys.sorted() {
            guard var c = clients[id] else { continue }
            c.connection.disconnect(because: reason)
            c.output += c.connection.takeOutput()
            _ = flush(&c)
            clients[id] = nil
            Glibc.close(c.fd)
        }
        if count > 0 { log.append((.info, "closed \(count) ESPHome API client(s): \(reason)")) }
        if listenFD >= 0 {
            Glibc.close(listenFD)
            listenFD = -1
        }
    }

    // MARK: - Output and closing

    /// Moves the connection's output to the socket; closes the client when the connection ended,
    /// its output passed the limit or the socket failed. True while the client stays.
    private func settle(_ id: Int, _ c: inout Client) -> Bool {
        let waiting = !c.output.isEmpty
        c.output += c.connection.takeOutput()
        if let reason = c.connection.closeReason {
            _ = flush(&c)
            finish(id, c, because: reason, level: c.connection.endedByClient ? .info : .warning)
            return false
        }
        if c.output.count > Self.outputLimit {
            finish(id, c, because: "the client does not read what it is sent: \(c.output.count) bytes wait, more than the \(Self.outputLimit) allowed", level: .warning)
            return false
        }
        // While earlier bytes wait, the socket is full: POLLOUT says when to go on.
        if !waiting, let failure = flush(&c) {
            finish(id, c, because: failure, level: .info)
            return false
        }
        clients[id] = c
        return true
    }

    /// Writes what the socket takes; the reason when the socket failed.
    private func flush(_ c: inout Client) -> String? {
        var written = 0
        defer { if written > 0 { c.output.removeFirst(written) } }
        while written < c.output.count {
            let n = c.output.withUnsafeBytes {
                Glibc.send(c.fd, $0.baseAddress! + written, $0.count - written, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            }
            if n > 0 { written += n; continue }
            if n < 0, errno == EAGAIN || errno == EINTR { return nil }
            return errno == ECONNRESET || errno == EPIPE ? "the client reset the connection" : "the socket could not be written to: \(String(cString: strerror(errno)))"
        }
        return nil
    }

    /// Closes client `id` with its one log line. What it sent and was not read yet is read and
    /// dropped first (a little of it), so that the close is a FIN after the last answer (a
    /// refusal's reason) rather than a reset that could discard that answer at the client.
    private func finish(_ id: Int, _ c: Client, because reason: String, level: LogLine.Level) {
        clients[id] = nil
        for _ in 0..<4 {
            let n = buffer.withUnsafeMutableBytes { recv(c.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n <= 0 { break }
        }
        Glibc.close(c.fd)
        let info = c.connection.clientInfo.isEmpty ? "" : " (\(c.connection.clientInfo))"
        log.append((level, "ESPHome API client \(c.peer)\(info): \(reason)"))
    }

    private func logRefusal(_ line: String, at now: HostTime) {
        if let last = lastRefusalLogged, now < last + Self.refusalLogInterval {
            refusalsNotLogged += 1
            return
        }
        let more = refusalsNotLogged > 0 ? " (and \(refusalsNotLogged) more since the last such line)" : ""
        log.append((.warning, "ESPHome API: " + line + more))
        lastRefusalLogged = now
        refusalsNotLogged = 0
    }
}
