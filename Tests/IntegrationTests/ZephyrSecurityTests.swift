import Foundation
import HostCore
import Runtime
import Testing
import TestSupport
import Wire

extension ZephyrIntegration {
    /// Pairing against a peer nobody here wrote, over a real link layer with real AES-CCM:
    /// Zephyr 2.5's Secure-Connections-only sample (`sc_only`, README of ../shared/bsim). It
    /// sends a Security Request on connection, needs security level 4 (LE Secure Connections,
    /// Passkey Entry) and shows its passkey in its log, where the tests read it as a user
    /// reads a display. Before rtstack paired, it answered that request with Pairing Not
    /// Supported and the peripheral dropped the link (Authentication Failure) mid-discovery.
    @Suite("Zephyr: security (sc_only)")
    struct Security {
        @Test("rtstack pair: Passkey Entry with the passkey sc_only shows, security fips; then gatt on the bond: encrypted again, no second passkey, no disconnection")
        func pairThenUseTheBond() async throws {
            try await withWorld(["sc_only"], label: "pair") { world, dir in
                let shownBefore = Self.passkeys(world).count
                let p = try RtstackProcess(["pair", secureAddress, "--passkey", "-", "--security", "high"] + world.adapter
                                           + ["--state-dir", dir.path], timeout: 60, stdin: true)
                let passkey = try await Self.nextPasskey(world, after: shownBefore)
                p.send(passkey)
                let r = try await p.finish()
                #expect(r.status == 0, "\(r.transcript)\n\(world.log("sc_only"))")
                #expect(r.stdout.first?.contains("by Passkey Entry (peer displays) (LE Secure Connections), security fips, key size 16, bonded") == true,
                        "\(r.transcript)")
                #expect(world.log("sc_only").contains("Pairing Complete"))
                if let took = r.stdout.first(where: { $0.hasPrefix("pairing took ") }) {
                    print("FIGURE pairing time (Zephyr link layer, sc_only, Passkey Entry (peer displays) (LE Secure Connections), passkey read from stdin): \(took.dropFirst("pairing took ".count))")
                } else {
                    Issue.record("no pairing time in \(r.transcript)")
                }

                let gatt = try await rtstack(["gatt", secureAddress, "--log-level", "info"], world, dir, timeout: 40)
                #expect(gatt.status == 0, "\(gatt.transcript)\n\(world.log("sc_only"))")
                #expect(gatt.stdout.contains { $0.contains("SC only peripheral") }, "\(gatt.transcript)")
                #expect(Self.passkeys(world).count == shownBefore + 1, "asked for a passkey again: \(world.log("sc_only"))")
                let levels = world.log("sc_only").components(separatedBy: "\n").filter { $0.contains("Security changed") }
                #expect(levels.count == 2 && levels.allSatisfy { $0.hasSuffix("level 4") }, "\(levels)")
                #expect(!world.log("sc_only").contains("Disconnecting"), "\(world.log("sc_only"))")
            }
        }

        @Test("without a passkey rtstack cannot reach level 4: sc_only's Just Works is refused by the peer, named, exit 1")
        func noPasskeyNoLevelFour() async throws {
            try await withWorld(["sc_only"], label: "nopasskey") { world, dir in
                let r = try await rtstack(["pair", secureAddress], world, dir, timeout: 40)
                #expect(r.status == 1, "\(r.transcript)")
                #expect(r.stderr.contains("pairing failed") || r.stderr.contains("disconnected"), "\(r.transcript)")
            }
        }

        @Test("bonded reconnection to sc_only, 100 of 100: the link layer encrypts with the bond (level 4), no pairing; figure: what it adds to connect-to-ready against hr without a bond")
        func bondedReconnectLoop() async throws {
            try await withWorld(["sc_only", "hr"], label: "reconnect") { world, dir in
                let state = StateDirectory(path: dir.path)
                var configuration = HostConfiguration(ownAddress: .randomStatic(state.ownRandomStaticAddress()))
                configuration.security = SecuritySetup.settings(level: .low, ioCapability: .keyboardOnly, state: state,
                                                                identityAddress: nil)
                let recorder = SecurityRecorder()
                let agent = LogPasskeyAgent(world: world, shownBefore: Self.passkeys(world).count)
                let settings = configuration
                let adapter = AdapterSpec.serial(path: world.hciPTY, baudRate: 1_000_000, flowControl: true)
                let central = try await withTimeout(20, "Central.open") {
                    try await Central.open(adapter, configuration: settings, agent: agent,
                                           bondStore: FileBondStore(directory: state), sinks: [recorder])
                }
                let secure = try DeviceAddress(parsing: secureAddress, defaultType: nil)
                let plain = try DeviceAddress(parsing: heartAddress, defaultType: nil)
                var plan = LinkPlan()
                plan.discover = false
                plan.mtu = nil
                plan.connectTimeout = HostDuration.seconds(10)
                var failures: [String] = []
                var bonded: [Double] = []
                var unbonded: [Double] = []
                do {
                    let first = try await central.connect(to: secure, plan: plan)
                    let status = try await first.secure(SecurityNeed(level: .fips))
                    #expect(status.level == .fips, "\(status)")
                    await first.disconnect()
                    let rounds = 100
                    for i in 0..<rounds {
                        let before = recorder.snapshot()
                        let p = try await central.connect(to: secure, plan: plan)
                        let after = recorder.snapshot()
                        bonded.append(after.sinceConnectionComplete())
                        if after.encryptions != before.encryptions + 1 || after.pairingRequests != before.pairingRequests {
                            failures.append("round \(i): \(after.encryptions - before.encryptions) encryption(s), \(after.pairingRequests - before.pairingRequests) Pairing Request(s)")
                        }
                        await p.disconnect()
                        if i % 5 == 0 {
                            let q = try await central.connect(to: plain, plan: plan)
                            unbonded.append(recorder.snapshot().sinceConnectionComplete())
                            await q.disconnect()
                        }
                    }
                } catch {
                    await central.close()
                    throw IntegrationFailure("\(error); the end of sc_only's log:\n\(world.log("sc_only").suffix(2000))")
                }
                await central.close()
                #expect(failures.isEmpty, "\(failures.prefix(5))")
                #expect(Self.passkeys(world).count == 1, "sc_only showed a passkey again")
                let changed = world.log("sc_only").components(separatedBy: "\n").filter { $0.contains("Security changed") }
                #expect(changed.count == 101 && changed.allSatisfy { $0.hasSuffix("level 4") }, "\(changed.count) security changes")
                print(SecurityRecorder.figure("Zephyr link layer, sc_only vs hr", bonded: bonded, plain: unbonded))
            }
        }

        // MARK: Reading sc_only's display

        static func passkeys(_ world: BsimWorld) -> [String] {
            world.log("sc_only").components(separatedBy: "\n").filter { $0.contains("Passkey for") }
        }

        /// The six digits of the first "Passkey for …: NNNNNN" line after the first `after`.
        static func nextPasskey(_ world: BsimWorld, after count: Int, timeout: Double = 30) async throws -> String {
            let found = await poll(for: timeout) { () -> String? in
                let lines = passkeys(world)
                if lines.count > count, let digits = lines[count].split(separator: " ").last, digits.count == 6 {
                    return String(digits)
                }
                return nil
            }
            if let found { return found }
            throw IntegrationFailure("sc_only showed no passkey within \(timeout) s:\n\(world.log("sc_only"))")
        }
    }
}

/// The user of the in-process tests: types the passkey sc_only shows in its log.
struct LogPasskeyAgent: PairingAgent {
    let world: BsimWorld
    let shownBefore: Int

    func passkey(for peer: DeviceAddress) async -> UInt32? {
        guard let text = try? await ZephyrIntegration.Security.nextPasskey(world, after: shownBefore) else { return nil }
        return UInt32(text)
    }

    func display(passkey: UInt32, for peer: DeviceAddress) async {}
    func confirm(number: UInt32, for peer: DeviceAddress) async -> Bool { false }
}

