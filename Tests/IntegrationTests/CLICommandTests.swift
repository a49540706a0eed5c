import Foundation
import Sensors
import Testing
import Wire

extension WorldIntegration {
    /// The one-shot commands built on the async API: `info`, `scan`, `gatt`, `read`, `write`,
    /// `subscribe`.
    @Suite("CLI commands")
    struct CLICommands {
        @Test("info shows the controller's version and public address; the own address stays the one in the state directory")
        func info() async throws {
            let world = try await WorldProcess.start(["--heart", "0", "--speed", "0", "--environment", "0", "--distractors", "0"])
            defer { world.stop() }
            let dir = try PackagePaths.temporaryDirectory("info")
            defer { try? FileManager.default.removeItem(at: dir) }
            let args = ["info"] + WorldIntegration.adapter(world) + ["--state-dir", dir.path]

            let first = try await RtstackProcess.run(args, timeout: 20)
            #expect(first.status == 0, "\(first.transcript)")
            let text = first.stdout.joined(separator: "\n")
            // Bumble's controller reports HCI 5.0 (0x09) and manufacturer 0xFFFF.
            #expect(text.contains("HCI version:    5.0 (0x9)"), "\(text)")
            #expect(text.contains("0xFFFF"), "\(text)")
            #expect(text.contains("public address: \(world.hostAddress)"), "\(text)")
            #expect(text.contains("ACL buffers:    64 x 27 bytes"), "\(text)")
            let own = try #require(first.stdout.first { $0.hasPrefix("own address:") }, "\(text)")
            #expect(own.contains("/random (random static)"), "\(own)")

            let second = try await RtstackProcess.run(args, timeout: 20)
            #expect(second.stdout.first { $0.hasPrefix("own address:") } == own, "the own address changed between runs")
        }

        @Test("scan --json lists the sensors with their services; --device keeps one")
        func scan() async throws {
            let world = try await WorldProcess.start()
            defer { world.stop() }
            let dir = try PackagePaths.temporaryDirectory("scan")
            defer { try? FileManager.default.removeItem(at: dir) }
            let base = ["scan"] + WorldIntegration.adapter(world) + ["--state-dir", dir.path, "--json", "--duration", "1.5"]

            let all = try await RtstackProcess.run(base, timeout: 20)
            #expect(all.status == 0, "\(all.transcript)")
            let devices = all.events("device")
            func last(_ address: String) -> JSONValue? { devices.last { $0["address"]?.string == address + "/random" } }
            for (name, service) in [("Heart 1", "180D"), ("Speed 1", "1814"), ("Thingy 1", "EF680100-9B35-4933-9B10-52FFA9740042")] {
                let d = try world.device(name)
                let seen = try #require(last(d.address), "\(name) not listed:\n\(all.transcript)")
                #expect(seen["services"]?.array?.compactMap(\.string).contains(service) == true, "\(name): \(seen)")
                #expect(seen["name"]?.string == d.localName, "\(name): \(seen)")
                #expect(seen["connectable"]?.bool == true)
            }
            let beacon = try #require(last(try world.device("Distractor 2").address), "the beacon is not listed")
            #expect(beacon["connectable"]?.bool == false)

            let heart = try world.device("Heart 1")
            let one = try await RtstackProcess.run(base + ["--device", heart.address], timeout: 20)
            #expect(one.status == 0, "\(one.transcript)")
            let addresses = Set(one.events("device").compactMap { $0["address"]?.string })
            #expect(addresses == [heart.address + "/random"], "\(one.transcript)")
        }

        @Test("gatt lists the Heart Rate service with 0x2A37 and its CCCD, as text and as JSON")
        func gatt() async throws {
            let world = try await WorldProcess.start(["--speed", "0", "--environment", "0", "--distractors", "0"])
            defer { world.stop() }
            let dir = try PackagePaths.temporaryDirectory("gatt")
            defer { try? FileManager.default.removeItem(at: dir) }
            let heart = try world.device("Heart 1")
            let base = ["gatt", heart.address + "/random"] + WorldIntegration.adapter(world) + ["--state-dir", dir.path]

            let text = try await RtstackProcess.run(base, timeout: 20)
            #expect(text.status == 0, "\(text.transcript)")
            let lines = text.stdout
            let service = try #require(lines.firstIndex { $0.hasPrefix("service ") && $0.contains("Heart Rate (180D)") }, "\(text.transcript)")
            let hrm = try #require(lines[service...].firstIndex { $0.contains("characteristic") && $0.contains("Heart Rate Measurement (2A37)") },
                                   "\(text.transcript)")
            #expect(lines[hrm].contains("Notify"))
            #expect(lines[hrm + 1].contains("descriptor") && lines[hrm + 1].contains("Client Characteristic Configuration (2902)"),
                    "\(lines[hrm...].prefix(2))")
            #expect(lines.contains { $0.contains("Body Sensor Location (2A38)") })
            #expect(lines.contains { $0.contains("= Chest") })
            #expect(lines.contains { $0.contains("\"rtstack test world\"") })

            let json = try await RtstackProcess.run(base + ["--json"], timeout: 20)
            #expect(json.status == 0, "\(json.transcript)")
            let db = try #require(json.events.first, "\(json.transcript)")
            let hr = try #require(db["services"]?.array?.first { $0["uuid"]?.string == "180D" }, "\(db)")
            let c = try #require(hr["characteristics"]?.array?.first { $0["uuid"]?.string == "2A37" }, "\(hr)")
            #expect(c["properties"]?.int == 0x10)
            let cccd = try #require(c["descriptors"]?.array?.first { $0["uuid"]?.string == "2902" }, "\(c)")
            #expect(cccd["handle"]?.int == (c["handle"]?.int).map { $0 + 1 })
        }

        @Test("read 2A38 gives 01 (Chest); with an ATT error injected it exits 1 naming Read Not Permitted; write reaches the control point")
        func readAndWrite() async throws {
            let world = try await WorldProcess.start(["--speed", "0", "--environment", "0", "--distractors", "0"])
            defer { world.stop() }
            let dir = try PackagePaths.temporaryDirectory("read")
            defer { try? FileManager.default.removeItem(at: dir) }
            let heart = try world.device("Heart 1")
            let adapter = WorldIntegration.adapter(world) + ["--state-dir", dir.path]
            let target = heart.address + "/random"

            let text = try await RtstackProcess.run(["read", target, "2A38"] + adapter, timeout: 20)
            #expect(text.status == 0, "\(text.transcript)")
            #expect(text.stdout.first?.hasSuffix(": 01  = Chest") == true, "\(text.transcript)")
            // Without the address type: learned from advertising. By handle, as JSON.
            let json = try await RtstackProcess.run(["read", heart.address, "0x0013", "--json"] + adapter, timeout: 20)
            #expect(json.status == 0, "\(json.transcript)")
            #expect(json.events.first?["value"]?.string == "01", "\(json.transcript)")

            // Core Spec v5.4 Vol 3, Part F, §3.4.1.1: 0x02 Read Not Permitted.
            try world.control(#"{"cmd":"att_error","device":"Heart 1","uuid":"2A38","error":2}"#)
            let refused = try await RtstackProcess.run(["read", target, "2A38"] + adapter, timeout: 20)
            #expect(refused.status == 1, "\(refused.transcript)")
            #expect(refused.stdout.isEmpty, "\(refused.transcript)")
            #expect(refused.stderr.contains("Read Not Permitted (0x02)"), "\(refused.transcript)")
            #expect(refused.stderr.components(separatedBy: "Read Not Permitted").count == 2, "the error is printed more than once: \(refused.stderr)")
            #expect(world.events("att_error_sent").contains { $0["device"]?.string == "Heart 1" })

            // Heart Rate Control Point: 0x01 resets Energy Expended; anything else is answered
            // with 0x80 (HRS 1.0, §3.3.1).
            let reset = try await RtstackProcess.run(["write", target, "2A39", "01"] + adapter, timeout: 20)
            #expect(reset.status == 0, "\(reset.transcript)")
            try await world.wait("the control point write", timeout: 5) { e in e.contains { $0["event"]?.string == "hr_control_point" } }
            let wrong = try await RtstackProcess.run(["write", target, "2A39", "05"] + adapter, timeout: 20)
            #expect(wrong.status == 1, "\(wrong.transcript)")
            #expect(wrong.stderr.contains("0x80"), "\(wrong.transcript)")
        }

        @Test("subscribe 2A37 --duration 3 --json prints the world's heart-rate values, decoded")
        func subscribe() async throws {
            let world = try await WorldProcess.start(["--speed", "0", "--environment", "0", "--distractors", "0", "--rate", "5"])
            defer { world.stop() }
            let dir = try PackagePaths.temporaryDirectory("subscribe")
            defer { try? FileManager.default.removeItem(at: dir) }
            let heart = try world.device("Heart 1")

            let r = try await RtstackProcess.run(["subscribe", heart.address + "/random", "2A37", "--duration", "3", "--json"]
                                                 + WorldIntegration.adapter(world) + ["--state-dir", dir.path], timeout: 20)
            #expect(r.status == 0, "\(r.transcript)")
            #expect(r.elapsed < 8, "subscribe --duration 3 took \(r.elapsed) s")
            let values = r.events.filter { $0["uuid"]?.string == "2A37" }
            #expect(values.count >= 10, "\(r.transcript)")
            try await world.wait("the disconnection", timeout: 5) { e in e.contains { $0["event"]?.string == "disconnected" } }
            let sent = world.notifications(device: heart.name, uuid: "2A37")
            #expect(values.count <= sent.count && sent.count - values.count <= 1, "printed \(values.count), the world sent \(sent.count)")
            for (v, n) in zip(values, sent) {
                #expect(v["value"]?.string == HexText.string(n.value), "seq \(n.seq): \(v)")
                let m = try HeartRateMeasurement(decoding: n.value)
                #expect(v["decoded"]?.string == m.summary, "seq \(n.seq): \(v)")
                #expect(v["decoded"]?.string?.hasPrefix("\(m.heartRate) bpm") == true)
            }
        }
    }
}
