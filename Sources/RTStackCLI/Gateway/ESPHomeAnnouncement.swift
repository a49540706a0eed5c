import ESPHomeAPI

/// What Home Assistant's zeroconf discovery expects of an ESPHome node: a `_esphomelib._tcp`
/// service named after the node, on the API's port, with the TXT records ESPHome's mdns
/// component publishes. Home Assistant takes the node's name from the mDNS host name (so the
/// proxy's name should be the board's host name, the default), ignores a service without `mac`
/// (twelve lower-case hex digits, which must match device info's MAC), shows `friendly_name`, and
/// asks for the key up front when `api_encryption` is present. No I/O here: `ESPHomeAnnouncer`
/// hands this to avahi.
struct ESPHomeAnnouncement: Sendable {
    static let serviceType = "_esphomelib._tcp"
    /// The `api_encryption` value ESPHome publishes when the API has a key.
    static let noiseProtocol = "Noise_NNpsk0_25519_ChaChaPoly_SHA256"

    var name: String
    var port: UInt16
    var txtRecords: [(key: String, value: String)]

    /// `network`: "ethernet" or "wifi", the link the board reaches Home Assistant over, when known.
    init(identity: ProxyIdentity, port: UInt16, encrypted: Bool, network: String?) {
        name = identity.name
        self.port = port
        var txt: [(key: String, value: String)] = []
        if !identity.friendlyName.isEmpty { txt.append(("friendly_name", identity.friendlyName)) }
        txt.append(("version", identity.esphomeVersion))
        txt.append(("mac", String(identity.macAddress.lowercased().filter { $0 != ":" })))
        txt.append(("board", identity.model))
        if let network { txt.append(("network", network)) }
        if encrypted { txt.append(("api_encryption", Self.noiseProtocol)) }
        txtRecords = txt
    }

    /// The file's name under avahi's services directory: one per port, so two gateways on one
    /// board do not remove each other's.
    var serviceFileName: String { "rtstack-esphome-\(port).service" }

    /// An avahi static service file (avahi.service(5)); avahi-daemon notices files appearing and
    /// disappearing in its services directory and publishes or withdraws them.
    var serviceFile: String {
        var text = """
        <?xml version="1.0" standalone='no'?>
        <!DOCTYPE service-group SYSTEM "avahi-service.dtd">
        <!-- Written by rtstack gateway --esphome for Home Assistant's discovery; removed when it stops. -->
        <service-group>
          <name>\(Self.escaped(name))</name>
          <service>
            <type>\(Self.serviceType)</type>
            <port>\(port)</port>

        """
        for (key, value) in txtRecords { text += "    <txt-record>\(Self.escaped(key + "=" + value))</txt-record>\n" }
        text += "  </service>\n</service-group>\n"
        return text
    }

    /// The arguments of `avahi-publish-service` for the same service (avahi-publish(1)).
    var publishArguments: [String] {
        ["--service", name, Self.serviceType, String(port)] + txtRecords.map { "\($0.key)=\($0.value)" }
    }

    private static func escaped(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(c)
            }
        }
        return out
    }
}
