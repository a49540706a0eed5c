import Foundation
import Testing

extension ZephyrIntegration {
    /// The run session against Zephyr's controller and peripherals over `serial:`.
    @Suite("Zephyr: run session")
    struct RunSession {
        @Test("--heart hr: the heart streams, its bpm one higher each second; scanning for the missing sensors runs after the heart link is up; Ctrl-C ends it cleanly")
        func heartStreamsAndScanningGoesOn() async throws {
            // sc_only advertises (flags and name, no service) and is never connected: its
            // reports after the heart's Connection Complete show that scanning went on.
            try await withWorld(["hr", "sc_only"], label: "session-heart") { world, dir in
                let capture = dir.appendingPathComponent("session.btsnoop").path
                let (r, reached) = try await rtstackUntil(["--heart", heartAddress, "--json", "--capture", capture],
                                                          world, dir, timeout: 40) { lines in
                    lines.filter { $0["event"]?.string == "measurement" && $0["sensor"]?.string == "heart" }.count >= 6
                }
                #expect(reached, "fewer than 6 heart measurements in 40 s\n\(r.transcript)")
                #expect(r.status == 0, "\(r.transcript)")
                let heart = r.states(.heart)
                #expect(heart.first?.state == "connecting" && heart.contains { $0.state == "ready" }, "heart: \(heart)")
                let bpm = r.measurements(.heart).compactMap { $0["bpm"]?.int }
                #expect(bpm.count >= 6, "only \(bpm.count) heart measurements\n\(r.transcript)")
                #expect(r.measurements(.heart).allSatisfy { $0["address"]?.string == heartAddress })
                #expect(ZephyrIntegration.risesByOne(bpm), "bpm must rise by one per measurement: \(bpm)")
                let summary = try #require(r.summary, "no summary\n\(r.transcript)")
                #expect(summary["measurements"]?["heart"]?.int == bpm.count, "\(summary)")
                #expect(summary["heart_bpm_min"]?.int == bpm.min() && summary["heart_bpm_max"]?.int == bpm.max(), "\(summary)")
                #expect(summary["malformed"]?.int == 0)

                let decoded = try await RtstackProcess.run(["decode", capture, "--json"], timeout: 30)
                #expect(decoded.status == 0, "\(decoded.transcript)")
                let packets = decoded.events.filter { $0["index"] != nil }
                let linkUp = try #require(packets.firstIndex { ($0["name"]?.string ?? "").contains("Connection Complete")
                                                              && $0["name"]?.string?.hasPrefix("LE Meta") == true },
                                          "no LE Connection Complete in the capture")
                let reportsAfter = packets[linkUp...].filter { ($0["name"]?.string ?? "").contains("Advertising Report") }
                // FE:29:78:F2:29:80 as the report carries it (least significant byte first).
                let fromSecure = reportsAfter.filter { ($0["hex"]?.string ?? "").contains("8029f27829fe") }
                let linkTime = packets[linkUp]["time"]?.double ?? 0
                let lastTime = packets.last?["time"]?.double ?? 0
                #expect(!fromSecure.isEmpty, """
                    no advertising report after the heart link came up at \(linkTime) s (capture ends at \(lastTime) s): \
                    scanning for speed and environment did not go on; \(reportsAfter.count) reports after it; stderr: \(r.stderr)
                    """)
            }
        }

        @Test("An Environmental Sensing peripheral fills the environment role: esp's temperatures (12.05 °C, then 0.05 °C more every 5 s) next to the heart")
        func environmentalSensingTemperature() async throws {
            try await withWorld(["hr", "esp"], label: "session-esp") { world, dir in
                let (r, reached) = try await rtstackUntil(["--json"], world, dir, timeout: 60) { lines in
                    let measurements = lines.filter { $0["event"]?.string == "measurement" }
                    return measurements.filter { $0["sensor"]?.string == "environment" }.count >= 2
                        && measurements.filter { $0["sensor"]?.string == "heart" }.count >= 8
                }
                #expect(reached, "fewer than 2 temperatures and 8 heart measurements in 60 s\n\(r.transcript)")
                #expect(r.status == 0, "\(r.transcript)")
                let env = r.events("state").filter { $0["sensor"]?.string == "environment" }
                let ready = try #require(env.first { $0["state"]?.string == "ready" }, "environment never ready: \(env)\n\(r.transcript)")
                // (Its name comes only in the scan response, which the session may not have seen
                // before it connected on the advertisement.)
                #expect(ready["address"]?.string == environmentAddress, "\(ready)")
                #expect(ready["name"] == nil || ready["name"]?.string == "ESP peripheral", "\(ready)")
                // Zephyr's peripheral_esp: while a client has the CCC on, Temperature Sensor 1
                // becomes 12.00 °C + 0.01 °C × its tick, updated every 5th second, notified when
                // it changes; the ticks start with the first client of a fresh world.
                let celsius = r.measurements(.environment).compactMap { $0["celsius"]?.double }
                #expect(celsius.count >= 2, "only \(celsius.count) temperatures\n\(r.transcript)")
                let expected = (1...max(celsius.count, 1)).map { 12.0 + 0.05 * Double($0) }
                #expect(zip(celsius, expected).allSatisfy { abs($0 - $1) < 1e-9 }, "temperatures \(celsius), expected \(expected)")
                #expect(r.measurements(.environment).allSatisfy { $0["address"]?.string == environmentAddress })

                let bpm = r.measurements(.heart).compactMap { $0["bpm"]?.int }
                #expect(bpm.count >= 8 && ZephyrIntegration.risesByOne(bpm), "heart: \(bpm)")
                let summary = try #require(r.summary, "no summary\n\(r.transcript)")
                #expect(summary["measurements"]?["environment"]?.int == celsius.count, "\(summary)")
                if !celsius.isEmpty, let avg = summary["avg_celsius"]?.double {
                    #expect(abs(avg - celsius.reduce(0, +) / Double(celsius.count)) < 0.01, "\(summary)")
                }
                #expect(summary["malformed"]?.int == 0)
                #expect(r.states(.speed).allSatisfy { $0.state == "scanning" })
            }
        }
    }

    /// Zephyr's hr: bpm = 90 + seconds, wrapping from 159 to 90.
    static func risesByOne(_ bpm: [Int]) -> Bool {
        zip(bpm, bpm.dropFirst()).allSatisfy { $1 == $0 + 1 || ($0 == 159 && $1 == 90) }
    }
}
