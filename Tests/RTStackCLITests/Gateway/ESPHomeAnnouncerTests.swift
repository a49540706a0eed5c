#if canImport(Glibc)
import Glibc
#endif
import ESPHomeAPI
import Testing
@testable import RTStackCLI

/// The mDNS announcement Home Assistant discovers the proxy by, and the two ways it reaches
/// avahi (a service file, an avahi-publish-service child), in a fresh directory each.
@Suite final class ESPHomeAnnouncerTests {
    let directory: String

    init() throws {
        var template = Array("/tmp/rtstack-mdns-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        directory = try #require(made.map { String(cString: $0) })
    }

    deinit {
        for name in ["rtstack-esphome-6053.service", "publish", "arguments"] { unlink(directory + "/" + name) }
        rmdir(directory)
    }

    static let identity = ProxyIdentity(name: "garage-pi", friendlyName: "Garage <BLE> & more", macAddress: "DC:A6:32:01:02:0F",
                                        bluetoothMACAddress: "DC:A6:32:01:02:10", features: [.passiveScan])

    func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 8192)
        let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        return String(decoding: buffer[0..<max(n, 0)], as: UTF8.self)
    }

    /// A stand-in for avahi-publish-service in the test's directory, running `body` (sh), and an
    /// announcer that finds no services directory and so starts it.
    func publisher(_ body: String, encrypted: Bool) -> (script: String, announcement: ESPHomeAnnouncement, announcer: ESPHomeAnnouncer) {
        let script = directory + "/publish"
        let fd = open(script, O_WRONLY | O_CREAT | O_TRUNC, 0o755)
        _ = Array(("#!/bin/sh\n" + body).utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        let announcement = ESPHomeAnnouncement(identity: Self.identity, port: 6053, encrypted: encrypted, network: nil)
        return (script, announcement, ESPHomeAnnouncer(announcement: announcement, servicesDirectory: directory + "/absent", publishCommand: script))
    }

    @Test func theTXTRecordsAreESPHomesWithTheMACAsHomeAssistantMatchesIt() {
        let plain = ESPHomeAnnouncement(identity: Self.identity, port: 6053, encrypted: false, network: "ethernet")
        #expect(plain.txtRecords.map { "\($0.key)=\($0.value)" } == [
            "friendly_name=Garage <BLE> & more", "version=2025.11.0", "mac=dca63201020f", "board=rtstack", "network=ethernet",
        ])
        let keyed = ESPHomeAnnouncement(identity: Self.identity, port: 6053, encrypted: true, network: nil)
        #expect(keyed.txtRecords.last.map { "\($0.key)=\($0.value)" } == "api_encryption=Noise_NNpsk0_25519_ChaChaPoly_SHA256")
        #expect(!keyed.txtRecords.contains { $0.key == "network" })
    }

    @Test func theServiceFileNamesTheNodeAndEscapesWhatXMLReserves() {
        let file = ESPHomeAnnouncement(identity: Self.identity, port: 6053, encrypted: false, network: nil).serviceFile
        #expect(file.contains("  <name>garage-pi</name>\n"))
        #expect(file.contains("    <type>_esphomelib._tcp</type>\n    <port>6053</port>\n"))
        #expect(file.contains("    <txt-record>friendly_name=Garage &lt;BLE&gt; &amp; more</txt-record>\n"))
        #expect(file.contains("    <txt-record>mac=dca63201020f</txt-record>\n"))
        #expect(file.hasSuffix("  </service>\n</service-group>\n"))
    }

    @Test func aWritableServicesDirectoryGetsTheFileUntilStop() {
        let announcement = ESPHomeAnnouncement(identity: Self.identity, port: 6053, encrypted: false, network: nil)
        let announcer = ESPHomeAnnouncer(announcement: announcement, servicesDirectory: directory, publishCommand: "/nonexistent")
        let line = announcer.start()
        let path = directory + "/rtstack-esphome-6053.service"
        #expect(line == "mDNS: avahi publishes garage-pi._esphomelib._tcp on port 6053 (\(path), removed at stop)")
        #expect(read(path) == announcement.serviceFile)
        #expect(access(path + ".new", F_OK) != 0)
        announcer.stop()
        #expect(access(path, F_OK) != 0)
    }

    @Test func withoutTheDirectoryThePublisherRunsWithTheSameRecordsUntilStop() throws {
        // It writes its arguments and waits to be stopped.
        let (script, announcement, announcer) = publisher(
            "printf '%s\\n' \"$@\" > \(directory)/arguments.tmp\nmv \(directory)/arguments.tmp \(directory)/arguments\nexec sleep 30\n",
            encrypted: true)
        #expect(announcer.start() == "mDNS: \(script) publishes garage-pi._esphomelib._tcp on port 6053 while the gateway runs")
        guard case .publisher(let pid) = announcer.publication else {
            Issue.record("no publisher started")
            return
        }
        var arguments: String?
        for _ in 0..<200 where arguments == nil {
            arguments = read(directory + "/arguments")
            if arguments == nil { usleep(10_000) }
        }
        #expect(arguments == (announcement.publishArguments.joined(separator: "\n") + "\n"))
        announcer.stop()
        #expect(kill(pid, 0) != 0 && errno == ESRCH)
    }

    /// Without the SIGKILL after a second, `stop` would wait ten minutes for the child's sleep.
    @Test(.timeLimit(.minutes(1))) func aPublisherThatIgnoresSIGTERMIsKilledSoStopDoesNotHang() throws {
        let announcer = publisher("trap '' TERM\nexec sleep 600\n", encrypted: false).announcer
        _ = announcer.start()
        guard case .publisher(let pid) = announcer.publication else {
            Issue.record("no publisher started")
            return
        }
        usleep(100_000)
        announcer.stop()
        #expect(kill(pid, 0) != 0 && errno == ESRCH)
        #expect(announcer.publication == .none)
    }

    @Test func withNeitherTheLineSaysToAddTheProxyByAddress() {
        let announcement = ESPHomeAnnouncement(identity: Self.identity, port: 6053, encrypted: false, network: nil)
        let announcer = ESPHomeAnnouncer(announcement: announcement, servicesDirectory: directory + "/absent",
                                         publishCommand: "rtstack-no-such-avahi-publish-service")
        #expect(announcer.start() == "mDNS: garage-pi._esphomelib._tcp on port 6053 is not published: no avahi on this board (\(directory)/absent does not exist); add the proxy in Home Assistant by address")
        #expect(announcer.publication == .none)
    }

    @Test func theNetworkIsTheDefaultRoutesInterfaceKind() {
        let table = """
        Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask
        eth0\t0000A8C0\t00000000\t0001\t0\t0\t0\t00FFFFFF
        wlan0\t00000000\t0100A8C0\t0003\t0\t0\t600\t00000000
        """
        #expect(ESPHomeAnnouncer.network(routeTable: table) { $0 == "wlan0" } == "wifi")
        #expect(ESPHomeAnnouncer.network(routeTable: table) { _ in false } == "ethernet")
        #expect(ESPHomeAnnouncer.network(routeTable: "Iface\tDestination\n") { _ in true } == nil)
    }
}
