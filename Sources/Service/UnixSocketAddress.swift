import Glibc

/// An AF_UNIX address for bind, connect and sendto: a file system path, or (when asked for) a
/// name in the abstract namespace written with a leading `@`, as systemd writes NOTIFY_SOCKET.
/// One place for sun_path's byte layout and the address length, which the notifier, the control
/// socket's server and its client all need.
public struct UnixSocketAddress {
    /// The longest path or name sun_path holds (a path also needs its terminating NUL).
    public static let limit = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    public let path: String
    private var storage = sockaddr_un()
    private let length: socklen_t

    /// nil when `path` is empty or longer than `limit` bytes. `abstract`: a leading `@` names
    /// the abstract namespace (its bytes exactly, no NUL); otherwise `@` is part of a path.
    public init?(_ path: String, abstract: Bool = false) {
        var bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count <= Self.limit else { return nil }
        let isAbstract = abstract && bytes[0] == UInt8(ascii: "@")
        if isAbstract { bytes[0] = 0 }
        self.path = path
        storage.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &storage.sun_path) { raw in for (i, b) in bytes.enumerated() { raw[i] = b } }
        length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + (isAbstract ? 0 : 1))
    }

    /// Calls `body` with the address as a `sockaddr` and its length.
    public func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        withUnsafePointer(to: storage) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }
}
