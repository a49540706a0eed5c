#if canImport(Glibc)
import Glibc
#endif

extension ESPHomeServer {
    /// How many connections the kernel holds before the server accepts them (ESPHome's host
    /// platform: 4); the server accepts every turn, so this only absorbs a burst.
    static let listenBacklog: Int32 = 8

    /// A bound, listening, non-blocking socket for `endpoint`, and the address it got.
    static func listen(on endpoint: ESPHomeEndpoint) throws(ESPHomeServerError) -> (fd: Int32, address: InternetSocketAddress) {
        guard let host = endpoint.host else {
            // Every address: one IPv6 socket that takes IPv4 clients too, or IPv4 alone on a
            // board whose kernel has no IPv6.
            do throws(ESPHomeServerError) {
                return try listenAnywhere(family: AF_INET6, endpoint: endpoint)
            } catch .system("socket", _, EAFNOSUPPORT) {
                return try listenAnywhere(family: AF_INET, endpoint: endpoint)
            }
        }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(endpoint.port), &hints, &list)
        guard status == 0, let first = list else {
            throw .unknownHost(host, status == EAI_SYSTEM ? String(cString: strerror(errno)) : String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        // A name may resolve to several addresses (localhost: ::1 and 127.0.0.1): the first
        // that binds is the one; the first failure is the one reported.
        var failure: ESPHomeServerError?
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            cursor = entry.pointee.ai_next
            do {
                return try bound(family: entry.pointee.ai_family, endpoint: endpoint) { fd in
                    bind(fd, entry.pointee.ai_addr, entry.pointee.ai_addrlen)
                }
            } catch {
                failure = failure ?? error
            }
        }
        throw failure ?? .unknownHost(host, "no IPv4 or IPv6 address")
    }

    private static func listenAnywhere(family: Int32, endpoint: ESPHomeEndpoint) throws(ESPHomeServerError) -> (fd: Int32, address: InternetSocketAddress) {
        try bound(family: family, endpoint: endpoint) { fd in
            if family == AF_INET6 {
                var off: Int32 = 0
                _ = setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &off, socklen_t(MemoryLayout<Int32>.size))
                var any = sockaddr_in6()
                any.sin6_family = sa_family_t(AF_INET6)
                any.sin6_port = endpoint.port.bigEndian
                return withUnsafePointer(to: &any) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
                }
            }
            var any = sockaddr_in()
            any.sin_family = sa_family_t(AF_INET)
            any.sin_port = endpoint.port.bigEndian
            return withUnsafePointer(to: &any) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
    }

    /// A socket of `family`, bound by `bind`, listening; closed again on any failure.
    private static func bound(family: Int32, endpoint: ESPHomeEndpoint,
                              _ bind: (Int32) -> Int32) throws(ESPHomeServerError) -> (fd: Int32, address: InternetSocketAddress) {
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .system("socket", endpoint, errno) }
        // A gateway restarted right after it stopped finds its port still in TIME_WAIT.
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        guard bind(fd) == 0 else {
            let code = errno
            close(fd)
            switch code {
            case EADDRINUSE: throw .addressInUse(endpoint)
            case EACCES, EPERM: throw .permissionDenied(endpoint)
            case EADDRNOTAVAIL: throw .addressNotAvailable(endpoint)
            default: throw .system("bind", endpoint, code)
            }
        }
        guard Glibc.listen(fd, listenBacklog) == 0 else {
            let code = errno
            close(fd)
            throw code == EADDRINUSE ? .addressInUse(endpoint) : .system("listen", endpoint, code)
        }
        let (address, result) = InternetSocketAddress.filled { getsockname(fd, $0, $1) }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw .system("getsockname", endpoint, code)
        }
        return (fd, address)
    }
}
