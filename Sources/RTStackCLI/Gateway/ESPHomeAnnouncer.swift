#if canImport(Glibc)
import Glibc
#endif

/// Publishes the proxy over mDNS through the board's avahi, without rtstack speaking D-Bus or
/// linking libavahi (the static binary must run on boards with neither): a static service file
/// in avahi's services directory when the gateway may write there (root), else an
/// `avahi-publish-service` child (avahi-utils) for as long as the gateway runs; without avahi,
/// nothing, and Home Assistant adds the proxy by address (Docs/gateway.md). The driver calls
/// `start()` once the API listens and `stop()` when it ends.
final class ESPHomeAnnouncer {
    enum Publication: Equatable {
        case none
        case serviceFile(String)
        case publisher(pid_t)
    }

    let announcement: ESPHomeAnnouncement
    let servicesDirectory: String
    let publishCommand: String
    private(set) var publication = Publication.none

    init(announcement: ESPHomeAnnouncement, servicesDirectory: String = "/etc/avahi/services",
         publishCommand: String = "avahi-publish-service") {
        self.announcement = announcement
        self.servicesDirectory = servicesDirectory
        self.publishCommand = publishCommand
    }

    deinit { stop() }

    /// Publishes, and returns the log line that says how (or why not, and what to do instead).
    func start() -> String {
        let service = "\(announcement.name).\(ESPHomeAnnouncement.serviceType) on port \(announcement.port)"
        if access(servicesDirectory, W_OK) == 0 {
            let path = servicesDirectory + "/" + announcement.serviceFileName
            if let problem = Self.write(announcement.serviceFile, to: path) {
                return "mDNS: could not write \(path) (\(problem)); add the proxy in Home Assistant by address"
            }
            publication = .serviceFile(path)
            return "mDNS: avahi publishes \(service) (\(path), removed at stop)"
        }
        if let executable = Self.findExecutable(publishCommand) {
            switch Self.spawn(executable, arguments: announcement.publishArguments) {
            case .success(let pid):
                publication = .publisher(pid)
                return "mDNS: \(executable) publishes \(service) while the gateway runs"
            case .failure(let code):
                return "mDNS: could not start \(executable) (\(String(cString: strerror(code.rawValue)))); add the proxy in Home Assistant by address"
            }
        }
        let directoryExists = access(servicesDirectory, F_OK) == 0
        let why = directoryExists
            ? "\(servicesDirectory) is not writable by this user and \(publishCommand) is not installed (Debian: avahi-utils)"
            : "no avahi on this board (\(servicesDirectory) does not exist)"
        return "mDNS: \(service) is not published: \(why); add the proxy in Home Assistant by address"
    }

    /// Withdraws what `start` published.
    func stop() {
        switch publication {
        case .none:
            break
        case .serviceFile(let path):
            unlink(path)
        case .publisher(let pid):
            // SIGTERM withdraws the service; a child that does not end within a second is
            // killed, so the gateway's stop never hangs on it.
            kill(pid, SIGTERM)
            var status: Int32 = 0
            var ended = false
            for _ in 0..<100 where !ended {
                ended = waitpid(pid, &status, WNOHANG) != 0
                if !ended { usleep(10_000) }
            }
            if !ended {
                kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
            }
        }
        publication = .none
    }

    // MARK: - I/O

    /// Writes beside the target and renames, so avahi never reads half a file; the problem if not.
    private static func write(_ text: String, to path: String) -> String? {
        let temporary = path + ".new"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        let code = errno
        close(fd)
        guard written == bytes.count else {
            unlink(temporary)
            return written < 0 ? String(cString: strerror(code)) : "short write"
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            return String(cString: strerror(code))
        }
        return nil
    }

    /// `name` itself when it holds a slash, else the first executable of that name on PATH.
    static func findExecutable(_ name: String) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = directory + "/" + name
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Starts `executable` with `arguments`, its output to /dev/null (its errors still reach
    /// the gateway's stderr, the journal under systemd).
    private static func spawn(_ executable: String, arguments: [String]) -> Result<pid_t, SpawnError> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        // The child starts with no signal blocked and SIGTERM, SIGINT and SIGPIPE at their
        // defaults, whatever the gateway's thread had (an ignored disposition survives exec).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        return result == 0 ? .success(pid) : .failure(SpawnError(rawValue: result))
    }

    struct SpawnError: Error { let rawValue: Int32 }

    /// "wifi" or "ethernet": the kind of the interface the default route leaves by (from
    /// /proc/net/route, whose destination column is 00000000 for it); nil without one.
    static func network(routeTable: String, isWireless: (String) -> Bool) -> String? {
        for line in routeTable.split(separator: "\n").dropFirst() {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count > 1, fields[1] == "00000000" else { continue }
            return isWireless(String(fields[0])) ? "wifi" : "ethernet"
        }
        return nil
    }

    /// This board's `network`, for the announcement.
    static func currentNetwork() -> String? {
        let fd = open("/proc/net/route", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            bytes += buffer[0..<n]
        }
        return network(routeTable: String(decoding: bytes, as: UTF8.self)) { access("/sys/class/net/\($0)/wireless", F_OK) == 0 }
    }
}
