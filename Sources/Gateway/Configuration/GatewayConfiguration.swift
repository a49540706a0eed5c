import HostCore
import MQTT
import Wire

/// Everything `rtstack gateway` is told, from its configuration file and command line
/// (Docs/gateway.md, "Configuration"). Defaults are the values a user gets by saying nothing.
public struct GatewayConfiguration: Sendable, Equatable {
    /// The gateway's topic level; nil: the caller uses the host name.
    public var gatewayID: String?
    public var adapters: [String] = []
    /// user-channel or kernel, for hciN adapters; nil: the runtime's default.
    public var backend: AdapterBackend?
    public var stateDirectory: String?
    /// Between gateway status messages (given in seconds, kept as `HostTime`).
    public var statusInterval: HostTime = HostDuration.seconds(60)
    public var mqtt = MQTTSettings()
    public var devices: [DeviceRule] = []
    public var passive = PassiveFormats()
    public var control = ControlSettings()
    public var esphome = ESPHomeSettings()

    public init() {}

    /// The local control socket (JSON Lines over a Unix socket, Docs/gateway.md).
    public struct ControlSettings: Sendable, Equatable {
        /// The socket's path; nil: the default (`$RUNTIME_DIRECTORY`, else `$XDG_RUNTIME_DIR/rtstack`,
        /// else /tmp/rtstack-<uid>, each with `gateway.sock`); "off": no control socket.
        public var socket: String?
        /// The socket file's permissions: who may connect.
        public var mode = 0o660
        /// The socket file's group (with `mode` 0660: the members of this group may connect).
        public var group: String?
        public init() {}

        public var isOff: Bool { socket == "off" }
    }

    public struct MQTTSettings: Sendable, Equatable {
        public var broker: MQTTBrokerURL?
        public var clientID: String?
        public var username: String?
        /// Inline in the file (readable by whoever reads the file); prefer `passwordFile`.
        public var password: String?
        public var passwordFile: String?
        public var caFile: String?
        public var certificateFile: String?
        public var keyFile: String?
        public var topicPrefix = "rtstack"
        public var qos: MQTTQoS = .atLeastOnce
        /// Whether measurements are retained (states, availability and discovery always are).
        public var retain = false
        public var keepAlive = 30
        public var queueLimit = 10_000
        public var discovery = true
        public var discoveryPrefix = "homeassistant"
        public init() {}
    }

    /// Advertisement formats published for every device heard, configured or not.
    public struct PassiveFormats: Sendable, Equatable {
        public var iBeacon = false
        public var eddystone = false
        public var bthome = false
        public init() {}
    }

    /// Why the configuration as a whole cannot run (checks that need every setting).
    public var problems: [ConfigurationError] {
        var out: [ConfigurationError] = []
        if adapters.isEmpty {
            out.append(ConfigurationError(.whole, "adapters", "no adapter: give one in the file (adapters: [hci0]) or with --adapter"))
        }
        if mqtt.broker == nil && esphome.listen == nil {
            out.append(ConfigurationError(.whole, "mqtt.url", "no broker: give one in the file (mqtt: {url: mqtt://HOST}) or with --mqtt "
                                          + "(or serve Home Assistant's Bluetooth proxy API instead: --esphome :6053)"))
        }
        if mqtt.password != nil && mqtt.passwordFile != nil {
            out.append(ConfigurationError(.whole, "mqtt", "both password and password_file are given; keep one"))
        }
        if mqtt.caFile != nil, let b = mqtt.broker, !b.usesTLS {
            out.append(ConfigurationError(.whole, "mqtt.ca_file", "a CA file needs an mqtts:// broker URL"))
        }
        var ids: [String: Int] = [:]
        for (i, d) in devices.enumerated() {
            if let id = d.name {
                if let j = ids[id] {
                    out.append(ConfigurationError(d.line.map { .file(line: $0) } ?? .whole, "devices[\(i)].name",
                                                  "'\(id)' is also the name of devices[\(j)]"))
                }
                ids[id] = i
            }
        }
        return out
    }
}

/// One entry of `devices`: which devices it takes (by address, advertised service, name
/// pattern — every criterion given must hold) and what to do with them.
public struct DeviceRule: Sendable, Equatable {
    /// Topic level and Home Assistant name; nil: from the address.
    public var name: String?
    public var address: BDAddress?
    /// nil: either type matches.
    public var addressType: LEAddressType?
    public var service: BluetoothUUID?
    public var namePattern: String?
    /// Characteristics to subscribe to; empty: every one the gateway decodes.
    public var subscribe: [BluetoothUUID] = []
    /// Characteristics read once after each connection (battery level, sensor location).
    public var read: [BluetoothUUID] = []
    /// false: never connect, decode its advertisements only (BTHome, beacons).
    public var connect = true
    /// BTHome bind key, for encrypted advertisements.
    public var bthomeKey: [UInt8]?
    /// How many devices a service or pattern rule takes (an address rule takes one).
    public var maxDevices = 1
    /// Where in the file the entry starts.
    public var line: Int?

    public init() {}

    public var hasCriterion: Bool { address != nil || service != nil || namePattern != nil }

    /// Whether an advertiser matches every criterion given.
    public func matches(address a: BDAddress, type: LEAddressType, name advertisedName: String?,
                        advertises: (BluetoothUUID) -> Bool) -> Bool {
        if let want = address, want != a { return false }
        if let t = addressType, t.isRandom != type.isRandom { return false }
        if let s = service, !advertises(s) { return false }
        if let p = namePattern {
            guard let n = advertisedName, ConfigurationValue.matches(pattern: p, name: n) else { return false }
        }
        return hasCriterion
    }
}
