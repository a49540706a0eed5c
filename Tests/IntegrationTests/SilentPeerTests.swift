import Foundation
import Testing

extension WorldIntegration {
    /// A peer whose link comes up but whose ATT never answers (issue 10, item 4).
    @Suite("Silent peer")
    struct SilentPeer {
        /// The one test that waits out the ATT transaction timeout (30 s, Core Spec v5.4 Vol 3,
        /// Part F, §3.3.3) and the reconnection after it: 34 s of session.
        @Test("A silent heart: its ATT times out after 30 s, the link is closed and made again after the backoff, and speed and Thingy stream the whole time")
        func silentHeartNextToGoodSensors() async throws {
            let rate = 5, duration = 34
            let world = try await WorldProcess.start(["--rate", "\(rate)", "--hostile", "silent"])
            defer { world.stop() }
            let dir = try PackagePaths.temporaryDirectory("silent")
            defer { try? FileManager.default.removeItem(at: dir) }
            let heart = try world.device("Heart 1")

            let r = try await RtstackProcess.run(WorldIntegration.adapter(world)
                                                 + ["--json", "--duration", "\(duration)", "--state-dir", dir.path],
                                                 timeout: Double(duration) + 20)
            #expect(r.status == 0, "\(r.transcript)")
            #expect(r.elapsed < Double(duration) + 5, "the session outlived --duration: \(r.elapsed) s")
            try await world.wait("the final disconnections", timeout: 5) { e in
                e.filter { $0["event"]?.string == "disconnected" }.count >= 4
            }

            // The world's own clock: the first request it dropped, the host's disconnection of
            // that link, and the next connection attempt.
            let silent = world.events("hostile").filter { $0["behaviour"]?.string == "silent" }
            let firstRequest = try #require(silent.first?["t"]?.double, "the heart was never asked anything: \(world.events)")
            #expect(silent.first?["opcode"]?.string == "0x02", "the first request was not Exchange MTU: \(silent)")
            let hostLinks = world.events.filter { $0["peer"]?.string == heart.address && $0["controller"]?.string == "host" }
            let closed = try #require(hostLinks.first { $0["event"]?.string == "disconnected" }, "the silent link was never closed: \(hostLinks)")
            let closedAt = closed["t"]?.double ?? 0
            #expect(closed["by"]?.string == "host", "\(closed)")
            #expect(closedAt - firstRequest >= 29.9 && closedAt - firstRequest <= 31,
                    "closed \(closedAt - firstRequest) s after the unanswered request (the ATT timeout is 30 s)")
            #expect(r.stderr.contains("no response within 30 s"), "the ATT timeout is not named: \(r.stderr)")

            // Made again, after at least the reconnect policy's first delay (250 ms), and met
            // the same silence.
            let retry = try #require(hostLinks.first { $0["event"]?.string == "connecting" && ($0["t"]?.double ?? 0) > closedAt },
                                     "no new connection attempt after the timeout: \(hostLinks)")
            let retryDelay = (retry["t"]?.double ?? 0) - closedAt
            #expect(retryDelay >= 0.24 && retryDelay < 5, "reconnected \(retryDelay) s after closing")
            #expect(world.events("peripheral_connected").filter { $0["device"]?.string == heart.name }.count == 2)
            #expect(silent.count >= 2 && (silent.last?["t"]?.double ?? 0) > closedAt, "the second link was not asked: \(silent)")
            let states = r.states(.heart)
            #expect(!states.contains { $0.state == "ready" } && r.measurements(.heart).isEmpty, "heart: \(states)")
            let down = try #require(states.firstIndex { $0.state == "disconnected" }, "heart: \(states)")
            #expect(states[(down + 1)...].prefix(2).map(\.state) == ["connecting", "connected"], "after the timeout: \(states)")

            // Speed and Thingy: every notification the world sent while their links were up was
            // printed, once, in order, over the whole 34 s; their links never dropped.
            let summary = try #require(r.summary, "no summary\n\(r.transcript)")
            for role in [SessionRole.speed, .environment] {
                let device = try #require(world.devices.first { $0.kind == role.worldKind })
                let a = StreamAlignment.align(received: r.measurements(role),
                                              sent: world.notifications(device: device.name, uuid: role.worldUUID), role: role)
                #expect(a.receivedCount >= (duration - 2) * rate && a.unmatched.isEmpty && a.gaps.isEmpty
                        && a.leadingMissed <= 1 && a.trailingMissed <= 2, "\(role.rawValue) vs world: \(a)")
                #expect(r.states(role).filter { $0.state == "disconnected" }.count == 1, "\(role.rawValue): \(r.states(role))")
                #expect(summary["reconnections"]?[role.rawValue]?.int == 0, "\(summary)")
            }
        }
    }
}
