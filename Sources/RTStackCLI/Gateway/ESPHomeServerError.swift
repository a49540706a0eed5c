#if canImport(Glibc)
import Glibc
#endif

/// Why the ESPHome native API could not listen; each names the endpoint and what to do.
enum ESPHomeServerError: Error, Equatable, CustomStringConvertible {
    /// The `[HOST:]PORT` text, and what is wrong with it.
    case invalidEndpoint(String, String)
    /// The host name, and the resolver's words.
    case unknownHost(String, String)
    case addressInUse(ESPHomeEndpoint)
    /// A port below 1024 without the privilege to bind it.
    case permissionDenied(ESPHomeEndpoint)
    /// The host is no address of this machine.
    case addressNotAvailable(ESPHomeEndpoint)
    /// The call that failed, the endpoint, errno.
    case system(String, ESPHomeEndpoint, Int32)

    var description: String {
        let option = "--esphome [HOST:]PORT"
        switch self {
        case let .invalidEndpoint(text, problem):
            return "ESPHome API endpoint '\(text)': \(problem)"
        case let .unknownHost(host, reason):
            return "ESPHome API host '\(host)' cannot be resolved (\(reason)); give an address of this board, or the port alone to listen on all of them (\(option))"
        case let .addressInUse(endpoint):
            return "ESPHome API port \(endpoint.port) is in use (\(endpoint)): another program listens on it (another gateway, or ESPHome's own tools); stop it, or give another port with \(option)"
        case let .permissionDenied(endpoint):
            return "ESPHome API port \(endpoint.port) (\(endpoint)) needs root or CAP_NET_BIND_SERVICE to listen on; use a port above 1023 (ESPHome's is \(ESPHomeEndpoint.defaultPort)) with \(option)"
        case let .addressNotAvailable(endpoint):
            return "ESPHome API host in \(endpoint) is not an address of this board (see `ip address`); give one of its addresses, or the port alone, with \(option)"
        case let .system(call, endpoint, code):
            return "ESPHome API \(endpoint): \(call) failed: \(String(cString: strerror(code)))"
        }
    }
}
