import Foundation
import Testing
import Wire

extension ZephyrIntegration {
    /// The GATT sub-procedures of issue 12 against Zephyr 2.5's GATT server (`hr`), which
    /// supports Read Multiple but not Read Multiple Variable Length (no EATT) nor prepared
    /// writes: what a real server that lacks them answers, and what rtstack makes of it.
    @Suite("Zephyr: GATT procedures")
    struct GATTProcedures {
        /// The ATT PDUs of a capture other than discovery, as `rtstack decode --brief` lists them.
        static func attLines(_ capture: URL) async throws -> [String] {
            let decoded = try await RtstackProcess.run(["decode", capture.path, "--brief", "--filter", "acl"], timeout: 20)
            return decoded.stdout.filter {
                $0.contains(" ATT ") && $0.contains(" ACL ") && !$0.contains("Read By") && !$0.contains("Find ") && !$0.contains("Exchange MTU")
            }
        }

        @Test("read of several handles: no EATT claimed, so one read each; --variable gets Request Not Supported and falls back; --fixed uses Read Multiple; --no-fallback fails by name")
        func readMultipleAgainstZephyr() async throws {
            try await withWorld(["hr"], label: "read-multiple") { world, dir in
                // Zephyr 2.5's hr has no Server Supported Features: the request is not sent.
                let safe = dir.appendingPathComponent("safe.btsnoop")
                let plain = try await rtstack(["read", heartAddress, "2A38,2A19", "--json", "--capture", safe.path], world, dir, timeout: 40)
                #expect(plain.status == 0, "\(plain.transcript)")
                let values = try #require(plain.events.first?["values"]?.array, "\(plain.transcript)")
                #expect(values.compactMap { $0["uuid"]?.string } == ["2A38", "2A19"])
                #expect(values.first?["value"]?.string == "01", "Body Sensor Location is Chest: \(values)")
                let battery = try #require(values.last?["value"]?.string.flatMap { UInt8($0, radix: 16) })
                #expect(battery <= 100, "battery level \(battery)")
                let att = try await Self.attLines(safe)
                #expect(!att.contains { $0.contains("(0x20)") }, "\(att)")
                #expect(att.filter { $0.contains("Read Request (0x0A)") }.count == 2, "\(att)")

                // Sent anyway: Zephyr answers Request Not Supported, and the handles are read one by one.
                let forced = dir.appendingPathComponent("forced.btsnoop")
                let fallback = try await rtstack(["read", heartAddress, "2A38,2A19", "--json", "--variable", "--capture", forced.path],
                                                 world, dir, timeout: 40)
                #expect(fallback.status == 0, "\(fallback.transcript)")
                #expect(fallback.events.first?["values"]?.array?.first?["value"]?.string == "01", "\(fallback.transcript)")
                let tried = try await Self.attLines(forced)
                #expect(tried.count == 6, "\(tried)")
                #expect(tried.first?.contains("Read Multiple Variable Request (0x20)") == true, "\(tried)")
                #expect(tried.dropFirst().first?.contains("Request Not Supported (0x06)") == true, "\(tried)")
                #expect(tried.dropFirst(2).filter { $0.contains("Read Request (0x0A)") }.count == 2, "\(tried)")

                let fixed = try await rtstack(["read", heartAddress, "2A38,2A19", "--fixed"], world, dir, timeout: 40)
                #expect(fixed.status == 0, "\(fixed.transcript)")
                let line = try #require(fixed.stdout.first, "\(fixed.transcript)")
                // The two values run together: Chest (01), then the battery level, which drops 1 %
                // a second.
                let joined = line.split(separator: ":").last.map { $0.split(separator: " ") } ?? []
                #expect(joined.count == 2 && joined.first == "01", "\(line)")

                let strict = try await rtstack(["read", heartAddress, "2A38,2A19", "--variable", "--no-fallback"], world, dir, timeout: 40)
                #expect(strict.status == 1, "\(strict.transcript)")
                #expect(strict.stderr.contains("Request Not Supported (0x06) for Read Multiple Variable Request (0x20)"), "\(strict.transcript)")
                #expect(strict.stderr.contains("does not support Read Multiple Variable Length"), "\(strict.transcript)")
                let unclaimed = try await rtstack(["read", heartAddress, "2A38,2A19", "--no-fallback"], world, dir, timeout: 40)
                #expect(unclaimed.status == 1 && unclaimed.stderr.contains("does not set EATT Supported"), "\(unclaimed.transcript)")
            }
        }

        @Test("write --reliable: Zephyr 2.5 has no prepare queue; the write fails with Request Not Supported and advice")
        func reliableWriteAgainstZephyr() async throws {
            try await withWorld(["hr"], label: "reliable") { world, dir in
                let r = try await rtstack(["write", heartAddress, "2A39", "01", "--reliable"], world, dir, timeout: 40)
                #expect(r.status == 1, "\(r.transcript)")
                #expect(r.stderr.contains("Request Not Supported (0x06) for Prepare Write Request (0x16)"), "\(r.transcript)")
                #expect(r.stderr.contains("does not support prepared writes"), "\(r.transcript)")
            }
        }

        @Test("gatt --service 180D and --range: Zephyr's Heart Rate service by its UUID, then the same handles as a range")
        func discoveryOverRangesAgainstZephyr() async throws {
            try await withWorld(["hr"], label: "gatt-ranges") { world, dir in
                let service = try await rtstack(["gatt", heartAddress, "--service", "180D", "--json", "--no-values"], world, dir, timeout: 40)
                #expect(service.status == 0, "\(service.transcript)")
                let sections = try #require(service.events.first?["sections"]?.array, "\(service.transcript)")
                #expect(sections.count == 1)
                let hr = try #require(sections.first)
                let start = try #require(hr["start"]?.int), end = try #require(hr["end"]?.int)
                let characteristics = hr["characteristics"]?.array ?? []
                #expect(characteristics.compactMap { $0["uuid"]?.string } == ["2A37", "2A38", "2A39"], "\(hr)")
                #expect(characteristics.first?["descriptors"]?.array?.compactMap { $0["uuid"]?.string } == ["2902"])

                let range = String(format: "0x%04X-0x%04X", start, end)
                let byRange = try await rtstack(["gatt", heartAddress, "--range", range, "--characteristic", "2A38"], world, dir, timeout: 40)
                #expect(byRange.status == 0, "\(byRange.transcript)")
                #expect(byRange.stdout.filter { $0.hasPrefix("  characteristic ") }.count == 1, "\(byRange.transcript)")
                #expect(byRange.stdout.contains { $0.contains("= Chest") }, "\(byRange.transcript)")
            }
        }
    }
}
