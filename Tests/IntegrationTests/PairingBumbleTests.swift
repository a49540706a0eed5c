import Foundation
import HostCore
import SecurityCrypto
import Testing
import TestSupport
import Wire

/// rtstack's pairing state machine against a real peer nobody here wrote: Bumble's Security
/// Manager in a `Secure N` peripheral of the test world (`--secure PROFILE`), with real P-256,
/// real link encryption by Bumble's controllers, and a read of a characteristic that needs the
/// resulting security. The host does not drive pairing yet, so `world/smp_relay.py` plays the
/// host's part: a Bumble central whose CID 0x0006 goes to this test over a pipe, and which
/// runs HCI LE Enable Encryption when the state machine asks for it.
@Suite(.serialized) struct PairingBumbleTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var profile: String
        var configuration: PairingConfiguration
        var model: AssociationModel?
        var secureConnections = true
        /// The characteristic to read once paired (encrypted or authenticated).
        var read = "5EC0A001-7273-7461-636B-000000000000"
        var readValue = "encrypted"
        var error: PairingError?
        var testDescription: String { profile + (error.map { " → \($0)" } ?? "") }
    }

    static let authenticated = "5EC0A002-7273-7461-636B-000000000000"
    static let cases: [Case] = [
        Case(profile: "just-works", configuration: PairingConfiguration(), model: .justWorks),
        Case(profile: "numeric-comparison", configuration: PairingConfiguration(ioCapability: .displayYesNo, securityLevel: .high),
             model: .numericComparison, read: authenticated, readValue: "authenticated"),
        Case(profile: "passkey-display", configuration: PairingConfiguration(ioCapability: .keyboardOnly, securityLevel: .high),
             model: .passkeyEntry(.responderDisplays), read: authenticated, readValue: "authenticated"),
        Case(profile: "passkey-keyboard", configuration: PairingConfiguration(ioCapability: .keyboardDisplay, securityLevel: .high),
             model: .passkeyEntry(.initiatorDisplays), read: authenticated, readValue: "authenticated"),
        Case(profile: "legacy-only", configuration: PairingConfiguration(), model: .justWorks, secureConnections: false),
        Case(profile: "legacy-passkey", configuration: PairingConfiguration(ioCapability: .keyboardOnly, securityLevel: .high),
             model: .passkeyEntry(.responderDisplays), secureConnections: false, read: authenticated, readValue: "authenticated"),
        Case(profile: "sc-only", configuration: PairingConfiguration(), model: .justWorks),
        Case(profile: "sc-only", configuration: PairingConfiguration(secureConnections: false), error: .peerFailed(.authenticationRequirements)),
        Case(profile: "hostile-public-key", configuration: PairingConfiguration(), error: .invalidPublicKey),
        Case(profile: "hostile-confirm", configuration: PairingConfiguration(), error: .confirmValueMismatch),
    ]

    @Test(arguments: cases) func pairsWithBumble(_ c: Case) async throws {
        let world = try await WorldProcess.start(["--heart", "0", "--speed", "0", "--environment", "0", "--distractors", "0",
                                                  "--rate", "0", "--secure", c.profile])
        defer { world.stop() }
        let device = try world.device("Secure 1")
        let relay = try RelayProcess.start(hciPort: world.hciPort, peer: device.address)
        defer { relay.stop() }
        let handleLine = try await relay.next(timeout: 60)
        try #require(handleLine.hasPrefix("ready "), "relay: \(handleLine) \(relay.errors)")

        // The relay's own random static address is the initiator address of c1 / f5 / f6.
        let local = try #require(relay.localAddress(), "relay did not report its address")
        var pairing = PairingInitiator(configuration: c.configuration, localAddress: local,
                                       peerAddress: DeviceAddress(BDAddress(string: device.address)!, type: .randomDevice),
                                       crypto: NettleCryptography())
        let started = ContinuousClock.now
        func now() -> HostTime {
            let d = (ContinuousClock.now - started).components
            return UInt64(d.seconds) * 1_000_000_000 + UInt64(d.attoseconds / 1_000_000_000)
        }

        if c.error == nil {
            // Before pairing the characteristic is refused: Insufficient Encryption (0x0f) or
            // Insufficient Authentication (0x05).
            relay.send("read \(c.read)")
            let refused = try await relay.next(timeout: 60)
            #expect(refused == "read error 0x0f" || refused == "read error 0x05", "\(refused)")
        }
        pairing.start(at: now())
        var done = false
        while !done {
            while let pdu = pairing.pollTransmit() { relay.send("smp " + Hex.string(pdu.encoded)) }
            while let event = pairing.pollEvent() {
                switch event {
                case let .startEncryption(key):
                    relay.send("encrypt \(BondRecordCodec.hex128(key.key)) \(String(key.ediv, radix: 16)) \(String(key.rand, radix: 16))")
                case .passkeyRequested:
                    pairing.enterPasskey(123_456, at: now())
                case let .displayPasskey(passkey):
                    try await world.wait("pairing_passkey_wanted", timeout: 15) { $0.contains { $0["event"]?.string == "pairing_passkey_wanted" } }
                    try world.control(#"{"cmd":"passkey","device":"Secure 1","passkey":\#(passkey)}"#)
                case .confirmNumber:
                    pairing.confirmNumericComparison(true, at: now())
                case .paired, .failed:
                    done = true
                default:
                    break
                }
            }
            if done { break }
            while let pdu = pairing.pollTransmit() { relay.send("smp " + Hex.string(pdu.encoded)) }
            let line = try await relay.next(timeout: 60)
            let words = line.split(separator: " ").map(String.init)
            switch words.first {
            case "smp": pairing.receive(Hex.parse(words[1])![...], at: now())
            case "encrypted": pairing.encryptionChanged(keySize: UInt8(words[1]) ?? 0, at: now())
            case "encryption-failed": pairing.encryptionFailed(status: HCIStatus(rawValue: UInt8(words[1]) ?? 0x1F), at: now())
            default: Issue.record("relay: \(line) \(relay.errors)"); return
            }
        }
        while let pdu = pairing.pollTransmit() { relay.send("smp " + Hex.string(pdu.encoded)) }
        if let expected = c.error {
            #expect(pairing.error == expected)
            try await world.wait("pairing_failed", timeout: 10) { $0.contains { $0["event"]?.string == "pairing_failed" } }
            return
        }
        let result = try #require(pairing.result, "\(String(describing: pairing.error))")
        #expect(result.model == c.model)
        #expect(result.secureConnections == c.secureConnections)
        #expect(result.identityResolvingKey != nil && result.identityAddress != nil, "Bumble distributes IdKey")
        #expect(result.longTermKey != nil)
        try await world.wait("paired", timeout: 10) { $0.contains { $0["event"]?.string == "paired" } }
        // The proof: a characteristic that needs this security reads.
        relay.send("read \(c.read)")
        let read = try await relay.next(timeout: 60)
        #expect(read == "read ok " + Hex.string(Array(c.readValue.utf8)), "\(read)")
    }
}

/// `world/smp_relay.py` as a child process.
final class RelayProcess: @unchecked Sendable {
    private let process: Process
    private let stdinPipe: Pipe
    private let out: LineCollector
    private let err: LineCollector
    private var consumed = 0

    private init(process: Process, stdinPipe: Pipe, out: LineCollector, err: LineCollector) {
        self.process = process
        self.stdinPipe = stdinPipe
        self.out = out
        self.err = err
    }

    static func start(hciPort: UInt16, peer: String) throws -> RelayProcess {
        let p = Process()
        p.executableURL = PackagePaths.root.appendingPathComponent(".venv-world/bin/python")
        p.arguments = ["-m", "world.smp_relay", "--transport", "tcp-client:127.0.0.1:\(hciPort)", "--peer", peer, "--verbose-address"]
        p.currentDirectoryURL = PackagePaths.root
        var env = ProcessInfo.processInfo.environment
        env["PYTHONPATH"] = PackagePaths.root.appendingPathComponent("Tests/World").path
        p.environment = env
        let i = Pipe(), o = Pipe(), e = Pipe()
        p.standardInput = i
        p.standardOutput = o
        p.standardError = e
        try p.run()
        return RelayProcess(process: p, stdinPipe: i, out: LineCollector(o.fileHandleForReading), err: LineCollector(e.fileHandleForReading))
    }

    var errors: String { err.lines.suffix(5).joined(separator: " | ") }

    /// The relay's own address, from its `address` line (printed before `ready`).
    func localAddress() -> DeviceAddress? {
        guard let line = out.lines.first(where: { $0.hasPrefix("address ") }) else { return nil }
        return BDAddress(string: String(line.dropFirst(8))).map { DeviceAddress($0, type: .randomDevice) }
    }

    func send(_ line: String) {
        try? stdinPipe.fileHandleForWriting.write(contentsOf: Array((line + "\n").utf8))
    }

    /// The next stdout line that is not the `address` line.
    func next(timeout: Double) async throws -> String {
        let found = await poll(for: timeout, every: .milliseconds(5)) { () -> String? in
            let lines = out.lines
            while consumed < lines.count {
                let line = lines[consumed]
                consumed += 1
                if !line.hasPrefix("address ") { return line }
            }
            return nil
        }
        if let found { return found }
        throw IntegrationFailure("the SMP relay said nothing within \(timeout) s; stderr: \(errors)")
    }

    func stop() {
        send("quit")
        try? stdinPipe.fileHandleForWriting.close()
        if process.isRunning {
            Thread.sleep(forTimeInterval: 0.2)
            if process.isRunning { process.terminate() }
        }
        process.waitUntilExit()
    }
}
