import Glibc
import Testing
import MQTT
import Wire
import Gateway
@testable import RTStackCLI

/// The gateway's options through the CLI's own parser (`ParsedArguments`), as `rtstack gateway`
/// will read them.
@Suite struct GatewayOptionsTests {
    static let spec = CommandSpec(name: "gateway", usage: "rtstack gateway [--config FILE] [OPTIONS]",
                                  summary: "test", options: GatewayOptions.specs)

    static func configuration(_ words: [String]) throws(UsageError) -> GatewayConfiguration {
        try GatewayOptions.configuration(try ParsedArguments(words, spec: spec))
    }

    static func temporaryFile(_ text: String) -> String {
        let path = "/tmp/rtstack-gateway-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).yaml"
        let f = fopen(path, "w")
        fputs(text, f)
        fclose(f)
        return path
    }

    @Test func optionNamesAreUnique() {
        let names = GatewayOptions.specs.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(names.contains("config") && names.contains("device") && names.contains("mqtt"))
    }

    @Test func theIssuesMinimalCommandLine() throws {
        let c = try Self.configuration(["--adapter", "hci0", "--mqtt", "mqtt://127.0.0.1:1883"])
        #expect(c.adapters == ["hci0"] && c.mqtt.broker?.port == 1883)
    }

    @Test func severalAdaptersAndDevices() throws {
        let c = try Self.configuration(["--adapter", "hci0,tcp:127.0.0.1:9000,serial:/dev/ttyUSB0@1000000,noflow",
                                        "--adapter", "hci1", "--mqtt=mqtts://b", "--mqtt-qos", "0",
                                        "--device", "name=heart,address=C1:00:00:00:00:01/random,subscribe=2A37+2A19",
                                        "--device", "service=181A,max=2", "--passive", "bthome,ibeacon"])
        #expect(c.adapters == ["hci0", "tcp:127.0.0.1:9000", "serial:/dev/ttyUSB0@1000000,noflow", "hci1"])
        #expect(c.mqtt.qos == .atMostOnce && c.mqtt.broker?.usesTLS == true)
        #expect(c.devices.map(\.name) == ["heart", nil] && c.devices[1].maxDevices == 2)
        #expect(c.passive.bthome && c.passive.iBeacon)
    }

    @Test func aFileAndOptionsTogether() throws {
        let path = Self.temporaryFile("adapters: [hci0]\nmqtt:\n  url: mqtt://broker\n  qos: 0\n")
        defer { unlink(path) }
        let c = try Self.configuration(["--config", path, "--mqtt-qos", "1"])
        #expect(c.adapters == ["hci0"] && c.mqtt.broker?.host == "broker" && c.mqtt.qos == .atLeastOnce)
    }

    @Test func errorsNameTheFileLineOrOption() throws {
        let path = Self.temporaryFile("adapters: [hci0]\nmqtt:\n  url: mqtt://broker\n  qos: 3\n")
        defer { unlink(path) }
        do {
            _ = try Self.configuration(["--config", path, "--mqtt-keepalive", "1"])
            Issue.record("accepted")
        } catch {
            #expect(error.message == """
                option '--mqtt-keepalive': wants a whole number from 5 to 65535, got '1'
                \(path): line 4: mqtt.qos: wants 0 or 1 (QoS 2 is not offered), got '3'
                """ || error.message == """
                \(path): line 4: mqtt.qos: wants 0 or 1 (QoS 2 is not offered), got '3'
                option '--mqtt-keepalive': wants a whole number from 5 to 65535, got '1'
                """, "\(error.message)")
        }
        #expect(throws: UsageError.self) { try Self.configuration(["--config", "/nonexistent.yaml"]) }
        do { _ = try Self.configuration(["--config", "/nonexistent.yaml"]) } catch {
            #expect(error.message == "--config: /nonexistent.yaml: cannot read: No such file or directory")
        }
        do { _ = try Self.configuration(["--mqtt-qos", "1", "--mqtt-qos", "0"]) } catch {
            #expect(error.message == "option '--mqtt-qos' given twice: give it once")
        }
    }
}
