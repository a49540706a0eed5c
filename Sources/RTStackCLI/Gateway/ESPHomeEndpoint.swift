/// Where the proxy's native API listens, as `--esphome [HOST:]PORT` gives it: a port alone
/// listens on every address of the board (IPv6 and IPv4, as ESPHome does); a host is an IPv4
/// address, an IPv6 address in brackets (`[::1]:6053`, the colons would otherwise be ambiguous)
/// or a name resolved when the server starts.
struct ESPHomeEndpoint: Equatable, Sendable, CustomStringConvertible {
    /// ESPHome's native API port, which Home Assistant tries when it is added by address.
    static let defaultPort: UInt16 = 6053

    /// nil: every address.
    var host: String?
    /// 0 lets the system choose (tests); the server's `port` then says which it chose.
    var port: UInt16

    init(host: String? = nil, port: UInt16 = Self.defaultPort) {
        self.host = host
        self.port = port
    }

    init(parsing text: String) throws(ESPHomeServerError) {
        func port(_ digits: Substring) throws(ESPHomeServerError) -> UInt16 {
            guard !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) }), let value = UInt16(digits) else {
                throw .invalidEndpoint(text, "'\(digits)' is not a port number (0 to 65535; ESPHome's is \(Self.defaultPort))")
            }
            return value
        }
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else {
                throw .invalidEndpoint(text, "the IPv6 address has no closing ']' (write [ADDRESS]:PORT, e.g. [::1]:6053)")
            }
            let address = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard !address.isEmpty else { throw .invalidEndpoint(text, "the brackets hold no address (write [ADDRESS]:PORT, e.g. [::1]:6053)") }
            guard rest.first == ":" else { throw .invalidEndpoint(text, "the port is missing after the address (write [ADDRESS]:PORT, e.g. [::1]:6053)") }
            self.init(host: String(address), port: try port(rest.dropFirst()))
            return
        }
        let colons = text.filter { $0 == ":" }.count
        switch colons {
        case 0:
            self.init(host: nil, port: try port(Substring(text)))
        case 1:
            let colon = text.firstIndex(of: ":")!
            let host = text[..<colon]
            guard !host.isEmpty else { throw .invalidEndpoint(text, "the host before ':' is empty (give PORT alone to listen on every address)") }
            self.init(host: String(host), port: try port(text[text.index(after: colon)...]))
        default:
            throw .invalidEndpoint(text, "an IPv6 address is written in brackets before the port, e.g. [::1]:6053")
        }
    }

    var description: String {
        guard let host else { return "*:\(port)" }
        return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
