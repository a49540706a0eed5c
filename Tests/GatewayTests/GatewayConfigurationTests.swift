import Testing
import HostCore
import MQTT
import Wire
@testable import Gateway

@Suite struct GatewayConfigurationTests {
    static let example = """
        # rtstack gateway in the garage
        gateway:
          id: garage
          status_interval: 30
        adapters: [hci0, "tcp:127.0.0.1:9000"]
        backend: kernel
        mqtt:
          url: mqtts://broker.lan
          username: gw
          password_file: /etc/rtstack/mqtt-password
          ca_file: /etc/rtstack/ca.pem
          qos: 0
          retain: yes
          queue_limit: 5000
          discovery_prefix: ha
        devices:
          - name: heart
            address: C1:00:00:00:00:01/random
            subscribe: [2A37]
            read: [2A19]
          - service: 181A
            max: 3
          - name_pattern: "Thingy*"
            subscribe:
              - EF680201-9B35-4933-9B10-52FFA9740042
          - address: 54:48:E6:8F:80:A5
            connect: false
            bthome_key: 231d39c1d7cc1ab1aee224cd096db932
        passive: [bthome, ibeacon]
        """

    @Test func theExampleFile() throws {
        let c = try GatewayConfigurationReader.read(yaml: Self.example, commandLine: [:])
        #expect(c.gatewayID == "garage" && c.statusInterval == HostDuration.seconds(30))
        #expect(c.adapters == ["hci0", "tcp:127.0.0.1:9000"] && c.backend == .kernel)
        #expect(c.mqtt.broker == MQTTBrokerURL(host: "broker.lan", usesTLS: true))
        #expect(c.mqtt.username == "gw" && c.mqtt.passwordFile == "/etc/rtstack/mqtt-password" && c.mqtt.caFile == "/etc/rtstack/ca.pem")
        #expect(c.mqtt.qos == .atMostOnce && c.mqtt.retain && c.mqtt.queueLimit == 5000 && c.mqtt.discoveryPrefix == "ha")
        #expect(c.mqtt.discovery && c.mqtt.topicPrefix == "rtstack")
        #expect(c.devices.count == 4)
        let heart = c.devices[0]
        #expect(heart.name == "heart" && heart.address == BDAddress(string: "C1:00:00:00:00:01") && heart.addressType == .randomDevice)
        #expect(heart.subscribe == [BluetoothUUID(0x2A37)] && heart.read == [BluetoothUUID(0x2A19)] && heart.line == 17)
        #expect(c.devices[1].service == BluetoothUUID(0x181A) && c.devices[1].maxDevices == 3)
        #expect(c.devices[2].namePattern == "Thingy*" && c.devices[2].subscribe.count == 1)
        #expect(!c.devices[3].connect && c.devices[3].bthomeKey?.count == 16 && c.devices[3].addressType == nil)
        #expect(c.passive.bthome && c.passive.iBeacon && !c.passive.eddystone)
    }

    @Test func rulesMatchAdvertisers() throws {
        let c = try GatewayConfigurationReader.read(yaml: Self.example, commandLine: [:])
        let heart = try #require(BDAddress(string: "C1:00:00:00:00:01"))
        #expect(c.devices[0].matches(address: heart, type: .randomDevice, name: nil) { _ in false })
        #expect(!c.devices[0].matches(address: heart, type: .publicDevice, name: nil) { _ in false })
        #expect(c.devices[1].matches(address: heart, type: .randomDevice, name: nil) { $0 == BluetoothUUID(0x181A) })
        #expect(c.devices[2].matches(address: heart, type: .randomDevice, name: "Thingy-42") { _ in false })
        #expect(!c.devices[2].matches(address: heart, type: .randomDevice, name: "thingy") { _ in false })
        #expect(!c.devices[2].matches(address: heart, type: .randomDevice, name: nil) { _ in false })
    }

    static func errors(_ yaml: String) -> [String] {
        var c = GatewayConfiguration()
        return GatewayConfigurationReader.parse(yaml: yaml, into: &c).map(\.description)
    }

    @Test func errorsNameTheLineAndWhatIsWrong() {
        #expect(Self.errors("mqtt:\n  url: mqtt://h\n  usrname: gw\n") == ["line 3: mqtt: unknown key 'usrname'; did you mean 'username'?"])
        #expect(Self.errors("mqtt:\n  qos: 2\n") == ["line 2: mqtt.qos: wants 0 or 1 (QoS 2 is not offered), got '2'"])
        #expect(Self.errors("mqtt:\n  keepalive: soon\n") == ["line 2: mqtt.keepalive: wants a whole number from 5 to 65535, got 'soon'"])
        #expect(Self.errors("mqtt:\n  url: http://h\n")
                == ["line 2: mqtt.url: invalid MQTT broker 'http://h': the scheme must be mqtt:// or mqtts://; expected mqtt://HOST[:PORT] or mqtts://HOST[:PORT]"])
        #expect(Self.errors("mqtt:\n  retain: [yes]\n") == ["line 2: mqtt.retain: wants one value, got a list"])
        #expect(Self.errors("mqtt: mqtt://h\n") == ["line 1: mqtt: wants a mapping, got a value"])
        #expect(Self.errors("adapters: [hci0, bluetooth0]\n")
                == ["line 1: adapters: 'bluetooth0' is not an adapter (hci0, tcp:HOST:PORT, serial:/dev/ttyUSB0@1000000, /dev/ttyACM0, replay:FILE)"])
        #expect(Self.errors("backend: bluez\n") == ["line 1: backend: wants user-channel or kernel, got 'bluez'"])
        #expect(Self.errors("gateway:\n  id: My Garage\n")
                == ["line 2: gateway.id: wants lower-case letters, digits, '_' or '-' (it names a topic level), got 'My Garage'; 'my_garage' would do"])
        #expect(Self.errors("gateway:\n  id: a\n  id: b\n") == ["line 3: gateway.id: given twice (first on line 2)"])
        #expect(Self.errors("adapterz: [hci0]\n") == ["line 1: unknown key 'adapterz'; did you mean 'adapters'?"])
        #expect(Self.errors("mqtt:\n  url:\n") == ["line 2: mqtt.url: has no value"])
        #expect(Self.errors("- a\n- b\n") == ["line 1: the file must be a mapping (gateway:, adapters:, mqtt:, devices: …), not a list"])
        #expect(Self.errors("mqtt: [\n").first?.hasPrefix("line 2: not valid YAML: ") == true)
    }

    @Test func deviceErrors() {
        #expect(Self.errors("devices:\n  - address: C1:00:00:00:00\n")
                == ["line 2: devices[0].address: 'C1:00:00:00:00' is not a device address (AA:BB:CC:DD:EE:FF, optionally /public or /random)"])
        #expect(Self.errors("devices:\n  - address: C1:00:00:00:00:01/static\n")
                == ["line 2: devices[0].address: unknown address type 'static' in 'C1:00:00:00:00:01/static': use /public or /random"])
        #expect(Self.errors("devices:\n  - service: heart\n")
                == ["line 2: devices[0].service: 'heart' is not a UUID (2A37, 0x2A37, or the 128-bit form EF680201-9B35-4933-9B10-52FFA9740042)"])
        #expect(Self.errors("devices:\n  - name: heart\n") == ["line 2: devices[0]: names no device: give address, service or name_pattern"])
        #expect(Self.errors("devices:\n  - address: C1:00:00:00:00:01\n    max: 2\n")
                == ["line 2: devices[0]: an entry with an address takes one device; drop max"])
        #expect(Self.errors("devices:\n  - service: 180D\n    subscribe: [2A37, nope]\n")
                == ["line 3: devices[0].subscribe: 'nope' is not a UUID (2A37, 0x2A37, or the 128-bit form EF680201-9B35-4933-9B10-52FFA9740042)"])
        #expect(Self.errors("devices:\n  - service: 180D\n    bthome_key: abcd\n")
                == ["line 3: devices[0].bthome_key: wants a 128-bit key as 32 hex digits, got 4 character(s)"])
        #expect(Self.errors("devices:\n  - service: 180D\n    name: status\n")
                == ["line 3: devices[0].name: 'status' is a word of the topic tree; pick another name (not adapter, gateway, status)"])
        #expect(Self.errors("devices:\n  - service: 180D\n    adress: x\n")
                == ["line 3: devices[0]: unknown key 'adress'; did you mean 'address'?"])
        #expect(Self.errors("devices: heart\n") == ["line 1: devices: wants a list of devices, got a value"])
        #expect(Self.errors("devices:\n  - 180D\n")
                == ["line 2: devices[0]: wants a mapping (address:, service:, name_pattern: …), got a value"])
    }

    @Test func everyProblemAtOnce() {
        do {
            _ = try GatewayConfigurationReader.read(yaml: "mqtt:\n  qos: 5\n  keepalive: 1\ndevices:\n  - name: x\n", commandLine: [:])
            Issue.record("accepted")
        } catch {
            #expect(error.errors.map(\.description) == [
                "line 2: mqtt.qos: wants 0 or 1 (QoS 2 is not offered), got '5'",
                "line 3: mqtt.keepalive: wants a whole number from 5 to 65535, got '1'",
                "line 5: devices[0]: names no device: give address, service or name_pattern",
            ])
        }
    }

    @Test func wholeConfigurationChecks() {
        do {
            _ = try GatewayConfigurationReader.read(yaml: "devices:\n  - {name: a, service: 180D}\n  - {name: a, service: 1814}\n", commandLine: [:])
        } catch {
            #expect(error.errors.map(\.description) == [
                "adapters: no adapter: give one in the file (adapters: [hci0]) or with --adapter",
                "mqtt.url: no broker: give one in the file (mqtt: {url: mqtt://HOST}) or with --mqtt "
                    + "(or serve Home Assistant's Bluetooth proxy API instead: --esphome :6053)",
                "line 3: devices[1].name: 'a' is also the name of devices[0]",
            ])
        }
    }
}

/// The `esphome:` section (Home Assistant's Bluetooth proxy) in the file and on the command line.
@Suite struct ESPHomeConfigurationTests {
    static let key = "AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA="

    @Test func aProxyWithoutABrokerIsAWholeConfigurationAndConnectsNothingOfItsOwn() throws {
        let c = try GatewayConfigurationReader.read(yaml: """
            adapters: [hci0]
            esphome:
              listen: ":6053"
              key: \(Self.key)
              name: garage-proxy
            """, commandLine: [:])
        #expect(c.esphome.listen == ":6053")
        #expect(c.esphome.key?.bytes.first == 1)
        #expect(c.esphome.name == "garage-proxy")
        #expect(c.mqtt.broker == nil)
        #expect(DeviceEntry.entries(of: c).isEmpty, "the proxy's clients decide what is connected")
        var withBroker = c
        withBroker.mqtt.broker = try GatewayConfigurationReader.read(yaml: nil, commandLine: ["adapter": ["hci0"], "mqtt": ["mqtt://b"]]).mqtt.broker
        #expect(!DeviceEntry.entries(of: withBroker).isEmpty, "with a broker, the run session's sensors as before")
    }

    @Test func theCommandLineOptionsSetTheSameAndABadKeyOrPortIsSaidWithWhatToDo() throws {
        let c = try GatewayConfigurationReader.read(yaml: nil, commandLine: ["adapter": ["hci0"], "esphome": ["127.0.0.1:6053"],
                                                                             "esphome-name": ["p"]])
        #expect(c.esphome.listen == "127.0.0.1:6053" && c.esphome.name == "p" && c.esphome.key == nil)
        do {
            _ = try GatewayConfigurationReader.read(yaml: nil, commandLine: ["adapter": ["hci0"], "esphome": ["localhost:x"],
                                                                             "esphome-key": ["AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="]])
            Issue.record("accepted")
        } catch {
            let text = error.errors.map(\.description).joined(separator: "\n")
            #expect(text.contains("wants [HOST:]PORT"), "\(text)")
            #expect(text.contains("the all-zero encryption key"), "\(text)")
        }
    }
}

@Suite struct GatewayCommandLineTests {
    /// With no file, the command line alone (the issue's `rtstack gateway --adapter A --mqtt URL`).
    @Test func theMinimalCommandLine() throws {
        let c = try GatewayConfigurationReader.read(yaml: nil, commandLine: ["adapter": ["hci0"], "mqtt": ["mqtt://127.0.0.1:1883"]])
        #expect(c.adapters == ["hci0"] && c.mqtt.broker == MQTTBrokerURL(host: "127.0.0.1"))
        #expect(c.devices.isEmpty)
    }

    @Test func everyOptionMapsToItsFileSetting() throws {
        // Each option given on the command line gives the same configuration as its file form.
        let samples: [String: String] = [
            "gateway-id": "gw2", "state-dir": "/var/lib/rtstack", "status-interval": "15", "adapter": "hci1",
            "backend": "user-channel", "mqtt": "mqtt://b:1884", "mqtt-client-id": "c1", "mqtt-username": "u",
            "mqtt-password": "p", "mqtt-password-file": "/etc/p", "mqtt-ca": "/etc/ca.pem", "mqtt-cert": "/etc/c.pem",
            "mqtt-key": "/etc/k.pem", "mqtt-prefix": "home/ble", "mqtt-qos": "0", "mqtt-retain": "true",
            "mqtt-keepalive": "60", "mqtt-queue-limit": "99", "mqtt-discovery": "false", "mqtt-discovery-prefix": "ha",
            "passive": "eddystone", "control-socket": "/run/rtstack/g.sock", "control-mode": "0600", "control-group": "rtstack",
            "esphome": ":6053", "esphome-key": "AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA=", "esphome-name": "garage-proxy",
        ]
        #expect(Set(samples.keys) == Set(GatewaySettings.all.map(\.option)))
        for s in GatewaySettings.all {
            let value = try #require(samples[s.option])
            var fromOption = GatewayConfiguration()
            #expect(GatewayConfigurationReader.apply(commandLine: [s.option: [value]], into: &fromOption).isEmpty)
            var fromFile = GatewayConfiguration()
            let levels = s.path.split(separator: ".")
            let yaml = levels.count == 2 ? "\(levels[0]):\n  \(levels[1]): \"\(value)\"\n" : "\(levels[0]): \"\(value)\"\n"
            #expect(GatewayConfigurationReader.parse(yaml: yaml, into: &fromFile).isEmpty, "\(yaml)")
            #expect(fromOption == fromFile, "--\(s.option) vs \(s.path)")
            #expect(fromOption != GatewayConfiguration(), "--\(s.option) changed nothing")
        }
    }

    @Test func optionsOverrideTheFile() throws {
        let c = try GatewayConfigurationReader.read(yaml: GatewayConfigurationTests.example,
                                                    commandLine: ["mqtt-qos": ["1"], "adapter": ["hci2", "hci3"],
                                                                  "device": ["name=extra,service=1816,subscribe=2A5B+2A5C"]])
        #expect(c.mqtt.qos == .atLeastOnce)
        #expect(c.adapters == ["hci2", "hci3"])
        #expect(c.devices.count == 5)
        #expect(c.devices[4].name == "extra" && c.devices[4].service == BluetoothUUID(0x1816)
                && c.devices[4].subscribe == [BluetoothUUID(0x2A5B), BluetoothUUID(0x2A5C)])
        #expect(c.devices[4].line == nil)
        // Comma lists for list options too.
        let d = try GatewayConfigurationReader.read(yaml: nil, commandLine: ["adapter": ["hci0,hci1"], "mqtt": ["mqtt://h"]])
        #expect(d.adapters == ["hci0", "hci1"])
    }

    @Test func optionErrorsNameTheOption() {
        var c = GatewayConfiguration()
        #expect(GatewayConfigurationReader.apply(commandLine: ["mqtt-qos": ["2"]], into: &c).map(\.description)
                == ["option '--mqtt-qos': wants 0 or 1 (QoS 2 is not offered), got '2'"])
        #expect(GatewayConfigurationReader.apply(commandLine: ["device": ["nam=x,service=180D"]], into: &c).map(\.description)
                == ["option '--device': unknown device key 'nam'; did you mean 'name'?"])
        #expect(GatewayConfigurationReader.apply(commandLine: ["device": ["service=180D,subscribe=2A37+zz"]], into: &c).map(\.description)
                == ["option '--device': subscribe: 'zz' is not a UUID (2A37, 0x2A37, or the 128-bit form EF680201-9B35-4933-9B10-52FFA9740042)"])
        #expect(GatewayConfigurationReader.apply(commandLine: ["device": ["name=x"]], into: &c).map(\.description)
                == ["option '--device': 'name=x' names no device: give address, service or name_pattern"])
        #expect(GatewayConfigurationReader.apply(commandLine: ["device": ["service"]], into: &c).map(\.description)
                == ["option '--device': 'service' is not KEY=VALUE"])
    }

    @Test func theMappingTableListsEveryOption() {
        let table = GatewaySettings.mappingTable
        for s in GatewaySettings.all { #expect(table.contains("| `\(s.path)` | `--\(s.option)` |")) }
    }
}

/// Docs/gateway.md holds the settings and device-key tables exactly as the code prints them.
@Suite struct GatewayDocsTests {
    static var text: String? {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return try? ConfigurationFile.read(parts.joined(separator: "/") + "/Docs/gateway.md")
    }

    @Test func theTablesAreCurrent() throws {
        let doc = try #require(Self.text, "Docs/gateway.md is missing")
        #expect(doc.contains(GatewaySettings.mappingTable), "\(GatewaySettings.mappingTable)")
        #expect(doc.contains(GatewaySettings.deviceKeyTable), "\(GatewaySettings.deviceKeyTable)")
    }
}

@Suite struct ConfigurationFileTests {
    @Test func readErrorsNameTheFile() {
        #expect(throws: ConfigurationError(.whole, "/nonexistent/gateway.yaml", "cannot read: No such file or directory")) {
            try ConfigurationFile.read("/nonexistent/gateway.yaml")
        }
        #expect(throws: ConfigurationError.self) { try ConfigurationFile.read("/") }
    }
}
