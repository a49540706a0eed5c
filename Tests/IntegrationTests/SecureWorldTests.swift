import Capture
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import HostCore
import Runtime
import Synchronization
import Testing
import TestSupport
import Wire

extension WorldIntegration {
    /// Pairing, bonding and encryption end to end through rtstack's HCI host — the product and
    /// the async API — against Bumble's Security Manager in the world's `Secure N` peripherals
    /// (`--secure PROFILE`, Tests/World/README.md), with Bumble's controllers encrypting the
    /// links. Nothing relays SMP here: rtstack's host drives it (compare `PairingBumbleTests`).
    @Suite("Security: pairing, bonds, encryption", .serialized)
    struct Security {
        static let encrypted = "5EC0A001-7273-7461-636B-000000000000"
        static let authenticated = "5EC0A002-7273-7461-636B-000000000000"

        struct Model: Sendable, CustomTestStringConvertible {
            var profile: String
            var options: [String]
            var model: String
            var authenticated: Bool
            var secureConnections: Bool
            /// rtstack displays the passkey; the test types it on the peer.
            var typeDisplayedPasskey = false
            var testDescription: String { "\(profile): \(model)" }
        }

        static let models: [Model] = [
            Model(profile: "just-works", options: [], model: "Just Works (LE Secure Connections)", authenticated: false,
                  secureConnections: true),
            Model(profile: "numeric-comparison", options: ["--security", "high", "--confirm-numbers"],
                  model: "Numeric Comparison (LE Secure Connections)", authenticated: true, secureConnections: true),
            Model(profile: "passkey-display", options: ["--security", "high", "--passkey", "123456"],
                  model: "Passkey Entry (peer displays) (LE Secure Connections)", authenticated: true, secureConnections: true),
            Model(profile: "passkey-keyboard", options: ["--security", "high", "--io-capability", "keyboard-display"],
                  model: "Passkey Entry (rtstack displays) (LE Secure Connections)", authenticated: true, secureConnections: true,
                  typeDisplayedPasskey: true),
            Model(profile: "legacy-only", options: [], model: "Just Works (legacy)", authenticated: false, secureConnections: false),
            Model(profile: "legacy-passkey", options: ["--security", "high", "--passkey", "123456"],
                  model: "Passkey Entry (peer displays) (legacy)", authenticated: true, secureConnections: false),
            Model(profile: "sc-only", options: [], model: "Just Works (LE Secure Connections)", authenticated: false,
                  secureConnections: true),
        ]

        @Test("rtstack pair with every association model: paired as the model says, bond kept 0600, listed by rtstack bonds", arguments: models)
        func pairEveryModel(_ m: Model) async throws {
            let world = try await WorldProcess.start(Self.secureWorld(m.profile))
            defer { world.stop() }
            let dir = try PackagePaths.temporaryDirectory("pair")
            defer { try? FileManager.default.removeItem(at: dir) }
            let peer = try world.device("Secure 1").address + "/random"
            let p = try RtstackProcess(["pair", peer] + WorldIntegration.adapter(world) + ["--state-dir", dir.path] + m.options,
                                       timeout: 40)
            if m.typeDisplayedPasskey {
                let shown = try await Self.displayedPasskey(p)
                _ = try await world.wait("pairing_passkey_wanted", timeout: 20) { $0.contains { $0["event"]?.string == "pairing_passkey_wanted" } }
                _ = try world.control(#"{"cmd":"passkey","device":"Secure 1","passkey":\#(shown)}"#)
            }
            let r = try await p.finish()
            #expect(r.status == 0, "\(r.transcript)")
            let text = r.stdout.joined(separator: "\n")
            #expect(text.contains("by \(m.model)"), "\(text)")
            #expect(text.contains("bonded, keys LTK, IRK, CSRK (redacted)"), "\(text)")
            let took = r.stdout.first { $0.hasPrefix("pairing took ") }
            #expect(took != nil, "\(text)")
            if let took { print("FIGURE pairing time (Bumble world, \(m.model)\(m.typeDisplayedPasskey ? ", passkey typed by the world" : "")): \(took.dropFirst("pairing took ".count))") }
            let paired = try await world.wait("paired", timeout: 10) { $0.contains { $0["event"]?.string == "paired" } }
            let event = try #require(paired.last { $0["event"]?.string == "paired" })
            #expect(event["authenticated"]?.bool == true || !m.authenticated, "\(event)")
            #expect(event["sc"]?.bool == m.secureConnections, "\(event)")

            // The bond: one file, mode 0600, listed without keys.
            let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("bond-") }
            #expect(files.count == 1, "\(files)")
            let mode = try #require(try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent(files[0]).path)[.posixPermissions] as? Int)
            #expect(mode == 0o600)
            let bonds = try await RtstackProcess.run(["bonds", "--state-dir", dir.path, "--json"], timeout: 10)
            #expect(bonds.status == 0, "\(bonds.transcript)")
            let listed = try #require(bonds.events.first, "\(bonds.transcript)")
            #expect(listed["model"]?.string.map { m.model.hasPrefix($0) } == true, "\(listed)")
            #expect(listed["keys"]?.string == "LTK,IRK,CSRK")
            let ltk = try Self.ltkHex(dir.appendingPathComponent(files[0]))
            #expect(!bonds.stdout.joined().lowercased().contains(ltk), "rtstack bonds printed the LTK")
            #expect(!r.stderr.lowercased().contains(ltk) && !text.lowercased().contains(ltk), "pair printed the LTK")
        }

        @Test("an invalid public key is rejected with a named error (exit 1)")
        func hostilePublicKey() async throws {
            let world = try await WorldProcess.start(Self.secureWorld("hostile-public-key"))
            defer { world.stop() }
            let dir = try PackagePaths.temporaryDirectory("pair-hostile")
            defer { try? FileManager.default.removeItem(at: dir) }
            let peer = try world.device("Secure 1").address + "/random"
            let r = try await RtstackProcess.run(["pair", peer] + WorldIntegration.adapter(world) + ["--state-dir", dir.path], timeout: 40)
            #expect(r.status == 1, "\(r.transcript)")
            #expect(r.stderr.contains("the peer's public key is not a point on P-256 (invalid-curve key rejected)"), "\(r.transcript)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("bond-") }.isEmpty)
        }

        @Test("keys persist across runs: a second process reads the encrypted characteristic with the stored LTK, no pairing again; --trace shows LE Enable Encryption and no Pairing Request")
        func keysPersistAcrossRuns() async throws {
            let world = try await WorldProcess.start(Self.secureWorld("just-works"))
            defer { world.stop() }
            let dir = try PackagePaths.temporaryDirectory("persist")
            defer { try? FileManager.default.removeItem(at: dir) }
            let peer = try world.device("Secure 1").address + "/random"
            let base = WorldIntegration.adapter(world) + ["--state-dir", dir.path]
            let pair = try await RtstackProcess.run(["pair", peer] + base, timeout: 40)
            try #require(pair.status == 0, "\(pair.transcript)")
            _ = try await world.wait("paired", timeout: 10) { $0.contains { $0["event"]?.string == "paired" } }
            let encryptionsBefore = world.events("encryption_change").count

            let read = try await RtstackProcess.run(["read", peer, Self.encrypted] + base + ["--trace"], timeout: 40)
            #expect(read.status == 0, "\(read.transcript)")
            #expect(read.stdout.last?.contains("\"encrypted\"") == true, "\(read.transcript)")
            #expect(read.stderr.contains("LE Enable Encryption"), "no LE Enable Encryption in the trace")
            #expect(!read.stderr.contains("Pairing Request"), "paired again")
            #expect(world.events("paired").count == 1)
            #expect(world.events("encryption_change").count > encryptionsBefore)
            // Redaction: the stored LTK appears neither decoded nor in the hex dumps.
            let ltk = try Self.ltkHex(dir.appendingPathComponent(try #require(
                try FileManager.default.contentsOfDirectory(atPath: dir.path).first { $0.hasPrefix("bond-") })))
            let dumped = read.stderr.lowercased().filter { $0.isHexDigit }
            let wire = String(stride(from: 0, to: ltk.count, by: 2).map { ltk.dropFirst($0).prefix(2) }.reversed().joined())
            #expect(!dumped.contains(wire) && !dumped.contains(ltk), "the LTK is in the --trace output")
        }

        @Test("automatic security: a read refused with Insufficient Authentication pairs (the passkey the peer shows) and is sent again")
        func automaticSecurity() async throws {
            let world = try await WorldProcess.start(Self.secureWorld("passkey-display"))
            defer { world.stop() }
            let dir = try PackagePaths.temporaryDirectory("auto")
            defer { try? FileManager.default.removeItem(at: dir) }
            let peer = try world.device("Secure 1").address + "/random"
            let r = try await RtstackProcess.run(["read", peer, Self.authenticated] + WorldIntegration.adapter(world)
                                                 + ["--state-dir", dir.path, "--passkey", "123456", "--trace"], timeout: 40)
            #expect(r.status == 0, "\(r.transcript)")
            #expect(r.stdout.last?.contains("\"authenticated\"") == true, "\(r.transcript)")
            #expect(r.stderr.contains("Insufficient Authentication"), "the first read was not refused?")
            let paired = world.events("paired")
            #expect(paired.count == 1 && paired.first?["authenticated"]?.bool == true, "\(paired)")
        }

        @Test("the peripheral's Security Request is answered by pairing, and the link is then encrypted for its reads")
        func securityRequest() async throws {
            let world = try await WorldProcess.start(Self.secureWorld("security-request"))
            defer { world.stop() }
            let dir = try PackagePaths.temporaryDirectory("secreq")
            defer { try? FileManager.default.removeItem(at: dir) }
            let peer = try DeviceAddress(parsing: try world.device("Secure 1").address + "/random", defaultType: nil)
            let recorder = SecurityRecorder()
            try await Self.withSecureCentral(world, dir, recorder) { central in
                let p = try await central.connect(to: peer, plan: Self.quietPlan)
                _ = try await world.wait("paired", timeout: 10) { $0.contains { $0["event"]?.string == "paired" } }
                #expect(world.events("security_request_sent").count == 1)
                #expect(recorder.snapshot().pairingRequests == 1, "rtstack paired on the peer's request")
                let db = try await p.discover()
                let c = try #require(db.characteristic(BluetoothUUID(string: Self.encrypted)!))
                #expect(try await p.read(handle: c.valueHandle) == Array("encrypted".utf8))
                #expect(recorder.snapshot().attSecurityErrors == 0, "the read needed no automatic security: the link was encrypted")
                await p.disconnect()
            }
        }

        @Test("bonded reconnection, 100 of 100: encrypted with the bond's LTK before the plan, never paired again; figure: what encryption adds to connect-to-ready")
        func bondedReconnectLoop() async throws {
            let world = try await WorldProcess.start(Self.secureWorld("just-works,just-works"))
            defer { world.stop() }
            let dir = try PackagePaths.temporaryDirectory("reconnect")
            defer { try? FileManager.default.removeItem(at: dir) }
            let bonded = try DeviceAddress(parsing: try world.device("Secure 1").address + "/random", defaultType: nil)
            let plain = try DeviceAddress(parsing: try world.device("Secure 2").address + "/random", defaultType: nil)
            let recorder = SecurityRecorder()
            var failures: [String] = []
            var bondedTimes: [Double] = []
            var plainTimes: [Double] = []
            let rounds = 100
            try await Self.withSecureCentral(world, dir, recorder) { central in
                let first = try await central.connect(to: bonded, plan: Self.quietPlan)
                _ = try await first.secure(SecurityNeed(level: .medium))
                await first.disconnect()
                #expect(FileBondStore(directory: StateDirectory(path: dir.path)).list().bonds.count == 1)
                for i in 0..<rounds {
                    let before = recorder.snapshot()
                    let p = try await central.connect(to: bonded, plan: Self.quietPlan)
                    let after = recorder.snapshot()
                    bondedTimes.append(after.sinceConnectionComplete())
                    if after.encryptions != before.encryptions + 1 || after.pairingRequests != before.pairingRequests {
                        failures.append("round \(i): \(after.encryptions - before.encryptions) encryption(s), \(after.pairingRequests - before.pairingRequests) Pairing Request(s)")
                    }
                    await p.disconnect()
                    let q = try await central.connect(to: plain, plan: Self.quietPlan)
                    plainTimes.append(recorder.snapshot().sinceConnectionComplete())
                    await q.disconnect()
                }
            }
            #expect(failures.isEmpty, "\(failures.prefix(5))")
            #expect(world.events("paired").count == 1, "paired again")
            print(SecurityRecorder.figure("Bumble world", bonded: bondedTimes, plain: plainTimes))
        }

        @Test("a passkey prompt its user never answers is cancelled when its link goes down: the agent is let go, the secure call fails")
        func unansweredPromptIsCancelledWithItsLink() async throws {
            let world = try await WorldProcess.start(Self.secureWorld("passkey-display"))
            defer { world.stop() }
            let dir = try PackagePaths.temporaryDirectory("prompt")
            defer { try? FileManager.default.removeItem(at: dir) }
            let peer = try DeviceAddress(parsing: try world.device("Secure 1").address + "/random", defaultType: nil)
            let agent = UnansweredAgent()
            try await Self.withSecureCentral(world, dir, SecurityRecorder(), ioCapability: .keyboardOnly, agent: agent) { central in
                let p = try await central.connect(to: peer, plan: Self.quietPlan)
                let securing = Task { try await p.secure(SecurityNeed(level: .high)) }
                try await withTimeout(15, "the agent being asked for the passkey") {
                    while agent.counts.asked == 0 { try await Task.sleep(for: .milliseconds(20)) }
                }
                await p.disconnect()
                try await withTimeout(5, "the prompt's task being cancelled") {
                    while agent.counts.letGo == 0 { try await Task.sleep(for: .milliseconds(20)) }
                }
                await #expect(throws: (any Error).self) { try await securing.value }
            }
            #expect(agent.counts.asked == 1 && agent.counts.letGo == 1)
        }

        // MARK: Helpers

        /// No Exchange MTU, no discovery: connected is ready, unless security holds the plan.
        static var quietPlan: LinkPlan {
            var plan = LinkPlan()
            plan.discover = false
            plan.mtu = nil
            return plan
        }

        /// A `Central` on the world with security as the CLI sets it up (NoInputNoOutput unless
        /// told otherwise, answered by `agent`), bonds in `dir`, the recorder on the tap.
        static func withSecureCentral(_ world: WorldProcess, _ dir: URL, _ recorder: SecurityRecorder,
                                      ioCapability: SMPIOCapability = .noInputNoOutput, agent: (any PairingAgent)? = nil,
                                      _ body: (Central) async throws -> Void) async throws {
            let state = StateDirectory(path: dir.path)
            var configuration = HostConfiguration(ownAddress: .randomStatic(state.ownRandomStaticAddress()))
            configuration.security = SecuritySetup.settings(level: .low, ioCapability: ioCapability, state: state,
                                                            identityAddress: nil)
            try await WorldIntegration.withCentral(world, configuration: configuration, bonds: state, agent: agent,
                                                   sinks: [recorder], body)
        }

        static func secureWorld(_ profiles: String) -> [String] {
            ["--heart", "0", "--speed", "0", "--environment", "0", "--distractors", "0", "--rate", "0", "--secure", profiles]
        }

        /// The six digits rtstack shows on stderr ("type NNNNNN on it").
        static func displayedPasskey(_ p: RtstackProcess) async throws -> Int {
            let found = await poll(for: 60, every: .milliseconds(20)) { () -> Int? in
                if let range = p.stderrText.range(of: "type ") {
                    let digits = p.stderrText[range.upperBound...].prefix(6)
                    if digits.count == 6, let n = Int(digits) { return n }
                }
                return nil
            }
            if let found { return found }
            throw IntegrationFailure("rtstack showed no passkey; stderr: \(p.stderrText)")
        }

        /// The `ltk` of a bond file, lower-case hex as written (most significant first).
        static func ltkHex(_ file: URL) throws -> String {
            let text = try String(contentsOf: file, encoding: .utf8)
            let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("ltk ") })
            return String(line.split(separator: " ")[1]).lowercased()
        }
    }
}

/// Counts, as packets pass the tap, LE Enable Encryption commands, SMP Pairing Requests and
/// ATT security refusals, and stamps the last LE Connection Complete.
final class SecurityRecorder: PacketSinkFactory, Sendable {
    struct Counts {
        var encryptions = 0
        var pairingRequests = 0
        var attSecurityErrors = 0
        /// Wall-clock µs of the last successful LE (Enhanced) Connection Complete.
        var connectionComplete: Int64 = 0

        /// Seconds from the last connection's completion to now (the caller calls it when the
        /// link is ready): the time security and the plan take, without the wait for the
        /// peer's advertising.
        func sinceConnectionComplete() -> Double {
            var ts = timespec()
            clock_gettime(CLOCK_REALTIME, &ts)
            let now = Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
            return Double(now - connectionComplete) / 1e6
        }
    }

    /// The figure line: connection complete → ready, bonded (re-encrypted) vs a peer without bond.
    static func figure(_ world: String, bonded: [Double], plain: [Double]) -> String {
        func ms(_ x: Double) -> String { String(format: "%.1f", x * 1000) }
        func stats(_ xs: [Double]) -> (mean: Double, median: Double, p95: Double) {
            let s = xs.sorted()
            return (xs.reduce(0, +) / Double(max(xs.count, 1)), s[s.count / 2], s[min(s.count - 1, s.count * 95 / 100)])
        }
        let b = stats(bonded), p = stats(plain)
        return "FIGURE bonded reconnect (\(world), \(bonded.count) rounds), LE Connection Complete → ready: bonded mean \(ms(b.mean)) ms, "
            + "median \(ms(b.median)) ms, p95 \(ms(b.p95)) ms; without bond mean \(ms(p.mean)) ms, median \(ms(p.median)) ms; "
            + "encryption adds \(ms(b.mean - p.mean)) ms on average"
    }
    private let counts = Mutex(Counts())

    func snapshot() -> Counts { counts.withLock { $0 } }

    func makeSink() -> PacketTap.Sink {
        { record in self.count(record) }
    }

    private func count(_ record: CaptureRecord) {
            let b = record.packet.bytes
            switch record.packet.type {
            case .command where b.count >= 2 && b[b.startIndex] == 0x19 && b[b.startIndex + 1] == 0x20:
                counts.withLock { $0.encryptions += 1 }
            case .event where b.count >= 4 && b[b.startIndex] == 0x3E && (b[b.startIndex + 2] == 0x01 || b[b.startIndex + 2] == 0x0A)
                && b[b.startIndex + 3] == 0x00:
                counts.withLock { $0.connectionComplete = record.timestampMicros }
            case .acl where record.direction == .controllerToHost && b.count >= 13:
                // ATT Error Response (0x01) with Insufficient Authentication / Encryption / Key Size.
                let i = b.startIndex
                if b[i + 6] == 0x04, b[i + 7] == 0x00, b[i + 8] == 0x01, [0x05, 0x0C, 0x0F].contains(b[i + 12]) {
                    counts.withLock { $0.attSecurityErrors += 1 }
                }
            case .acl where record.direction == .hostToController && b.count >= 9:
                // ACL header (4), L2CAP header (4: length, CID 0x0006), then the SMP code.
                let i = b.startIndex
                if b[i + 6] == 0x06 && b[i + 7] == 0x00 && b[i + 8] == 0x01 { counts.withLock { $0.pairingRequests += 1 } }
            default:
                break
            }
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

/// A user who never answers: counts the questions and the ones let go by cancellation (the
/// agent contract: a prompt's task is cancelled when its link goes down or the Central closes).
final class UnansweredAgent: PairingAgent {
    struct Counts {
        var asked = 0
        var letGo = 0
    }

    private let state = Mutex(Counts())
    var counts: Counts { state.withLock { $0 } }

    func passkey(for peer: DeviceAddress) async -> UInt32? {
        state.withLock { $0.asked += 1 }
        try? await Task.sleep(for: .seconds(120))
        if Task.isCancelled { state.withLock { $0.letGo += 1 } }
        return nil
    }

    func display(passkey: UInt32, for peer: DeviceAddress) async {}
    func confirm(number: UInt32, for peer: DeviceAddress) async -> Bool { false }
}
