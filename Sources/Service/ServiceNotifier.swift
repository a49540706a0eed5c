import Glibc

/// systemd's notification protocol (sd_notify(3)): newline-separated `KEY=VALUE` assignments in
/// one datagram to the Unix socket named by `NOTIFY_SOCKET` — `READY=1` once the service
/// works, `WATCHDOG=1` at least every half `WatchdogSec`, `RELOADING=1` and `STOPPING=1` around
/// a reload and a stop, `STATUS=…` for `systemctl status`. The protocol is one `sendto`, so it
/// is written here rather than linking libsystemd into a one-file binary.
///
/// Datagrams go out with MSG_DONTWAIT: the event loop never blocks on systemd, and a
/// notification systemd cannot take right now fails with a reason instead.
public final class ServiceNotifier {
    public let socketPath: String
    private let fd: Int32
    private let address: UnixSocketAddress

    /// The notifier for this process when systemd started it with `Type=notify` (NOTIFY_SOCKET
    /// is set); nil otherwise, and the service works the same without it.
    public static func fromEnvironment() throws(ServiceNotifierError) -> ServiceNotifier? {
        guard let p = getenv("NOTIFY_SOCKET") else { return nil }
        let path = String(cString: p)
        return path.isEmpty ? nil : try ServiceNotifier(socketPath: path)
    }

    /// `path` is a file system path or, starting with `@`, a name in the abstract namespace.
    public init(socketPath path: String) throws(ServiceNotifierError) {
        socketPath = path
        guard path.hasPrefix("/") || path.hasPrefix("@") else {
            throw ServiceNotifierError.unsupportedAddress(path)
        }
        guard let a = UnixSocketAddress(path, abstract: true) else {
            throw ServiceNotifierError.pathTooLong(path, limit: UnixSocketAddress.limit)
        }
        address = a
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ServiceNotifierError.system("socket(AF_UNIX, SOCK_DGRAM)", errno) }
    }

    deinit { close(fd) }

    /// Sends `assignments` ("READY=1", "STATUS=3 sensors") as one datagram.
    public func send(_ assignments: [String]) throws(ServiceNotifierError) {
        let message = Array(assignments.joined(separator: "\n").utf8)
        let n = message.withUnsafeBytes { m in
            address.withSockaddr { sa, length in
                sendto(fd, m.baseAddress, m.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL), sa, length)
            }
        }
        if n < 0 { throw ServiceNotifierError.system("sendto \(socketPath)", errno) }
    }

    /// The service is up (after the configuration was read and the adapters opened).
    public func ready(status: String? = nil) throws(ServiceNotifierError) {
        try send(["READY=1"] + (status.map { ["STATUS=" + Self.oneLine($0)] } ?? []))
    }

    /// The watchdog ping.
    public func watchdog() throws(ServiceNotifierError) { try send(["WATCHDOG=1"]) }

    public func status(_ text: String) throws(ServiceNotifierError) { try send(["STATUS=" + Self.oneLine(text)]) }

    /// A reload starts (SIGHUP); `ready` again when it is done. `MONOTONIC_USEC` is the reload's
    /// start on CLOCK_MONOTONIC, as systemd 253's Type=notify-reload wants (older ones ignore it).
    public func reloading(monotonicMicroseconds: UInt64) throws(ServiceNotifierError) {
        try send(["RELOADING=1", "MONOTONIC_USEC=\(monotonicMicroseconds)"])
    }

    public func stopping() throws(ServiceNotifierError) { try send(["STOPPING=1"]) }

    /// The exit reason for `systemctl status` when the service fails.
    public func failed(errno code: Int32) throws(ServiceNotifierError) { try send(["ERRNO=\(code)"]) }

    static func oneLine(_ s: String) -> String {
        String(s.map { $0 == "\n" ? " " : $0 })
    }
}

public enum ServiceNotifierError: Error, Sendable, Equatable, CustomStringConvertible {
    /// NOTIFY_SOCKET is not a path or an abstract name (systemd 254's vsock: addresses).
    case unsupportedAddress(String)
    case pathTooLong(String, limit: Int)
    case system(String, Int32)

    public var description: String {
        switch self {
        case .unsupportedAddress(let a): return "NOTIFY_SOCKET '\(a)' is neither a path nor an abstract socket name (@name)"
        case .pathTooLong(let p, let limit): return "NOTIFY_SOCKET '\(p)' is longer than \(limit) bytes"
        case .system(let what, let code): return what + ": " + String(cString: strerror(code))
        }
    }
}
