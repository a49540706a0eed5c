import Foundation
import Testing

extension WorldIntegration {
    /// `--capture` during a session, read back by `rtstack decode` and by tshark.
    @Suite("Session capture")
    struct SessionCapture {
        /// Keeps a capture a check failed on, for a look with tshark or `rtstack decode`.
        private func keep(_ capture: String) -> String {
            let kept = FileManager.default.temporaryDirectory.appendingPathComponent("rtstack-it-failed-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).btsnoop")
            return (try? FileManager.default.copyItem(at: URL(fileURLWithPath: capture), to: kept)) != nil ? "capture kept at \(kept.path)" : ""
        }

        @Test("--capture writes a btsnoop that rtstack decode and tshark read, with the notifications the session printed")
        func captureMatchesSession() async throws {
            let world = try await WorldProcess.start(["--rate", "10"])
            defer { world.stop() }
            let dir = try PackagePaths.temporaryDirectory("capture")
            defer { try? FileManager.default.removeItem(at: dir) }
            let capture = dir.appendingPathComponent("session.btsnoop").path

            let r = try await RtstackProcess.run(
                WorldIntegration.adapter(world) + ["--json", "--duration", "5", "--state-dir", dir.appendingPathComponent("state").path,
                                                   "--capture", capture],
                timeout: 25)
            #expect(r.status == 0, "\(r.transcript)")
            let printed = r.events("measurement").count
            #expect(printed >= 3 * 30, "only \(printed) measurements")

            // rtstack decode: no decode errors; the notifications per link are those printed,
            // plus at most the one in flight when the session stopped.
            let decoded = try await RtstackProcess.run(["decode", capture, "--json"], timeout: 30)
            #expect(decoded.status == 0, "\(decoded.transcript)")
            let summary = try #require(decoded.events.last { $0["summary"]?.bool == true }, "no decode summary\n\(decoded.transcript)")
            #expect(summary["decode_errors"]?.int == 0, "decode summary: \(summary)")
            let captured = try #require(summary["att_notifications"]?.int)
            #expect(captured >= printed && captured <= printed + 3, "captured \(captured) notifications, printed \(printed)")
            let links = summary["links"]?.array ?? []
            #expect(links.count == 3, "links: \(links)")
            for role in SessionRole.allCases {
                let device = try #require(world.devices.first { $0.kind == role.worldKind })
                let link = links.first { $0["peer"]?.string == device.address + "/random" }
                let n = link?["notifications"]?.int ?? -1
                let m = r.measurements(role).count
                #expect(n >= m && n <= m + 1, "\(role.rawValue): \(n) notifications captured, \(m) measurements printed")
            }

            // The same notifications, packet for packet, from both decoders: frame number,
            // connection handle, attribute handle. (tshark shows a value as `btatt.value` only
            // when it does not know the characteristic, so the values are compared with the
            // world's log instead, below.)
            let notifications = decoded.events.filter { $0["att"]?["opcode"]?.int == 0x1B }
            #expect(notifications.count == captured)
            let ours = notifications.map { n in
                "\(n["index"]?.int ?? -1) \(n["handle"]?.int ?? -1) \(n["att"]?["handle"]?.int ?? -1)"
            }
            let shark = try await RtstackProcess.runTool(
                "tshark", ["-r", capture, "-Y", "btatt.opcode == 0x1b", "-T", "fields",
                           "-e", "frame.number", "-e", "bthci_acl.chandle", "-e", "btatt.handle"], timeout: 60)
            #expect(shark.status == 0, "\(shark.transcript)")
            let theirs = shark.stdout.filter { !$0.isEmpty }.map { line in
                line.split(separator: "\t").map { f in
                    f.hasPrefix("0x") ? String(Int(f.dropFirst(2), radix: 16) ?? -1) : String(f)
                }.joined(separator: " ")
            }

            // What the file holds for each link is what the world sent to it, in order.
            try await world.wait("three host disconnections", timeout: 5) { e in
                e.filter { $0["event"]?.string == "disconnected" }.count >= 3
            }
            for role in SessionRole.allCases {
                let device = try #require(world.devices.first { $0.kind == role.worldKind })
                guard let handle = links.first(where: { $0["peer"]?.string == device.address + "/random" })?["handle"]?.int else { continue }
                let inFile = notifications.filter { $0["handle"]?.int == handle }.compactMap { $0["att"]?["value"]?.string }
                let sent = world.notifications(device: device.name, uuid: role.worldUUID).map { HexText.string($0.value) }
                #expect(inFile == Array(sent.prefix(inFile.count)) && sent.count - inFile.count <= 1,
                        "\(role.rawValue): the capture holds \(inFile.count) values, the world sent \(sent.count); first difference at \(zip(inFile, sent).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? -1)")
            }

            // tshark guesses which characteristic a handle is from the discovery of any link in
            // the file, so it may call a notification malformed (a heart value read as RSC,
            // Shared notes test-world.md §3); anything else malformed is a capture problem.
            let malformed = try await RtstackProcess.runTool(
                "tshark", ["-r", capture, "-Y", "_ws.malformed && !(btatt.opcode == 0x1b)"], timeout: 60)
            let bad = malformed.stdout.filter { !$0.isEmpty }
            #expect(theirs == ours, "tshark read \(theirs.count) notifications, rtstack decode \(ours.count): \(keep(capture))")
            #expect(malformed.status == 0 && bad.isEmpty, "tshark finds malformed packets: \(bad) \(keep(capture))")
        }
    }
}
