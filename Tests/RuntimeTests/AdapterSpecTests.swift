import Glibc
import Testing
import Capture
import Wire
@testable import Runtime

@Suite struct AdapterSpecTests {
    static let good: [(String, AdapterSpec)] = [
        ("tcp:127.0.0.1:9000", .tcp(host: "127.0.0.1", port: 9000)),
        ("tcp:localhost:1", .tcp(host: "localhost", port: 1)),
        ("tcp:controller.local:65535", .tcp(host: "controller.local", port: 65535)),
        ("tcp:[::1]:9001", .tcp(host: "::1", port: 9001)),
        ("serial:/dev/ttyUSB0@1000000", .serial(path: "/dev/ttyUSB0", baudRate: 1_000_000, flowControl: true)),
        ("serial:/dev/ttyUSB0@115200,noflow", .serial(path: "/dev/ttyUSB0", baudRate: 115_200, flowControl: false)),
        ("serial:/dev/ttyACM0", .serial(path: "/dev/ttyACM0", baudRate: 1_000_000, flowControl: true)),
        ("serial:/dev/ttyACM0,noflow", .serial(path: "/dev/ttyACM0", baudRate: 1_000_000, flowControl: false)),
        ("serial:/dev/ttyS1@4000000,flow", .serial(path: "/dev/ttyS1", baudRate: 4_000_000, flowControl: true)),
        ("/dev/ttyACM0", .serial(path: "/dev/ttyACM0", baudRate: 1_000_000, flowControl: true)),
        ("/dev/ttyUSB1@921600", .serial(path: "/dev/ttyUSB1", baudRate: 921_600, flowControl: true)),
        ("/dev/serial/by-id/usb-ZEPHYR_HCI_UART-if00@1000000,noflow",
         .serial(path: "/dev/serial/by-id/usb-ZEPHYR_HCI_UART-if00", baudRate: 1_000_000, flowControl: false)),
        ("hci0", .hciSocket(index: 0)),
        ("hci12", .hciSocket(index: 12)),
        ("replay:session.btsnoop", .replay(path: "session.btsnoop")),
        ("replay:/tmp/a b.pcapng", .replay(path: "/tmp/a b.pcapng")),
    ]

    @Test(arguments: good)
    func parsesAcceptedForms(_ text: String, _ expected: AdapterSpec) throws {
        let spec = try AdapterSpec(parsing: text)
        #expect(spec == expected)
        // The canonical description parses back to the same value.
        #expect(try AdapterSpec(parsing: spec.description) == expected)
    }

    static let bad: [(String, AdapterSpecError.Problem, String)] = [
        ("", .empty, "empty"),
        ("bluetooth", .unknownForm, "unknown adapter form"),
        ("ttyUSB0", .unknownForm, "/dev/ttyUSB0"),
        ("udp:1.2.3.4:5", .unknownForm, "unknown adapter form"),
        ("tcp:127.0.0.1", .missingPort, "port is missing"),
        ("tcp:127.0.0.1:", .missingPort, "port is missing"),
        ("tcp::9000", .missingHost, "host is missing"),
        ("tcp:host:http", .invalidPort("http"), "'http' is not a TCP port"),
        ("tcp:host:70000", .invalidPort("70000"), "'70000' is not a TCP port"),
        ("tcp:host:0", .invalidPort("0"), "'0' is not a TCP port"),
        ("tcp:host:-1", .invalidPort("-1"), "'-1' is not a TCP port"),
        ("serial:", .missingPath("serial"), "needs a file path"),
        ("serial:@115200", .missingPath("serial"), "needs a file path"),
        ("serial:ttyUSB0", .relativePath("ttyUSB0"), "must be absolute"),
        ("serial:/dev/ttyUSB0@fast", .invalidBaudRate("fast"), "'fast' is not a baud rate"),
        ("serial:/dev/ttyUSB0@", .invalidBaudRate(""), "is not a baud rate"),
        ("serial:/dev/ttyUSB0@1234", .unsupportedBaudRate(1234), "supported rates: 1200, 2400"),
        ("/dev/ttyUSB0@5000000", .unsupportedBaudRate(5_000_000), "4000000"),
        ("serial:/dev/ttyUSB0,rtscts", .unknownSerialOption("rtscts"), "unknown serial option 'rtscts'"),
        ("/dev/ttyUSB0@115200,", .unknownSerialOption(""), "unknown serial option ''"),
        ("hci", .invalidHCIIndex(""), "needs a controller number"),
        ("hcix", .invalidHCIIndex("x"), "'x' is not a controller number"),
        ("hci-1", .invalidHCIIndex("-1"), "'-1' is not a controller number"),
        ("hci99999", .invalidHCIIndex("99999"), "'99999' is not a controller number"),
        ("replay:", .missingPath("replay"), "replay: needs a file path"),
    ]

    @Test(arguments: bad)
    func rejectsWithTheProblemNamed(_ text: String, _ problem: AdapterSpecError.Problem, _ phrase: String) {
        #expect(throws: AdapterSpecError(input: text, problem: problem)) { try AdapterSpec(parsing: text) }
        let message = AdapterSpecError(input: text, problem: problem).description
        #expect(message.contains(phrase), "\(message)")
        #expect(message.contains("'\(text)'"))
        #expect(message.hasSuffix("Accepted forms: \(AdapterSpec.acceptedForms)"))
    }

    @Test func replayOfAMissingFileNamesIt() throws {
        do {
            _ = try AdapterSpec.replay(path: "/nonexistent/x.btsnoop").openTransport()
            Issue.record("replay opened")
        } catch {
            guard case .unavailable(let message) = error else { Issue.record("\(error)"); return }
            #expect(message.contains("replay:/nonexistent/x.btsnoop"))
        }
    }

    /// A recording's controller→host packets come out of the replay transport as an H4
    /// stream, in order, then the stream ends; what the host writes is swallowed.
    @Test func replayPlaysTheControllerSide() throws {
        var file = BtsnoopFormat.fileHeader()
        let events: [[UInt8]] = [[0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00], [0x0E, 0x04, 0x01, 0x01, 0x10, 0x00]]
        try BtsnoopFormat.appendRecord(CaptureRecord(timestampMicros: 1_000_000, direction: .hostToController,
                                                     packet: HCIPacket(type: .command, bytes: [0x03, 0x0C, 0x00])), to: &file)
        for (i, e) in events.enumerated() {
            try BtsnoopFormat.appendRecord(CaptureRecord(timestampMicros: 1_000_000 + Int64(i) * 20_000, direction: .controllerToHost,
                                                         packet: HCIPacket(type: .event, bytes: e)), to: &file)
        }
        let path = "/tmp/rtstack-replay-\(getpid()).btsnoop"
        let f = fopen(path, "wb")
        _ = file.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, f) }
        fclose(f)
        defer { unlink(path) }
        let t = try AdapterSpec.replay(path: path).openTransport()
        defer { t.close() }
        try t.write([0x01, 0x03, 0x0C, 0x00])
        var got: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        let deadline = MonotonicClock.now() + 5_000_000_000
        while MonotonicClock.now() < deadline {
            do {
                let n = try buffer.withUnsafeMutableBytes { try t.read(into: $0) }
                if n > 0 { got += buffer[0..<n] } else { usleep(2000) }
            } catch {
                break   // end of stream
            }
        }
        #expect(got == events.flatMap { [0x04] + $0 })
    }

    @Test func openingSerialSpecReachesTheDevice() {
        #expect(throws: TransportError.openFailed(path: "/dev/rtstack-no-such-tty", errno: ENOENT)) {
            _ = try AdapterSpec.serial(path: "/dev/rtstack-no-such-tty", baudRate: 1_000_000, flowControl: true).openTransport()
        }
    }

    @Test func defaultSerialRateIsZephyrHCIUARTs() {
        // Zephyr samples/bluetooth/hci_uart: 1 Mbit/s, 8N1, RTS/CTS by default.
        #expect(AdapterSpec.defaultSerialBaudRate == 1_000_000)
    }
}
