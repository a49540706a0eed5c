import Foundation
import Sensors
import Testing
import Wire

extension ZephyrIntegration {
    /// The one-shot commands over `serial:` against Zephyr's controller and peripherals.
    @Suite("Zephyr: CLI commands")
    struct CLICommands {
        @Test("info shows Zephyr's controller: HCI 5.2, The Linux Foundation, 7 ACL buffers of 27 bytes, accept list 8")
        func info() async throws {
            try await withWorld([], label: "info") { world, dir in
                let r = try await rtstack(["info"], world, dir, timeout: 20)
                #expect(r.status == 0, "\(r.transcript)")
                for line in ["adapter:        serial:\(world.hciPTY)@1000000",
                             "HCI version:    5.2 (0xb), revision 0x0000",
                             "manufacturer:   The Linux Foundation (0x05F1)",
                             // The simulated nRF52's FICR is zeroed (README of ../shared/bsim).
                             "public address: 00:00:00:00:00:00",
                             "LE features:    0x00000000000141FF",
                             "ACL buffers:    7 x 27 bytes",
                             "accept list:    8 entries"] {
                    #expect(r.stdout.contains(line), "no line '\(line)':\n\(r.transcript)")
                }
            }
        }

        @Test("scan (text, --json, --passive) lists hr, esp and sc_only with their names, services and RSSI -35 dBm")
        func scan() async throws {
            try await withWorld(["hr", "esp", "sc_only"], label: "scan") { world, dir in
                let json = try await rtstack(["scan", "--duration", "6", "--json"], world, dir, timeout: 20)
                #expect(json.status == 0, "\(json.transcript)")
                let devices = json.events("device")
                // The name comes in the scan response (the README's table), the services in the
                // advertisement.
                let expected: [(address: String, name: String, services: [String])] = [
                    (heartAddress, "Zephyr Heartrate Sensor", ["180D", "180F", "180A"]),
                    (environmentAddress, "ESP peripheral", ["181A", "180F"]),
                    (secureAddress, "SC only peripheral", []),
                ]
                for e in expected {
                    let lines = devices.filter { $0["address"]?.string == e.address }
                    #expect(!lines.isEmpty, "\(e.address) not listed:\n\(json.transcript)")
                    #expect(lines.allSatisfy { $0["rssi"]?.int == -35 }, "\(e.address): \(lines)")
                    #expect(lines.allSatisfy { $0["connectable"]?.bool == true }, "\(e.address): \(lines)")
                    #expect(lines.contains { $0["name"]?.string == e.name }, "\(e.address): no line with its name: \(lines)")
                    #expect(lines.allSatisfy { $0["services"]?.array?.compactMap(\.string) == e.services }, "\(e.address): \(lines)")
                }
                #expect(Set(devices.compactMap { $0["address"]?.string }).count == 3, "\(json.transcript)")

                let text = try await rtstack(["scan", "--duration", "6"], world, dir, timeout: 20)
                #expect(text.status == 0, "\(text.transcript)")
                let summary = try #require(text.stdout.firstIndex(of: "3 device(s):"), "\(text.transcript)")
                let rows = Array(text.stdout[(summary + 1)...])
                #expect(rows.count == 3, "\(rows)")
                for (row, e) in zip(rows, expected.sorted { $0.address < $1.address }) {
                    #expect(row.hasPrefix("\(e.address)  -35 dBm  \"\(e.name)\""), "\(row)")
                }
                #expect(rows.contains { $0.contains("Heart Rate (180D), Battery (180F), Device Information (180A)") }, "\(rows)")
                #expect(rows.contains { $0.contains("Environmental Sensing (181A), Battery (180F)") }, "\(rows)")

                // Passive: no scan requests, so no scan responses and no names.
                let passive = try await rtstack(["scan", "--duration", "6", "--json", "--passive"], world, dir, timeout: 20)
                #expect(passive.status == 0, "\(passive.transcript)")
                let quiet = passive.events("device")
                #expect(Set(quiet.compactMap { $0["address"]?.string }) == Set(expected.map(\.address)), "\(passive.transcript)")
                #expect(quiet.allSatisfy { $0["name"] == nil }, "a passive scan got a name: \(quiet)")
            }
        }

        @Test("A second rtstack on the same serial port is refused with exit 3 naming it; the first one's scan is undisturbed")
        func secondHostOnThePort() async throws {
            try await withWorld(["hr", "esp"], label: "two-hosts") { world, dir in
                // Long enough that the second host certainly starts while the first holds the
                // port, however slowly the simulation brings the first advertisement.
                let first = try RtstackProcess(["scan", "--duration", "20", "--json"] + world.adapter + ["--state-dir", dir.path], timeout: 45)
                defer { first.kill() }
                let scanning = await first.wait(timeout: 10) { $0.contains { $0["event"]?.string == "device" } }
                #expect(scanning, "the first scan saw nothing")
                if !first.isRunning {
                    // Say how it ended (a first full run saw it end, and the bare message hid why).
                    let r = try await first.finish()
                    Issue.record("the first scan ended before the second host started: \(r.transcript)")
                    return
                }
                let second = try await rtstack(["scan", "--duration", "1"], world, dir, timeout: 10)
                #expect(second.status == 3, "\(second.transcript)")
                #expect(second.stderr.contains("\(world.hciPTY) is in use"), "\(second.transcript)")
                let r = try await first.finish()
                #expect(r.status == 0, "\(r.transcript)")
                #expect(r.stderr.isEmpty, "the first host saw trouble: \(r.stderr)")
                let seen = Set(r.events("device").compactMap { $0["address"]?.string })
                #expect(seen == [heartAddress, environmentAddress], "\(r.transcript)")
            }
        }

        @Test("gatt of hr: GATT, GAP, Battery, Device Information and Heart Rate as Zephyr serves them, as text and as JSON")
        func gattHeart() async throws {
            try await withWorld(["hr"], label: "gatt-hr") { world, dir in
                let text = try await rtstack(["gatt", heartAddress], world, dir, timeout: 30)
                #expect(text.status == 0, "\(text.transcript)")
                let services = text.stdout.filter { $0.hasPrefix("service ") }
                #expect(services == [
                    "service 0x0001-0x0008 primary Generic Attribute (1801)",
                    "service 0x0009-0x000F primary Generic Access (1800)",
                    "service 0x0010-0x0013 primary Battery (180F)",
                    "service 0x0014-0x0018 primary Device Information (180A)",
                    "service 0x0019-0x0020 primary Heart Rate (180D)",
                ], "\(text.transcript)")
                let lines = text.stdout
                func after(_ prefix: String) -> [String] {
                    guard let i = lines.firstIndex(where: { $0.hasPrefix(prefix) }) else { return [] }
                    return Array(lines[i...].prefix(4))
                }
                let hrm = after("  characteristic 0x001B Heart Rate Measurement (2A37)")
                #expect(hrm.first?.hasSuffix("[0x10 (Notify)]") == true, "\(hrm)")
                #expect(hrm.dropFirst().first?.hasPrefix("    descriptor 0x001C Client Characteristic Configuration (2902)") == true, "\(hrm)")
                #expect(after("  characteristic 0x001E Body Sensor Location (2A38)").dropFirst().first == "    value: 01  = Chest", "\(text.transcript)")
                #expect(lines.contains("  characteristic 0x0020 Heart Rate Control Point (2A39) [0x08 (Write)]"), "\(text.transcript)")
                #expect(lines.contains("    value: 69 6e 66 5f 63 6c 6f 63 6b  = \"inf_clock\""), "Model Number")
                #expect(lines.contains("    value: 4d 61 6e 75 66 61 63 74 75 72 65 72  = \"Manufacturer\""), "Manufacturer Name")
                #expect(lines.contains { $0.hasSuffix("= \"Zephyr Heartrate Sensor\"") }, "Device Name")
                let battery = after("  characteristic 0x0012 Battery Level (2A19) [0x12 (Read, Notify)]")
                #expect(battery.dropFirst().first?.hasSuffix(" %") == true, "\(battery)")
                #expect(lines.last == "database hash: 2b0a5929b8ab3107613bdc655c47ad2f", "\(text.transcript)")

                let json = try await rtstack(["gatt", heartAddress, "--json"], world, dir, timeout: 30)
                #expect(json.status == 0, "\(json.transcript)")
                let db = try #require(json.events.first, "\(json.transcript)")
                let table = GATTTable(db)
                #expect(table.services == ["1801", "1800", "180F", "180A", "180D"], "\(db)")
                #expect(table.characteristic("180D", "2A37")?["properties"]?.int == 0x10)
                #expect(table.characteristic("180D", "2A37")?["handle"]?.int == 0x1B)
                #expect(table.descriptors("180D", "2A37") == ["2902"])
                #expect(table.characteristic("180D", "2A38")?["value"]?.string == "01")
                #expect(table.characteristic("180D", "2A39")?["properties"]?.int == 0x08)
                #expect(table.characteristic("180A", "2A24")?["value"]?.string == HexText.string(Array("inf_clock".utf8)))
                #expect(table.characteristic("180A", "2A29")?["value"]?.string == HexText.string(Array("Manufacturer".utf8)))
                #expect(table.characteristic("1801", "2B2A")?["value"]?.string == "2b0a5929b8ab3107613bdc655c47ad2f")
                let level = try #require(table.characteristic("180F", "2A19")?["value"]?.string.flatMap(HexText.bytes), "\(db)")
                #expect(level.count == 1 && (1...100).contains(level[0]), "battery \(level)")
            }
        }

        @Test("gatt of esp: two Temperatures and a Humidity with their ES descriptors; the descriptors' values read as Zephyr's sample sets them")
        func gattEnvironment() async throws {
            try await withWorld(["esp"], label: "gatt-esp") { world, dir in
                let json = try await rtstack(["gatt", environmentAddress, "--json"], world, dir, timeout: 40)
                #expect(json.status == 0, "\(json.transcript)")
                let db = try #require(json.events.first, "\(json.transcript)")
                let table = GATTTable(db)
                #expect(table.services == ["1801", "1800", "180F", "180A", "181A"], "\(db)")
                let ess = try #require(table.service("181A"))
                #expect(ess["start"]?.int == 0x19 && ess["end"]?.int == 0x2B, "\(ess)")
                let chars = ess["characteristics"]?.array ?? []
                #expect(chars.compactMap { $0["uuid"]?.string } == ["2A6E", "2A6E", "2A6F"], "\(chars)")
                #expect(chars.compactMap { $0["handle"]?.int } == [0x1B, 0x22, 0x29], "\(chars)")
                #expect(chars.compactMap { $0["properties"]?.int } == [0x12, 0x12, 0x02], "\(chars)")
                // Before any client turned notifications on, the sample's start values:
                // 12.00 °C and 18.00 °C (sint16, 0.01 °C), humidity 62.33 % (uint16, 0.01 %).
                #expect(chars.compactMap { $0["value"]?.string } == ["b004", "0807", "5918"], "\(chars)")
                let descriptors = chars.map { ($0["descriptors"]?.array ?? []).compactMap { $0["uuid"]?.string } }
                #expect(descriptors == [["290C", "2901", "2906", "290D", "2902"], ["290C", "2901", "2906", "290D", "2902"], ["2901", "290C"]],
                        "\(descriptors)")
                #expect(EnvironmentalTemperature(hex: "b004")?.celsius == 12.0)

                // The descriptors by handle: User Description, Valid Range (−100.00…100.00 °C and
                // −10.00…50.00 °C), Trigger Setting 0x03 (value changed), ES Measurement (update
                // interval 5 s and 12 s), and the CCCD, off.
                let reads: [(String, String)] = [
                    ("0x001D", HexText.string(Array("Temperature Sensor 1".utf8))),
                    ("0x001E", "f0d81027"),
                    ("0x001F", "03"),
                    ("0x001C", "0000000100000500001c04"),
                    ("0x0020", "0000"),
                    ("0x0024", HexText.string(Array("Temperature Sensor 2".utf8))),
                    ("0x0025", "18fc8813"),
                    ("0x0023", "0000000100000c00001b04"),
                    ("0x002A", HexText.string(Array("Humidity Sensor".utf8))),
                ]
                for (handle, value) in reads {
                    let r = try await rtstack(["read", environmentAddress, handle, "--json"], world, dir, timeout: 20)
                    #expect(r.status == 0, "\(r.transcript)")
                    #expect(r.events.first?["value"]?.string == value, "\(handle): \(r.transcript)")
                }
            }
        }

        @Test("read: Body Sensor Location is Chest; the battery falls 1 % per second; the Device Information strings")
        func read() async throws {
            try await withWorld(["hr"], label: "read") { world, dir in
                let chest = try await rtstack(["read", heartAddress, "2A38"], world, dir, timeout: 20)
                #expect(chest.status == 0, "\(chest.transcript)")
                #expect(chest.stdout == ["0x001E: 01  = Chest"], "\(chest.transcript)")

                // From 100 % at the world's start, one less per simulated second; simulated time
                // never runs ahead of real time (the handbrake), but on a busy machine it may run
                // slower: read until it has fallen by 2 (at most 30 s).
                func battery() async throws -> UInt8 {
                    let r = try await rtstack(["read", heartAddress, "2A19", "--json"], world, dir, timeout: 20)
                    #expect(r.status == 0 && r.events.first?["uuid"]?.string == "2A19" && r.events.first?["handle"]?.int == 0x12,
                            "\(r.transcript)")
                    return try #require(r.events.first?["value"]?.string.flatMap(HexText.bytes)?.first, "\(r.transcript)")
                }
                let firstAt = Date()
                let a = try await battery()
                // An upper bound of the simulated time: the real time since run-world started (the
                // ready line may be read late on a busy machine, so it is no bound).
                let sinceLaunch = seconds(since: world.launchedAt)
                #expect(a <= 100 && Double(100 - Int(a)) <= sinceLaunch + 2, "battery \(a) % \(sinceLaunch) s after launch")
                var b = a
                var readings = [a]
                while a - min(a, b) < 2, seconds(since: firstAt) < 30 {
                    try await Task.sleep(for: .seconds(1))
                    b = try await battery()
                    readings.append(b)
                }
                let elapsed = seconds(since: firstAt)
                // The bound is the real time since launch, not since the first read: a world that
                // fell behind real time catches up faster than one simulated second a second.
                let launchedFor = seconds(since: world.launchedAt)
                #expect(zip(readings, readings.dropFirst()).allSatisfy { $0 >= $1 }, "the battery rose: \(readings)")
                #expect(b < a && a - b >= 2 && Double(100 - Int(b)) <= launchedFor + 2,
                        "battery \(readings) within \(elapsed) s, \(launchedFor) s after launch: it must fall by about one per second")

                let text = try await rtstack(["read", heartAddress, "2A19"], world, dir, timeout: 20)
                let level = try #require(text.stdout.first, "\(text.transcript)")
                #expect(level.hasPrefix("0x0012: ") && level.hasSuffix(" %") && level.contains("  = "), "\(level)")

                let maker = try await rtstack(["read", heartAddress, "2A29"], world, dir, timeout: 20)
                #expect(maker.stdout == ["0x0018: 4d 61 6e 75 66 61 63 74 75 72 65 72  = \"Manufacturer\""], "\(maker.transcript)")
                // Without the address type: learned from a short scan.
                let model = try await rtstack(["read", String(heartAddress.prefix(17)), "0x0016", "--json"], world, dir, timeout: 20)
                #expect(model.events.first?["value"]?.string == HexText.string(Array("inf_clock".utf8)), "\(model.transcript)")
            }
        }

        @Test("write: a CCCD takes 0100 (the Write Request and Write Response are in the capture); read-only values answer Write Not Permitted")
        func write() async throws {
            try await withWorld(["hr", "esp"], label: "write") { world, dir in
                let capture = dir.appendingPathComponent("write.btsnoop").path
                let cccd = try await rtstack(["write", heartAddress, "0x0013", "0100", "--capture", capture], world, dir, timeout: 20)
                #expect(cccd.status == 0, "\(cccd.transcript)")
                #expect(cccd.stdout == ["wrote 2 byte(s) to 0x0013"], "\(cccd.transcript)")
                let decoded = try await RtstackProcess.run(["decode", capture, "--json", "--filter", "att=write"], timeout: 20)
                #expect(decoded.status == 0, "\(decoded.transcript)")
                let att = decoded.events.compactMap { $0["att"] }
                #expect(att.first?["opcode"]?.int == 0x12 && att.first?["handle"]?.int == 0x13 && att.first?["value"]?.string == "0100",
                        "\(decoded.transcript)")
                #expect(att.dropFirst().first?["opcode"]?.int == 0x13, "no Write Response after the Write Request: \(att)")

                // Zephyr's HRS declares its Control Point without write permission; Body Sensor
                // Location and the ES Trigger Setting are read-only (Core Spec v5.4 Vol 3,
                // Part F, §3.4.1.1: 0x03 Write Not Permitted).
                for (address, target, handle) in [(heartAddress, "2A39", "0x0020"), (heartAddress, "2A38", "0x001E"),
                                                  (environmentAddress, "0x001F", "0x001F")] {
                    let refused = try await rtstack(["write", address, target, "01"], world, dir, timeout: 20)
                    #expect(refused.status == 1, "\(refused.transcript)")
                    #expect(refused.stdout.isEmpty, "\(refused.transcript)")
                    #expect(refused.stderr.contains("Write Not Permitted (0x03)") && refused.stderr.contains("handle \(handle)"),
                            "\(refused.transcript)")
                }
            }
        }

        @Test("subscribe 2A37: one notification a second, the bpm one higher each time (90 + the world's seconds)")
        func subscribe() async throws {
            try await withWorld(["hr"], label: "subscribe") { world, dir in
                let (r, reached) = try await rtstackUntil(["subscribe", heartAddress, "2A37", "--json"], world, dir, timeout: 30) { lines in
                    lines.filter { $0["uuid"]?.string == "2A37" }.count >= 5
                }
                #expect(reached, "fewer than 5 notifications in 30 s\n\(r.transcript)")
                #expect(r.status == 0, "\(r.transcript)")
                let values = r.events.filter { $0["uuid"]?.string == "2A37" }
                #expect(values.count >= 5, "\(r.transcript)")
                #expect(values.allSatisfy { $0["handle"]?.int == 0x1B }, "\(values)")
                let bpm = try values.map { v -> Int in
                    let bytes = try #require(v["value"]?.string.flatMap(HexText.bytes), "\(v)")
                    let m = try HeartRateMeasurement(decoding: bytes)
                    #expect(v["decoded"]?.string == m.summary, "\(v)")
                    return Int(m.heartRate)
                }
                #expect(ZephyrIntegration.risesByOne(bpm), "the bpm must rise by one per notification: \(bpm)")
                // The simulated seconds are bounded by the real time since run-world started.
                let sinceLaunch = seconds(since: world.launchedAt)
                if let first = bpm.first {
                    #expect(first >= 90 && Double(first - 90) <= sinceLaunch + 1, "first bpm \(first), \(sinceLaunch) s after launch")
                }
                // One a simulated second (the bpm above says so); their spacing in real time is no
                // measure: a simulation that fell behind on a busy machine runs faster to catch up.
            }
        }
    }
}

/// The `gatt --json` tree, looked up by UUID.
struct GATTTable {
    let root: JSONValue
    init(_ root: JSONValue) { self.root = root }

    var services: [String] { root["services"]?.array?.compactMap { $0["uuid"]?.string } ?? [] }

    func service(_ uuid: String) -> JSONValue? {
        root["services"]?.array?.first { $0["uuid"]?.string == uuid }
    }

    func characteristic(_ service: String, _ uuid: String) -> JSONValue? {
        self.service(service)?["characteristics"]?.array?.first { $0["uuid"]?.string == uuid }
    }

    func descriptors(_ service: String, _ uuid: String) -> [String] {
        characteristic(service, uuid)?["descriptors"]?.array?.compactMap { $0["uuid"]?.string } ?? []
    }
}

extension EnvironmentalTemperature {
    /// From the hex of a value, as the JSON output writes it.
    init?(hex: String) {
        guard let bytes = HexText.bytes(hex), let t = try? EnvironmentalTemperature(decoding: bytes) else { return nil }
        self = t
    }
}
