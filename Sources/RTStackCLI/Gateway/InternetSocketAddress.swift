#if canImport(Glibc)
import Glibc
#endif

/// An IPv4 or IPv6 socket address as the kernel fills it in (accept, getsockname): what the
/// ESPHome server names in its log lines and whether it is reachable from other machines.
struct InternetSocketAddress {
    private(set) var storage = sockaddr_storage()
    private(set) var length = socklen_t(MemoryLayout<sockaddr_storage>.size)

    init() {}

    /// Lets the kernel write the address (`accept`, `getsockname`); false when the call fails.
    static func filled(by call: (UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32) -> (InternetSocketAddress, Int32) {
        var address = InternetSocketAddress()
        var length = address.length
        let result = withUnsafeMutablePointer(to: &address.storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { call($0, &length) }
        }
        address.length = length
        return (address, result)
    }

    var family: Int32 { Int32(storage.ss_family) }

    /// The 4 or 16 address bytes, an IPv4-mapped IPv6 address as its IPv4 bytes (a dual-stack
    /// listener sees IPv4 clients that way; the log should show the address the user knows).
    private var addressBytes: [UInt8] {
        var copy = storage
        switch family {
        case AF_INET:
            return withUnsafeBytes(of: &copy) { raw in
                let sin = raw.load(as: sockaddr_in.self)
                return withUnsafeBytes(of: sin.sin_addr) { Array($0) }
            }
        case AF_INET6:
            let bytes = withUnsafeBytes(of: &copy) { raw in
                let sin6 = raw.load(as: sockaddr_in6.self)
                return withUnsafeBytes(of: sin6.sin6_addr) { Array($0) }
            }
            if bytes.prefix(10).allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF { return Array(bytes[12...]) }
            return bytes
        default:
            return []
        }
    }

    var port: UInt16 {
        var copy = storage
        return withUnsafeBytes(of: &copy) { raw in
            switch family {
            case AF_INET: return UInt16(bigEndian: raw.load(as: sockaddr_in.self).sin_port)
            case AF_INET6: return UInt16(bigEndian: raw.load(as: sockaddr_in6.self).sin6_port)
            default: return 0
            }
        }
    }

    /// 127.0.0.0/8 or ::1 (mapped or not): only programs on the board itself can connect.
    var isLoopback: Bool {
        let bytes = addressBytes
        switch bytes.count {
        case 4: return bytes[0] == 127
        case 16: return bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] == 1
        default: return false
        }
    }

    /// The host part: `192.168.1.20`, `fe80::1`.
    var host: String {
        var bytes = addressBytes
        let addressFamily = bytes.count == 4 ? AF_INET : AF_INET6
        guard !bytes.isEmpty else { return "?" }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(addressFamily, &bytes, &text, socklen_t(text.count)) != nil else { return "?" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `192.168.1.20:51234`, `[fe80::1]:51234`.
    var text: String {
        let host = host
        return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
