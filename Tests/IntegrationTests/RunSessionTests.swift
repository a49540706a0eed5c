import Foundation
import Testing

extension WorldIntegration {
    /// The run session end to end: what the world sends is what `rtstack --json` prints.
    @Suite("Run session")
    struct RunSession {
        @Test("1 Hz for 10 s: all three sensors ready at once, every notification printed once and decoded right")
        func oneHertz() async throws {
            try await sessionMatchesWorld(rate: 1, duration: 10)
        }

        @Test("50 Hz per sensor: nothing lost, nothing duplicated")
        func fiftyHertz() async throws {
            try await sessionMatchesWorld(rate: 50, duration: 6)
        }

        private func sessionMatchesWorld(rate: Int, duration: Int) async throws {
            let world = try await WorldProcess.start(["--rate", "\(rate)"])
            defer { world.stop() }
            let dir = try PackagePaths.temporaryDirectory("session")
            defer { try? FileManager.default.removeItem(at: dir) }

            let r = try await RtstackProcess.run(
                WorldIntegration.adapter(world) + ["--json", "--duration", "\(duration)", "--state-dir", dir.path],
                timeout: Double(duration) + 20)
            #expect(r.status == 0, "\(r.transcript)")
            #expect(r.elapsed < Double(duration) + 5, "the session outlived --duration \(duration) by too much: \(r.elapsed) s")
            #expect(r.allReadyAtOnce(SessionRole.allCases), "the three sensors were never ready at the same time")
            let summary = try #require(r.summary, "no summary line\n\(r.transcript)")
            #expect(r.notices.isEmpty, "notices: \(r.notices)")
            #expect(summary["malformed"]?.int == 0)

            // The world logs `disconnected` after the notifications it sent on that link.
            try await world.wait("three host disconnections", timeout: 5) { e in
                e.filter { $0["event"]?.string == "disconnected" }.count >= 3
            }
            try checkStreams(r, world, rate: rate, duration: duration, summary: summary)
        }

        private func checkStreams(_ r: RtstackResult, _ world: WorldProcess, rate: Int, duration: Int,
                                  summary: JSONValue) throws {
            // In flight at the stop edge: the notifications the world sent while Disconnect was
            // on its way (one at 1 Hz, a few at 50 Hz).
            let stopEdge = 1 + rate / 10
            for role in SessionRole.allCases {
                let device = try #require(world.devices.first { $0.kind == role.worldKind })
                let sent = world.notifications(device: device.name, uuid: role.worldUUID)
                let got = r.measurements(role)
                let context = "\(role.rawValue) (\(device.name))"

                // At least most of the session's seconds at this rate (connection takes < 1 s).
                #expect(got.count >= (duration - 2) * rate, "\(context): only \(got.count) measurements")
                #expect(summary["measurements"]?[role.rawValue]?.int == got.count, "\(context): summary count")
                #expect(got.allSatisfy { $0["address"]?.string == device.address + "/random" }, "\(context): wrong address")

                let a = StreamAlignment.align(received: got, sent: sent, role: role)
                #expect(a.unmatched.isEmpty, "\(context): measurements that are not what the world sent next: \(a)")
                #expect(a.leadingMissed <= 1, "\(context): notifications missed after ready: \(a)")
                #expect(a.gaps.isEmpty, "\(context): notifications lost mid-session: \(a)")
                #expect(a.trailingMissed <= stopEdge, "\(context): notifications lost before the stop: \(a)")
                // Those not printed at the end were sent just before the link went down.
                if let down = world.events("disconnected").first(where: { $0["peer"]?.string == device.address })?["t"]?.double {
                    for n in sent.suffix(a.trailingMissed) {
                        #expect(n.time > down - 0.5, "\(context): seq \(n.seq) sent \(down - n.time) s before the disconnection was not printed")
                    }
                }
                // The sequence counters: nothing duplicated, nothing reordered.
                let counter = role == .heart ? "energy_kj" : role == .speed ? "distance_m" : nil
                if let counter {
                    let values = got.compactMap { $0[counter]?.double }
                    #expect(values.count == got.count, "\(context): \(counter) missing")
                    let steps = zip(values, values.dropFirst()).map { $1 - $0 }
                    #expect(steps.allSatisfy { abs($0 - 1) < 1e-9 }, "\(context): \(counter) does not count up by one: \(values)")
                }
            }
        }
    }
}
