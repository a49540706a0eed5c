import ESPHomeAPI

/// The Home Assistant Bluetooth proxy: ESPHome's native API served by the gateway
/// (Docs/gateway.md, "As a Bluetooth proxy (ESPHome's native API)").
public struct ESPHomeSettings: Sendable, Equatable {
    /// `[HOST:]PORT` to listen on (ESPHome's port is 6053); nil: the API is not served.
    public var listen: String?
    /// Only Noise clients holding this key are accepted; nil: plaintext, as an ESPHome device
    /// without `api: encryption:`.
    public var key: NoisePresharedKey?
    /// The node name Home Assistant knows the proxy by; nil: the host name.
    public var name: String?

    public init() {}

    /// `[HOST:]PORT`: the port 0…65535 after the last colon (a bracketed IPv6 host keeps its own).
    static func parseListen(_ text: String) -> Result<String, ValueProblem> {
        let port = text.split(separator: ":", omittingEmptySubsequences: false).last.map(String.init) ?? text
        guard let p = Int(port), (0...65535).contains(p), !port.isEmpty else {
            return .failure("wants [HOST:]PORT (ESPHome's port is 6053: ':6053' on every address, '127.0.0.1:6053' on one), got '\(text)'")
        }
        return .success(text)
    }

    static func parseKey(_ text: String) -> Result<NoisePresharedKey, ValueProblem> {
        do throws(NoisePresharedKey.ParseError) {
            return .success(try NoisePresharedKey(base64: text))
        } catch {
            return .failure(ValueProblem(error.description))
        }
    }
}
