/// Where the broker is: `mqtt://HOST[:PORT]` (TCP, default port 1883) or `mqtts://HOST[:PORT]`
/// (TLS, default 8883). `USER[:PASSWORD]@` before the host is accepted too, though a password
/// on a command line is visible to every user of the board: prefer the configuration file's
/// `password_file`. IPv6 hosts are written in brackets (`mqtt://[::1]:1883`).
public struct MQTTBrokerURL: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var usesTLS: Bool
    public var username: String?
    public var password: String?

    public init(host: String, port: Int? = nil, usesTLS: Bool = false, username: String? = nil, password: String? = nil) {
        self.host = host
        self.port = port ?? (usesTLS ? 8883 : 1883)
        self.usesTLS = usesTLS
        self.username = username
        self.password = password
    }

    public init(parsing text: String) throws(MQTTError) {
        let tls: Bool
        var rest: Substring
        if text.hasPrefix("mqtt://") {
            tls = false
            rest = text.dropFirst(7)
        } else if text.hasPrefix("mqtts://") {
            tls = true
            rest = text.dropFirst(8)
        } else {
            throw MQTTError.invalidURL(text, reason: "the scheme must be mqtt:// or mqtts://")
        }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        if rest.contains("/") || rest.contains("?") || rest.contains("#") {
            throw MQTTError.invalidURL(text, reason: "a broker URL has no path, query or fragment")
        }
        var user: String?
        var pass: String?
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            rest = rest[rest.index(after: at)...]
            if let colon = credentials.firstIndex(of: ":") {
                user = String(credentials[..<colon])
                pass = String(credentials[credentials.index(after: colon)...])
            } else {
                user = String(credentials)
            }
            if user?.isEmpty == true { throw MQTTError.invalidURL(text, reason: "empty user name before '@'") }
        }
        var host: Substring
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else {
                throw MQTTError.invalidURL(text, reason: "unclosed '[' around an IPv6 address")
            }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw MQTTError.invalidURL(text, reason: "unexpected text after ']'") }
                portText = after.dropFirst()
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        } else {
            host = rest
        }
        if host.isEmpty { throw MQTTError.invalidURL(text, reason: "no host") }
        var port: Int?
        if let p = portText {
            guard let n = Int(p), (1...65535).contains(n) else {
                throw MQTTError.invalidURL(text, reason: "port '\(p)' is not a number from 1 to 65535")
            }
            port = n
        }
        self.init(host: String(host), port: port, usesTLS: tls, username: user, password: pass)
    }

    /// The URL without credentials, for logs.
    public var description: String {
        let h = host.contains(":") ? "[" + host + "]" : host
        return (usesTLS ? "mqtts://" : "mqtt://") + h + ":\(port)"
    }
}
