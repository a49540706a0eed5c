#if canImport(Glibc)
import Glibc
#endif
import HostCore
import Runtime
import Service

/// The gateway's local control socket: a Unix stream socket whose file's mode and group say who
/// may connect, carrying JSON Lines (Docs/gateway.md, "The control socket"). It only moves
/// lines: requests go to the `GatewayController`, its answers and events come back. Runs on the
/// gateway's loop thread, non-blocking throughout.
final class ControlServer {
    struct Client {
        let fd: Int32
        var input: [UInt8] = []
        var output: [UInt8] = []
    }

    /// A client that does not read its events is dropped past this many waiting bytes, so a stuck
    /// program cannot make the gateway hold its notifications without bound.
    static let outputLimit = 1 << 20
    /// A request line longer than this is no request.
    static let lineLimit = 64 * 1024

    let path: String
    private let listenFD: Int32
    private(set) var clients: [Int: Client] = [:]
    private var nextID = 1
    private var buffer = [UInt8](repeating: 0, count: 16384)
    /// Out of file descriptors the listener rests instead of spinning (`DescriptorShortage`).
    private var shortage = DescriptorShortage()
    /// accept(2), replaced by tests: running out of descriptors for real would starve every other
    /// test of the process.
    var acceptCall: (Int32) -> Int32 = { Glibc.accept($0, nil, nil) }
    private var log: [(LogLine.Level, String)] = []

    /// Creates the socket file with `mode` (and `group`), replacing a stale one left by a
    /// gateway that died; refuses when another gateway is listening there.
    init(path: String, mode: Int, group: String?) throws(ControlSocketError) {
        self.path = path
        guard let address = UnixSocketAddress(path) else { throw .pathTooLong(path, limit: UnixSocketAddress.limit) }
        let gid: gid_t?
        if let group {
            guard let g = getgrnam(group) else { throw .noSuchGroup(group) }
            gid = g.pointee.gr_gid
        } else {
            gid = nil
        }
        try Self.makeParent(of: path)
        try Self.removeStale(path, address: address)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .system("socket(AF_UNIX)", path, errno) }
        // The file is given `mode` between bind and listen: until listen(2) a connect is refused
        // (ECONNREFUSED), so nobody gets in through the default mode in between. Not umask(2)
        // around bind: the mask is the process's, and every file another thread created meanwhile
        // (a capture, a test's script) got the socket's mode.
        guard address.withSockaddr({ bind(fd, $0, $1) }) == 0 else {
            let code = errno
            Glibc.close(fd)
            throw .system("bind", path, code)
        }
        if chmod(path, mode_t(mode)) != 0 || (gid.map { chown(path, uid_t.max, $0) != 0 } ?? false) {
            let code = errno
            Glibc.close(fd)
            unlink(path)
            throw gid != nil && code == EPERM ? .notInGroup(group ?? "", path) : .system("chmod/chown", path, code)
        }
        guard listen(fd, 16) == 0 else {
            let code = errno
            Glibc.close(fd)
            unlink(path)
            throw .system("listen", path, code)
        }
        listenFD = fd
    }

    private static func makeParent(of path: String) throws(ControlSocketError) {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")), slash != path.utf8.startIndex else { return }
        let parent = String(path[..<slash])
        var st = stat()
        if stat(parent, &st) == 0 { return }
        // Only the last level is made (the default's rtstack folder); a missing tree is a typo.
        guard mkdir(parent, 0o755) == 0 || errno == EEXIST else { throw .system("mkdir", parent, errno) }
    }

    /// A socket file nobody listens on is a gateway's that died: removed. One somebody listens
    /// on is another gateway's.
    private static func removeStale(_ path: String, address: UnixSocketAddress) throws(ControlSocketError) {
        var st = stat()
        guard lstat(path, &st) == 0 else { return }
        guard (st.st_mode & S_IFMT) == S_IFSOCK else { throw .notASocket(path) }
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { Glibc.close(probe) }
        let connected = address.withSockaddr { connect(probe, $0, $1) }
        if connected == 0 { throw .inUse(path) }
        unlink(path)
    }

    /// The listening descriptor, then every client's (for POLLOUT too while output waits).
    func descriptors() -> [(fd: Int32, events: Int16, client: Int?)] {
        var out: [(Int32, Int16, Int?)] = shortage.isPaused ? [] : [(listenFD, Int16(POLLIN), nil)]
        for (id, c) in clients.sorted(by: { $0.key < $1.key }) {
            out.append((c.fd, Int16(POLLIN) | (c.output.isEmpty ? 0 : Int16(POLLOUT)), id))
        }
        return out
    }

    /// New connections on the listening socket. Out of file descriptors, the listener rests a
    /// while (`DescriptorShortage`): the connection stays in the backlog and would make it ready
    /// again at once.
    func accept(at now: HostTime) {
        guard !shortage.isPaused else { return }
        while true {
            let fd = acceptCall(listenFD)
            guard fd >= 0 else {
                let code = errno
                if let line = shortage.acceptFailed(code, listener: "the control socket \(path)", at: now).line {
                    log.append((.warning, line))
                }
                return
            }
            if let line = shortage.accepted(at: now) { log.append((.notice, "control socket: " + line)) }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            clients[nextID] = Client(fd: fd)
            nextID += 1
        }
    }

    /// When a resting listener is polled again; nil while it is.
    var nextDeadline: HostTime? { shortage.pausedUntil }

    func advanceTime(to now: HostTime) { shortage.advanceTime(to: now) }

    /// What the server has to say since it was last asked (a shortage of descriptors and its end).
    func takeLog() -> [(LogLine.Level, String)] {
        defer { log.removeAll() }
        return log
    }

    /// Reads what client `id` sent: its complete lines, and whether it is gone (then it is
    /// already closed here).
    func read(_ id: Int, events: Int16) -> (lines: [String], closed: Bool) {
        guard var c = clients[id] else { return ([], true) }
        if events & Int16(POLLOUT) != 0, !flush(&c) {
            drop(id)
            return ([], true)
        }
        var lines: [String] = []
        if events & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
            let n = buffer.withUnsafeMutableBytes { recv(c.fd, $0.baseAddress, $0.count, 0) }
            if n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR) {
                drop(id)
                return ([], true)
            }
            if n > 0 { c.input.append(contentsOf: buffer[0..<n]) }
            while let nl = c.input.firstIndex(of: 0x0A) {
                lines.append(String(decoding: c.input[..<nl], as: UTF8.self))
                c.input.removeSubrange(...nl)
            }
            if c.input.count > Self.lineLimit {
                c.output.append(contentsOf: Array("{\"ok\":false,\"error\":\"a request line is longer than \(Self.lineLimit) bytes\"}\n".utf8))
                _ = flush(&c)
                drop(id)
                return (lines, true)
            }
        }
        clients[id] = c
        return (lines.filter { !$0.isEmpty }, false)
    }

    /// Queues one line for client `id` and writes what the socket takes; false when the client
    /// is gone or was dropped for not reading.
    @discardableResult
    func send(_ id: Int, _ line: String) -> Bool {
        guard var c = clients[id] else { return false }
        c.output.append(contentsOf: line.utf8)
        c.output.append(0x0A)
        guard c.output.count <= Self.outputLimit, flush(&c) else {
            drop(id)
            return false
        }
        clients[id] = c
        return true
    }

    private func flush(_ c: inout Client) -> Bool {
        while !c.output.isEmpty {
            let n = c.output.withUnsafeBytes { Glibc.send(c.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
            if n > 0 { c.output.removeFirst(n); continue }
            return n < 0 && (errno == EAGAIN || errno == EINTR)
        }
        return true
    }

    func drop(_ id: Int) {
        guard let c = clients.removeValue(forKey: id) else { return }
        Glibc.close(c.fd)
    }

    /// Closes every connection and removes the socket file.
    func close() {
        for id in Array(clients.keys) { drop(id) }
        Glibc.close(listenFD)
        unlink(path)
    }

    /// The default path: systemd's `RuntimeDirectory` (`$RUNTIME_DIRECTORY`), else
    /// `$XDG_RUNTIME_DIR/rtstack`, else `/tmp/rtstack-<uid>`; the file is `gateway.sock`.
    static func defaultPath() -> String {
        func env(_ n: String) -> String? { getenv(n).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } }
        if let d = env("RUNTIME_DIRECTORY") {
            return String(d.split(separator: ":").first ?? Substring(d)) + "/gateway.sock"
        }
        if let d = env("XDG_RUNTIME_DIR") { return d + "/rtstack/gateway.sock" }
        return "/tmp/rtstack-\(getuid())/gateway.sock"
    }
}

/// Why the control socket could not be made; each names the path and what to do.
enum ControlSocketError: Error, CustomStringConvertible {
    case pathTooLong(String, limit: Int)
    case noSuchGroup(String)
    case notInGroup(String, String)
    case notASocket(String)
    case inUse(String)
    case system(String, String, Int32)

    var description: String {
        let fix = "; give another path with --control-socket PATH (or 'off')"
        switch self {
        case let .pathTooLong(p, limit): return "control socket path '\(p)' is longer than \(limit) bytes" + fix
        case let .noSuchGroup(g): return "control socket group '\(g)' does not exist (see /etc/group)"
        case let .notInGroup(g, p): return "cannot give \(p) to group '\(g)': the gateway's user is not a member of it"
        case let .notASocket(p): return "\(p) exists and is not a socket; it is not the gateway's" + fix
        case let .inUse(p): return "another gateway is listening on \(p) (each needs its own control socket)" + fix
        case let .system(call, p, code): return "control socket \(p): \(call) failed: \(String(cString: strerror(code)))" + fix
        }
    }
}
