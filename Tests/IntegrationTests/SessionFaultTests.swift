import Foundation
import Testing

extension WorldIntegration {
    /// The run session when the world misbehaves: links dropped, sensors late, peers that
    /// stall or refuse.
    @Suite("Run session faults")
    struct SessionFaults {
        @Test("A dropped link reconnects within 3 s and its measurements resume as one stream")
        func droppedLinkReconnects() async throws {
            let rate = 10
            let world = try await WorldProcess.start(["--rate", "\(rate)"])
            defer { world.stop() }
            let dir = try PackagePaths.temporaryDirectory("drop")
            defer { try? FileManager.default.removeItem(at: dir) }
            let heart = try world.device("Heart 1")

            let rt = try RtstackProcess(WorldIntegration.adapter(world) + ["--json", "--duration", "8", "--state-dir", dir.path],
                                        timeout: 30)
            defer { rt.kill() }
            let flowing = await rt.wait(timeout: 10) { lines in
                lines.filter { $0["event"]?.string == "measurement" && $0["sensor"]?.string == "heart" }.count >= 10
            }
            #expect(flowing, "heart measurements did not start")
            try world.control(#"{"cmd":"drop","device":"Heart 1"}"#)
            let r = try await rt.finish()

            #expect(r.status == 0, "\(r.transcript)")
            let summary = try #require(r.summary, "no summary\n\(r.transcript)")
            #expect(summary["reconnections"]?["heart"]?.int == 1, "summary: \(summary)")
            #expect(summary["reconnections"]?["speed"]?.int == 0)

            // disconnected → connecting → … → ready again, within 3 s.
            let states = r.states(.heart)
            let drop = try #require(states.firstIndex { $0.state == "disconnected" }, "heart never went disconnected: \(states)")
            let after = Array(states[drop...])
            let readyAgain = try #require(after.firstIndex { $0.state == "ready" }, "heart never ready again: \(after)")
            #expect(after[1].state == "connecting", "after disconnected: \(after)")
            #expect(after[readyAgain].time - after[0].time <= 3.0,
                    "ready again \(after[readyAgain].time - after[0].time) s after the drop: \(after)")
            #expect(!after.dropFirst(readyAgain).dropLast().contains { $0.state == "disconnected" },
                    "heart went down again: \(after)")

            // One stream: energy counts up; at most the notification in flight at the drop is
            // missing; nothing twice.
            let got = r.measurements(.heart)
            let energy = got.compactMap { $0["energy_kj"]?.int }
            #expect(energy.count == got.count)
            let steps = zip(energy, energy.dropFirst()).map { $1 - $0 }
            #expect(steps.allSatisfy { $0 >= 1 }, "heart energy repeats or goes back: \(energy)")
            #expect(steps.filter { $0 != 1 }.count <= 1 && steps.allSatisfy { $0 <= 2 },
                    "heart energy skips more than the one in flight at the drop: \(energy)")
            let resumed = got.filter { ($0["time"]?.double ?? 0) > after[readyAgain].time }
            #expect(resumed.count >= 10, "only \(resumed.count) heart measurements after reconnecting")

            try await world.wait("the final disconnections", timeout: 5) { e in
                e.filter { $0["event"]?.string == "disconnected" }.count >= 4
            }
            let a = StreamAlignment.align(received: got, sent: world.notifications(device: heart.name, uuid: "2A37"), role: .heart)
            #expect(a.unmatched.isEmpty && a.leadingMissed <= 1 && a.missedInside <= 1 && a.trailingMissed <= 2, "heart vs world: \(a)")
            // The other links did not notice.
            let speed = StreamAlignment.align(received: r.measurements(.speed),
                                              sent: world.notifications(device: "Speed 1", uuid: "2A53"), role: .speed)
            #expect(speed.unmatched.isEmpty && speed.gaps.isEmpty && speed.trailingMissed <= 2, "speed vs world: \(speed)")
        }

        /// One 34 s session for the three faults at discovery time, because the ATT timeout of
        /// a stalled peer is 30 s (Core Spec v5.4 Vol 3, Part F, §3.3.3):
        /// - Heart 1 ignores every ATT request from the start (`stall`);
        /// - Speed 1 answers reads and writes of 0x2A53 and its CCCD with Insufficient
        ///   Authentication (`att_error` 0x05);
        /// - the Thingy appears only after a few seconds (`--environment 0`, then `add`).
        @Test("Stalled peer, ATT error on the CCCD, late sensor: named errors, the late one is used, clean end")
        func faultsAtDiscovery() async throws {
            let world = try await WorldProcess.start(["--environment", "0", "--rate", "5"])
            defer { world.stop() }
            let dir = try PackagePaths.temporaryDirectory("faults")
            defer { try? FileManager.default.removeItem(at: dir) }
            try world.control(#"{"cmd":"stall","device":"Heart 1","on":true}"#)
            try world.control(#"{"cmd":"att_error","device":"Speed 1","uuid":"2A53","error":5}"#)

            let duration = 34.0
            let rt = try RtstackProcess(WorldIntegration.adapter(world) + ["--json", "--duration", "34", "--state-dir", dir.path],
                                        timeout: duration + 20)
            defer { rt.kill() }
            let speedSettled = await rt.wait(timeout: 10) { lines in
                lines.contains { $0["event"]?.string == "state" && $0["sensor"]?.string == "speed" && $0["state"]?.string == "ready" }
            }
            #expect(speedSettled, "the speed sensor's plan did not finish")
            try await Task.sleep(for: .seconds(2))
            let added = try world.control(#"{"cmd":"add","kind":"environment"}"#)
            let thingy = try #require(added["device"]?["name"]?.string)
            let addedAt = rt.elapsed
            let picked = await rt.wait(timeout: 8) { lines in
                lines.contains { $0["event"]?.string == "measurement" && $0["sensor"]?.string == "environment" }
            }
            #expect(picked, "the late Thingy was not picked up within 8 s")
            let r = try await rt.finish()

            #expect(r.status == 0, "\(r.transcript)")
            #expect(r.elapsed < duration + 5, "the session did not end by --duration: \(r.elapsed) s")
            let summary = try #require(r.summary, "no summary\n\(r.transcript)")

            // The late sensor: looked for from the start, then connected and read.
            let env = r.states(.environment)
            #expect(env.first?.state == "scanning")
            let envReady = try #require(env.first { $0.state == "ready" }, "environment never ready: \(env)")
            #expect(envReady.time > addedAt - 1, "environment ready before it existed?")
            try await world.wait("the final disconnections", timeout: 5) { e in
                e.filter { $0["event"]?.string == "disconnected" }.count >= 3
            }
            let envStream = StreamAlignment.align(received: r.measurements(.environment),
                                                  sent: world.notifications(device: thingy, uuid: SessionRole.environment.worldUUID),
                                                  role: .environment)
            #expect(envStream.receivedCount >= 20 && envStream.unmatched.isEmpty && envStream.gaps.isEmpty
                    && envStream.leadingMissed <= 1 && envStream.trailingMissed <= 2, "environment vs world: \(envStream)")

            // The ATT error is named, and the session says the sensor gives no readings.
            #expect(r.measurements(.speed).isEmpty)
            #expect(r.stderr.contains("Insufficient Authentication"), "stderr: \(r.stderr)")
            #expect(r.notices.contains { $0.contains("speed") && $0.contains("2A53") }, "no notice about the speed subscription: \(r.notices)")

            // The stalled peer: never ready; after 30 s the ATT timeout is named, the link is
            // given up and made again.
            let heart = r.states(.heart)
            #expect(!heart.contains { $0.state == "ready" }, "a stalled peer cannot be ready: \(heart)")
            #expect(r.measurements(.heart).isEmpty)
            #expect(r.stderr.contains("no response within 30 s"), "the ATT timeout is not named: \(r.stderr)")
            let down = try #require(heart.first { $0.state == "disconnected" }, "heart link never given up: \(heart)")
            #expect(down.time > 29 && down.time < 33, "heart link given up at \(down.time) s")
            #expect(heart.last?.state == "disconnected")
            #expect(summary["measurements"]?["heart"]?.int == 0)
        }
    }
}
