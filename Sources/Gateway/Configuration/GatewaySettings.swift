import HostCore
import MQTT

/// What a setting's value looks like where it is written.
public enum ConfigurationInput: Sendable, Equatable {
    case scalar(String)
    case list([String])
}

/// Every scalar setting of the configuration with its file path, its command-line option and
/// how it is applied — one table, so that every option exists in both places and the mapping in
/// Docs/gateway.md is this table printed (`GatewaySettings.mappingTable`).
public struct GatewaySetting: Sendable {
    /// "mqtt.qos".
    public let path: String
    /// "mqtt-qos" (without the dashes).
    public let option: String
    /// What the value looks like in help ("0|1"); nil for a flag that takes no value on the
    /// command line (`--no-discovery`).
    public let valueName: String?
    public let help: String
    /// Whether the setting takes several values (a list in the file, a repeated option).
    public let isList: Bool
    let apply: @Sendable (inout GatewayConfiguration, ConfigurationInput) -> String?
}

public enum GatewaySettings {
    static func scalar<T>(_ input: ConfigurationInput, _ parse: (String) -> Result<T, ValueProblem>, _ set: (T) -> Void) -> String? {
        guard case .scalar(let text) = input else { return "wants one value, got a list" }
        switch parse(text) {
        case .success(let v): set(v); return nil
        case .failure(let m): return m.message
        }
    }

    static func list<T>(_ input: ConfigurationInput, _ parse: (String) -> Result<T, ValueProblem>, _ set: ([T]) -> Void) -> String? {
        let items: [String]
        switch input {
        case .scalar(let s): items = [s]
        case .list(let l): items = l
        }
        var out: [T] = []
        for i in items {
            switch parse(i) {
            case .success(let v): out.append(v)
            case .failure(let m): return m.message
            }
        }
        set(out)
        return nil
    }

    static func text(_ s: String) -> Result<String, ValueProblem> {
        s.isEmpty ? .failure("wants a value, got an empty one") : .success(s)
    }

    static func backend(_ s: String) -> Result<AdapterBackend, ValueProblem> {
        AdapterBackend(rawValue: s).map { .success($0) } ?? .failure("wants user-channel or kernel, got '\(s)'")
    }

    /// File permissions written in octal: 0660, 660, 0o660.
    static func fileMode(_ s: String) -> Result<Int, ValueProblem> {
        let digits = s.hasPrefix("0o") ? String(s.dropFirst(2)) : s
        guard !digits.isEmpty, digits.count <= 4, let v = Int(digits, radix: 8), v <= 0o777 else {
            return .failure("wants permissions in octal (0660), got '\(s)'")
        }
        return .success(v)
    }

    static func passiveFormat(_ s: String) -> Result<String, ValueProblem> {
        ["ibeacon", "eddystone", "bthome"].contains(s) ? .success(s) : .failure("wants ibeacon, eddystone or bthome, got '\(s)'")
    }

    public static let all: [GatewaySetting] = [
        GatewaySetting(path: "gateway.id", option: "gateway-id", valueName: "ID",
                       help: "the gateway's topic level (default: the host name)", isList: false) { c, v in
            scalar(v, ConfigurationValue.parseIdentifier) { c.gatewayID = $0 }
        },
        GatewaySetting(path: "gateway.state_dir", option: "state-dir", valueName: "DIR",
                       help: "where the GATT cache and own address are kept", isList: false) { c, v in
            scalar(v, text) { c.stateDirectory = $0 }
        },
        GatewaySetting(path: "gateway.status_interval", option: "status-interval", valueName: "SECONDS",
                       help: "seconds between gateway status messages (default 60)", isList: false) { c, v in
            scalar(v, { ConfigurationValue.parseSeconds($0, in: 1...86400) }) { c.statusInterval = HostTime($0 * 1e9) }
        },
        GatewaySetting(path: "adapters", option: "adapter", valueName: "ADAPTER",
                       help: "an adapter: hci0, tcp:HOST:PORT, serial:/dev/X[@BAUD] (repeat for several)", isList: true) { c, v in
            list(v, ConfigurationValue.parseAdapter) { c.adapters = $0 }
        },
        GatewaySetting(path: "backend", option: "backend", valueName: "user-channel|kernel",
                       help: "how hciN adapters are used", isList: false) { c, v in
            scalar(v, backend) { c.backend = $0 }
        },
        GatewaySetting(path: "mqtt.url", option: "mqtt", valueName: "URL",
                       help: "the broker: mqtt://HOST[:PORT] or mqtts://HOST[:PORT]", isList: false) { c, v in
            scalar(v, ConfigurationValue.parseURL) { c.mqtt.broker = $0 }
        },
        GatewaySetting(path: "mqtt.client_id", option: "mqtt-client-id", valueName: "ID",
                       help: "MQTT client id (default rtstack-<gateway id>)", isList: false) { c, v in
            scalar(v, text) { c.mqtt.clientID = $0 }
        },
        GatewaySetting(path: "mqtt.username", option: "mqtt-username", valueName: "NAME",
                       help: "user name at the broker", isList: false) { c, v in
            scalar(v, text) { c.mqtt.username = $0 }
        },
        GatewaySetting(path: "mqtt.password", option: "mqtt-password", valueName: "PASSWORD",
                       help: "password (visible in the process list: prefer --mqtt-password-file)", isList: false) { c, v in
            scalar(v, text) { c.mqtt.password = $0 }
        },
        GatewaySetting(path: "mqtt.password_file", option: "mqtt-password-file", valueName: "FILE",
                       help: "file whose first line is the password", isList: false) { c, v in
            scalar(v, text) { c.mqtt.passwordFile = $0 }
        },
        GatewaySetting(path: "mqtt.ca_file", option: "mqtt-ca", valueName: "FILE",
                       help: "PEM CA that signed the broker's certificate (mqtts://)", isList: false) { c, v in
            scalar(v, text) { c.mqtt.caFile = $0 }
        },
        GatewaySetting(path: "mqtt.cert_file", option: "mqtt-cert", valueName: "FILE",
                       help: "client certificate (PEM), with --mqtt-key", isList: false) { c, v in
            scalar(v, text) { c.mqtt.certificateFile = $0 }
        },
        GatewaySetting(path: "mqtt.key_file", option: "mqtt-key", valueName: "FILE",
                       help: "client key (PEM), with --mqtt-cert", isList: false) { c, v in
            scalar(v, text) { c.mqtt.keyFile = $0 }
        },
        GatewaySetting(path: "mqtt.topic_prefix", option: "mqtt-prefix", valueName: "PREFIX",
                       help: "first topic levels (default rtstack)", isList: false) { c, v in
            scalar(v, { ConfigurationValue.parseTopic($0, levels: 1...8) }) { c.mqtt.topicPrefix = $0 }
        },
        GatewaySetting(path: "mqtt.qos", option: "mqtt-qos", valueName: "0|1",
                       help: "QoS of measurements (default 1)", isList: false) { c, v in
            scalar(v, ConfigurationValue.parseQoS) { c.mqtt.qos = $0 }
        },
        GatewaySetting(path: "mqtt.retain", option: "mqtt-retain", valueName: "true|false",
                       help: "retain measurements (default false)", isList: false) { c, v in
            scalar(v, ConfigurationValue.parseBoolean) { c.mqtt.retain = $0 }
        },
        GatewaySetting(path: "mqtt.keepalive", option: "mqtt-keepalive", valueName: "SECONDS",
                       help: "keep-alive interval (default 30)", isList: false) { c, v in
            scalar(v, { ConfigurationValue.parseInteger($0, in: 5...65535) }) { c.mqtt.keepAlive = $0 }
        },
        GatewaySetting(path: "mqtt.queue_limit", option: "mqtt-queue-limit", valueName: "N",
                       help: "messages held while the broker is away (default 10000)", isList: false) { c, v in
            scalar(v, { ConfigurationValue.parseInteger($0, in: 1...10_000_000) }) { c.mqtt.queueLimit = $0 }
        },
        GatewaySetting(path: "mqtt.discovery", option: "mqtt-discovery", valueName: "true|false",
                       help: "publish Home Assistant discovery configs (default true)", isList: false) { c, v in
            scalar(v, ConfigurationValue.parseBoolean) { c.mqtt.discovery = $0 }
        },
        GatewaySetting(path: "mqtt.discovery_prefix", option: "mqtt-discovery-prefix", valueName: "PREFIX",
                       help: "Home Assistant's discovery prefix (default homeassistant)", isList: false) { c, v in
            scalar(v, { ConfigurationValue.parseTopic($0, levels: 1...8) }) { c.mqtt.discoveryPrefix = $0 }
        },
        GatewaySetting(path: "control.socket", option: "control-socket", valueName: "PATH|off",
                       help: "the local control socket (default $RUNTIME_DIRECTORY/gateway.sock, else $XDG_RUNTIME_DIR/rtstack/gateway.sock)",
                       isList: false) { c, v in
            scalar(v, text) { c.control.socket = $0 }
        },
        GatewaySetting(path: "control.mode", option: "control-mode", valueName: "OCTAL",
                       help: "the control socket's permissions (default 0660: owner and group)", isList: false) { c, v in
            scalar(v, fileMode) { c.control.mode = $0 }
        },
        GatewaySetting(path: "control.group", option: "control-group", valueName: "GROUP",
                       help: "the control socket's group (default: the gateway's)", isList: false) { c, v in
            scalar(v, text) { c.control.group = $0 }
        },
        GatewaySetting(path: "passive", option: "passive", valueName: "ibeacon|eddystone|bthome",
                       help: "publish this advertisement format for every device heard (repeat for several)", isList: true) { c, v in
            list(v, passiveFormat) { formats in
                c.passive = GatewayConfiguration.PassiveFormats()
                for f in formats {
                    switch f {
                    case "ibeacon": c.passive.iBeacon = true
                    case "eddystone": c.passive.eddystone = true
                    default: c.passive.bthome = true
                    }
                }
            }
        },
        GatewaySetting(path: "esphome.listen", option: "esphome", valueName: "[HOST:]PORT",
                       help: "serve Home Assistant's Bluetooth proxy API (ESPHome's, port 6053); --mqtt is optional then", isList: false) { c, v in
            scalar(v, ESPHomeSettings.parseListen) { c.esphome.listen = $0 }
        },
        GatewaySetting(path: "esphome.key", option: "esphome-key", valueName: "BASE64",
                       help: "the API encryption key (32 bytes, as ESPHome's api: encryption: key:); without it, plaintext", isList: false) { c, v in
            scalar(v, ESPHomeSettings.parseKey) { c.esphome.key = $0 }
        },
        GatewaySetting(path: "esphome.name", option: "esphome-name", valueName: "NAME",
                       help: "the proxy's node name in Home Assistant (default: the host name)", isList: false) { c, v in
            scalar(v, text) { c.esphome.name = $0 }
        },
    ]

    /// The device keys as a Markdown table (Docs/gateway.md).
    public static var deviceKeyTable: String {
        var s = "| key | value | what |\n|---|---|---|\n"
        for k in DeviceRuleKeys.all { s += "| `\(k.name)` | \(k.valueName.replacingPipes) | \(k.help.replacingPipes) |\n" }
        return s
    }

    public static func setting(path: String) -> GatewaySetting? { all.first { $0.path == path } }
    public static func setting(option: String) -> GatewaySetting? { all.first { $0.option == option } }

    /// The file-to-command-line mapping as a Markdown table (Docs/gateway.md).
    public static var mappingTable: String {
        func cell(_ t: String) -> String { t.replacingPipes }
        var s = "| file | command line | value | what |\n|---|---|---|---|\n"
        for x in all { s += "| `\(x.path)` | `--\(x.option)` | \(cell(x.valueName ?? "")) | \(cell(x.help)) |\n" }
        s += "| `devices` (each entry) | `--device KEY=VALUE,…` | the device keys below | one device entry (repeat for several) |\n"
        return s
    }
}

extension String {
    /// `|` escaped for a Markdown table cell.
    var replacingPipes: String {
        var out = ""
        for c in self { if c == "|" { out += "\\|" } else { out.append(c) } }
        return out
    }
}
