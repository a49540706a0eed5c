#if canImport(Glibc)
import Glibc
#endif
import Testing
import HostCore
import Runtime
import Wire
@testable import RTStackCLI

/// Issue 17 §2: what a failed command prints names what was wrong and what to do, for every
/// error it can report. The host's errors are walked in HostCoreTests (`ErrorRemedyTests`);
/// here, what the commands print of them and of their own failures.
@Suite struct FailureReportTests {
    static let peer = DeviceAddress(BDAddress(string: "C6:05:04:03:02:01")!, type: .randomDevice)

    /// A host error (not the adapter's) prints its cause, then its remedy indented below it.
    @Test("every host error a command reports prints the cause on the rtstack: line and a remedy below it")
    func hostErrorsPrintCauseAndRemedy() {
        let errors: [HostError] = [
            .commandFailed(.leCreateConnection, .commandDisallowed), .commandTimeout(.reset), .connectTimeout(Self.peer),
            .connectionFailed(.connectionFailedToBeEstablished), .disconnected(.connectionTimeout),
            .att(error: 0x0D, request: 0x12, handle: 0x0021), .att(error: 0xFD, request: 0x12, handle: 0x0022),
            .att(error: 0x81, request: 0x12, handle: 0x0012), .attTimeout(request: 0x0A), .protocolViolation("x"),
            .notFound("x"), .controller("x"), .invalidState("x"), .unsupportedByPeer("x"), .security(.keyMissing),
        ]
        for e in errors {
            let r = FailureReport(CentralError.host(e))
            #expect(r.code == .failure)
            #expect(r.lines.count == 2, "\(r.lines)")
            #expect(r.lines[0] == "rtstack: " + e.description)
            #expect(r.lines[1].hasPrefix("  ") && r.lines[1].count > 22, "\(r.lines)")
        }
    }

    @Test("the advice that depends on how rtstack was run comes first: Insufficient Authentication from a script names --passkey -")
    func optionAdviceComesFirst() {
        let e = HostError.att(error: 0x05, request: 0x0A, handle: 0x0021)
        let r = FailureReport(CentralError.host(e), security: nil)
        #expect(r.lines[1].contains("rtstack could offer only Just Works") && r.lines[1].contains("--passkey -"), "\(r.lines)")
        let multiple = FailureReport(CentralError.host(.att(error: 0x06, request: 0x20, handle: 0x0003)))
        #expect(multiple.lines[1].contains("leave out --no-fallback"), "\(multiple.lines)")
    }

    @Test("an adapter failure is one sentence with its fix and exits 3; so is an adapter lost while running")
    func adapterFailuresCarryTheirFix() {
        let kernel = FailureReport(CentralError.host(.adapter("hci0", .permissionDenied(.setPowered))))
        #expect(kernel.code == .adapter && kernel.lines.count == 1)
        #expect(kernel.lines[0].contains("sudo setcap cap_net_admin,cap_net_raw+ep"), "\(kernel.lines)")
        let lost = FailureReport(CentralError.adapter(.endOfStream(adapter: "tcp:127.0.0.1:9000")))
        #expect(lost.code == .adapter)
        #expect(lost.lines[0].contains("check that it still runs"), "\(lost.lines)")
        let closed = FailureReport(CentralError.closed)
        #expect(closed.code == .failure && closed.lines[0].contains("run again"), "\(closed.lines)")
    }

    /// One sample of every `TransportError` case, with a phrase of its fix.
    static let transportErrors: [(TransportError, String)] = [
        (.endOfStream(adapter: "tcp:h:1"), "check that it still runs"),
        (.closedMidPacket(adapter: "tcp:h:1", partialBytes: 3), "check that it still runs"),
        (.connectionReset(adapter: "tcp:h:1"), "check that it still runs"),
        (.connectionRefused(endpoint: "127.0.0.1:9"), "start the controller's TCP server"),
        (.connectTimedOut(endpoint: "10.0.0.1:9", milliseconds: 3000), "check the host and port"),
        (.hostNotFound(host: "nohost", detail: "Name or service not known"), "give an IP address"),
        (.openFailed(path: "/dev/ttyNONE", errno: ENOENT), "is the adapter plugged in?"),
        (.openFailed(path: "/dev/ttyS9", errno: ENXIO), "the controller's serial device"),
        (.notATerminal(path: "/tmp/x"), "give the controller's serial device"),
        (.portInUse(path: "/dev/ttyACM0"), "stop the other one first"),
        (.unsupportedBaudRate(7), "give one of them"),
        (.baudRateNotApplied(path: "/dev/ttyACM0", requested: 3_000_000), "115200"),
        (.writeQueueFull(adapter: "/dev/ttyACM0", limit: 65536), "noflow"),
        (.closed(adapter: "hci0"), "run again"),
        (.unavailable("replay:/tmp/x.btsnoop: the capture has no controller→host packets to play"), "rtstack decode FILE"),
        (.hciSocket(HCISocketError(index: 0, operation: .bind, errno: EBUSY)), "systemctl stop bluetooth"),
        (.systemCall(operation: "poll", errno: EIO), "run again"),
    ]

    static func kind(_ t: TransportError) -> String {
        switch t {
        case .endOfStream: "endOfStream"
        case .closedMidPacket: "closedMidPacket"
        case .connectionReset: "connectionReset"
        case .connectionRefused: "connectionRefused"
        case .connectTimedOut: "connectTimedOut"
        case .hostNotFound: "hostNotFound"
        case .openFailed: "openFailed"
        case .notATerminal: "notATerminal"
        case .portInUse: "portInUse"
        case .unsupportedBaudRate: "unsupportedBaudRate"
        case .baudRateNotApplied: "baudRateNotApplied"
        case .writeQueueFull: "writeQueueFull"
        case .closed: "closed"
        case .unavailable: "unavailable"
        case .hciSocket: "hciSocket"
        case .systemCall: "systemCall"
        }
    }

    @Test("every transport failure, opening or mid-run, names its cause and its fix")
    func everyTransportErrorHasItsFix() {
        #expect(Set(Self.transportErrors.map { Self.kind($0.0) }).count == 16)
        for (error, phrase) in Self.transportErrors {
            let text = AdapterAdvice.text(for: CentralError.unavailable(.transport(error)))
            #expect(text.hasPrefix(error.description), "\(text)")
            #expect(text.contains(phrase), "\(text) lacks '\(phrase)'")
        }
    }

    static let database = GATTDatabase(services: [
        GATTService(uuid: BluetoothUUID(0x180D), startHandle: 0x10, endHandle: 0x16, characteristics: [
            GATTCharacteristic(uuid: BluetoothUUID(0x2A37), declarationHandle: 0x11, valueHandle: 0x12, properties: 0x10, endHandle: 0x13,
                               descriptors: [GATTDescriptor(uuid: BluetoothUUID(0x2902), handle: 0x13)]),
            GATTCharacteristic(uuid: BluetoothUUID(0x2A38), declarationHandle: 0x14, valueHandle: 0x15, properties: 0x02, endHandle: 0x15),
        ]),
    ])

    @Test("a characteristic the peer lacks: the remedy lists what it has and names rtstack gatt")
    func aMissingCharacteristicListsWhatExists() {
        let f = CharacteristicAdvice.missing(BluetoothUUID(0x2A19), in: Self.database, peer: "C6:05:04:03:02:01/random")
        #expect(f.cause == "the peer C6:05:04:03:02:01/random has no characteristic Battery Level (2A19)")
        #expect(f.remedy.contains("Heart Rate Measurement (2A37) at 0x0012, Body Sensor Location (2A38) at 0x0015"), "\(f.remedy)")
        #expect(f.remedy.contains("rtstack gatt C6:05:04:03:02:01/random"))
        #expect(FailureReport(f).lines == ["rtstack: " + f.cause, "  " + f.remedy])
    }

    @Test("subscribe to a characteristic without Notify or Indicate: the cause names its properties, the remedy read and the ones that notify")
    func aCharacteristicThatCannotNotify() throws {
        let location = Self.database.services[0].characteristics[1]
        let f = try #require(CharacteristicAdvice.notSubscribable(location, indicate: false, in: Self.database, peer: "P"))
        #expect(f.cause == "Body Sensor Location (2A38) at 0x0015 neither notifies nor indicates (its properties: Read)")
        #expect(f.remedy.contains("rtstack read P 2A38") && f.remedy.contains("Heart Rate Measurement (2A37) at 0x0012"), "\(f.remedy)")
        let measurement = Self.database.services[0].characteristics[0]
        #expect(CharacteristicAdvice.notSubscribable(measurement, indicate: false, in: Self.database, peer: "P") == nil)
        let indicate = try #require(CharacteristicAdvice.notSubscribable(measurement, indicate: true, in: Self.database, peer: "P"))
        #expect(indicate.remedy == "leave out --indicate: it notifies")
    }

    @Test("write --no-response of a value longer than one PDU names the option to leave out")
    func aWriteCommandTooLong() {
        let host = CentralError.host(.invalidState("a value of 30 bytes does not fit one write (ATT_MTU 23 leaves 20)"))
        let f = WriteCommand.unfitting(host, option: .noResponse) as? CommandFailure
        #expect(f?.remedy.contains("leave out --no-response") == true, "\(String(describing: f))")
        let other = CentralError.host(.attTimeout(request: 0x12))
        #expect(WriteCommand.unfitting(other, option: .noResponse) is CentralError)
    }

    /// Bad command lines: each exits 2 before any adapter is opened, naming the word and the fix.
    static let badCommandLines: [([String], String)] = [
        (["read"], "usage: rtstack read ADDRESS"),
        (["read", "C6:05:04:03:02:01/random", "2A38"], "--adapter is required (e.g. --adapter hci0"),
        (["read", "C6:05:04:03:02:01/random", "2A38", "--adapter", "bogus"], "Accepted forms:"),
        (["read", "C6:05:04:03", "2A38", "--adapter", "tcp:127.0.0.1:1"], "ADDRESS is AA:BB:CC:DD:EE:FF"),
        (["read", "C6:05:04:03:02:01/static", "2A38", "--adapter", "tcp:127.0.0.1:1"], "use public or random"),
        (["read", "C6:05:04:03:02:01/random", "2X38", "--adapter", "tcp:127.0.0.1:1"], "neither a handle (0x0012) nor a UUID"),
        (["read", "C6:05:04:03:02:01/random", "0x1FFFF", "--adapter", "tcp:127.0.0.1:1"], "neither a handle (0x0012) nor a UUID"),
        (["write", "C6:05:04:03:02:01/random", "2A39", "0G", "--adapter", "tcp:127.0.0.1:1"], "is not hex bytes (e.g. 0100"),
        (["write", "C6:05:04:03:02:01/random", "2A39", String(repeating: "00", count: 513), "--adapter", "tcp:127.0.0.1:1"],
         "write at most 512"),
        (["write", "C6:05:04:03:02:01/random", "2A39", "--adapter", "tcp:127.0.0.1:1"], "usage: rtstack write ADDRESS UUID|HANDLE HEX"),
        (["write", "C6:05:04:03:02:01/random", "2A39", "01", "2A38", "--adapter", "tcp:127.0.0.1:1", "--reliable"],
         "'2A38' has no value: give UUID|HANDLE HEX pairs"),
        (["subscribe", "C6:05:04:03:02:01/random", "heart", "--adapter", "tcp:127.0.0.1:1"], "is not a UUID (e.g. 2A37)"),
        (["read", "C6:05:04:03:02:01/random", "2A38", "--adapter", "tcp:127.0.0.1:1", "--jso"], "did you mean --json?"),
        (["read", "C6:05:04:03:02:01/random", "2A38", "--adapter", "tcp:127.0.0.1:1", "--json=yes"], "write --json alone"),
        (["gatt", "C6:05:04:03:02:01/random", "--adapter", "tcp:127.0.0.1:1", "--range", "0x20-0x10"], "must not run backwards"),
        (["pair", "C6:05:04:03:02:01/random", "--adapter", "tcp:127.0.0.1:1", "--backend", "kernel"], "leave --backend out"),
    ]

    @Test("a bad command line exits 2 naming what is wrong and what to give instead", arguments: badCommandLines)
    func badCommandLinesSayWhatToGive(words: [String], phrase: String) async throws {
        let r = try await CLIRun.run(words)
        #expect(r.code == .usage, "\(words): \(r.err)")
        #expect(r.err.contains(phrase), "\(words): \(r.err)")
    }

    @Test("an adapter nothing listens on exits 3 and says to start its server")
    func aRefusedTCPAdapter() async throws {
        let r = try await CLIRun.run(["read", "C6:05:04:03:02:01/random", "2A38", "--adapter", "tcp:127.0.0.1:1"])
        #expect(r.code == .adapter, "\(r.err)")
        #expect(r.err.contains("connection refused") && r.err.contains("start the controller's TCP server"), "\(r.err)")
    }
}
