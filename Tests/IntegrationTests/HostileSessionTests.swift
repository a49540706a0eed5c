import Foundation
import Testing

extension WorldIntegration {
    /// The run session with one hostile heart next to good sensors: the good ones stream as
    /// if nothing happened.
    @Suite("Hostile peer: run session")
    struct HostileSession {
        @Test("A heart whose discovery never advances is given up with the violation named; speed and Thingy stream in full")
        func stuckDiscoveryNextToGoodSensors() async throws {
            let world = try await WorldProcess.start(["--rate", "10", "--hostile", "stuck_find_information"])
            defer { world.stop() }
            let dir = try PackagePaths.temporaryDirectory("hostile-stuck")
            defer { try? FileManager.default.removeItem(at: dir) }
            let r = try await RtstackProcess.run(WorldIntegration.adapter(world)
                                                 + ["--json", "--duration", "5", "--state-dir", dir.path], timeout: 25)
            #expect(r.status == 0, "\(r.transcript)")
            #expect(r.elapsed < 10, "the session outlived --duration: \(r.elapsed) s")
            let summary = try #require(r.summary, "no summary\n\(r.transcript)")

            // The plan cannot reach ready: the host names the violation and disconnects.
            let heart = r.states(.heart)
            #expect(!heart.contains { $0.state == "ready" }, "heart: \(heart)")
            #expect(heart.contains { $0.state == "disconnected" }, "the heart link was kept: \(heart)")
            #expect(r.stderr.contains("peer broke the protocol: Find Information Response"), "stderr: \(r.stderr)")
            #expect(r.measurements(.heart).isEmpty)
            // Bounded: one repeat per connection, connections limited by the reconnect backoff.
            let repeats = world.events("hostile").filter { $0["behaviour"]?.string == "stuck_find_information" }.count
            let connections = world.events("peripheral_connected").filter { $0["device"]?.string == "Heart 1" }.count
            #expect(connections >= 1 && repeats <= connections, "\(repeats) repeats over \(connections) connections")

            try await world.wait("the final disconnections", timeout: 5) { e in
                e.filter { $0["event"]?.string == "disconnected" }.count >= 2 + connections
            }
            try expectGoodStreams(r, world, summary: summary)
        }

        @Test("A heart sending broken L2CAP frames, stray notifications and a parameter-update flood still streams exactly, as do the others")
        func noisyHeartNextToGoodSensors() async throws {
            let world = try await WorldProcess.start(["--rate", "10", "--hostile", "l2cap_short,notify_unknown"])
            defer { world.stop() }
            let dir = try PackagePaths.temporaryDirectory("hostile-noisy")
            defer { try? FileManager.default.removeItem(at: dir) }
            let rt = try RtstackProcess(WorldIntegration.adapter(world) + ["--json", "--duration", "5", "--state-dir", dir.path],
                                        timeout: 25)
            defer { rt.kill() }
            let flowing = await rt.wait(timeout: 10) { lines in
                lines.filter { $0["event"]?.string == "measurement" && $0["sensor"]?.string == "heart" }.count >= 5
            }
            #expect(flowing, "heart measurements did not start")
            try world.control(#"{"cmd":"param_flood","device":"Heart 1","count":50}"#)
            let r = try await rt.finish()
            #expect(r.status == 0, "\(r.transcript)")
            let summary = try #require(r.summary, "no summary\n\(r.transcript)")
            #expect(r.allReadyAtOnce(SessionRole.allCases), "the three sensors were never ready at the same time")
            #expect(summary["malformed"]?.int == 0, "\(summary)")
            #expect(summary["reconnections"]?["heart"]?.int == 0, "\(summary)")
            #expect(r.stderr.contains("new start while a frame was incomplete"), "stderr: \(r.stderr)")
            try await world.wait("50 parameter update responses", timeout: 3) { e in
                e.filter { $0["event"]?.string == "hostile_update_response" }.count >= 50
            }

            try await world.wait("the final disconnections", timeout: 5) { e in
                e.filter { $0["event"]?.string == "disconnected" }.count >= 3
            }
            let heart = StreamAlignment.align(received: r.measurements(.heart),
                                              sent: world.notifications(device: "Heart 1", uuid: "2A37"), role: .heart)
            #expect(heart.receivedCount >= 30 && heart.unmatched.isEmpty && heart.gaps.isEmpty
                    && heart.leadingMissed <= 1 && heart.trailingMissed <= 2, "heart vs world: \(heart)")
            try expectGoodStreams(r, world, summary: summary)
        }

        /// Speed 1 and Thingy 1: every notification sent while the link was up was printed,
        /// once, in order.
        private func expectGoodStreams(_ r: RtstackResult, _ world: WorldProcess, summary: JSONValue) throws {
            for role in [SessionRole.speed, .environment] {
                let device = try #require(world.devices.first { $0.kind == role.worldKind })
                let a = StreamAlignment.align(received: r.measurements(role),
                                              sent: world.notifications(device: device.name, uuid: role.worldUUID), role: role)
                #expect(a.receivedCount >= 30 && a.unmatched.isEmpty && a.gaps.isEmpty && a.leadingMissed <= 1
                        && a.trailingMissed <= 2, "\(role.rawValue) vs world: \(a)")
                #expect(summary["reconnections"]?[role.rawValue]?.int == 0, "\(summary)")
            }
        }
    }
}
