#if canImport(Glibc)
import Glibc
#endif
import Gateway
import Service

/// A client of a running gateway's control socket, for `rtstack status` and `rtstack adapters`:
/// one request line out, one answer line back (blocking, with a time limit).
struct ControlClient {
    let path: String
    private let fd: Int32

    init(path: String, timeout: Double = 3) throws(ControlClientError) {
        self.path = path
        guard let address = UnixSocketAddress(path) else {
            throw .cannotConnect(path, path.isEmpty ? "empty path" : "path longer than \(UnixSocketAddress.limit) bytes")
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .cannotConnect(path, String(cString: strerror(errno))) }
        var tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        let rc = address.withSockaddr { connect(fd, $0, $1) }
        guard rc == 0 else {
            let code = errno
            Glibc.close(fd)
            throw .cannotConnect(path, String(cString: strerror(code)))
        }
        self.fd = fd
    }

    func close() { Glibc.close(fd) }

    /// Sends one request and reads its answer (events of subscriptions are not asked for here).
    func request(_ line: String) throws(ControlClientError) -> String {
        let out = Array((line + "\n").utf8)
        var sent = 0
        while sent < out.count {
            let n = out[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw .noAnswer(path) }
            sent += n
        }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !answer.contains(0x0A) {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { throw .noAnswer(path) }
            answer.append(contentsOf: buffer[0..<n])
        }
        return String(decoding: answer[..<(answer.firstIndex(of: 0x0A) ?? answer.endIndex)], as: UTF8.self)
    }

    /// The answer's fields, as libyaml reads JSON; an `"ok":false` answer throws its error.
    func call(_ line: String) throws(ControlClientError) -> [String: YAMLNode] {
        let text = try request(line)
        guard case .mapping(let pairs, _)? = try? YAMLDocument.parse(text) else { throw .badAnswer(path, text) }
        var fields: [String: YAMLNode] = [:]
        for p in pairs { if let k = p.key.scalarText { fields[k] = p.value } }
        if fields["ok"]?.scalarText != "true" { throw .refused(path, fields["error"]?.scalarText ?? text) }
        return fields
    }
}

enum ControlClientError: Error, CustomStringConvertible {
    case cannotConnect(String, String)
    case noAnswer(String)
    case badAnswer(String, String)
    case refused(String, String)

    var description: String {
        switch self {
        case let .cannotConnect(p, why): return "no gateway answers on \(p) (\(why)); is `rtstack gateway` running? (--control-socket PATH names another socket)"
        case let .noAnswer(p): return "the gateway on \(p) did not answer; it may be busy or stuck: see its log (under systemd: journalctl -u rtstack-gateway), then ask again"
        case let .badAnswer(p, text): return "the gateway on \(p) answered something that is not JSON: \(text); is that socket an rtstack gateway's, of this version?"
        case let .refused(p, why): return "the gateway on \(p) refused: \(why)"
        }
    }
}
