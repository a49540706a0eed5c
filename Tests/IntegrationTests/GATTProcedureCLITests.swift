import Foundation
import HostCore
import Runtime
import Testing
import Wire

extension WorldIntegration {
    /// The GATT sub-procedures beyond the whole tree, from the command line, against Bumble's
    /// GATT server (Core Spec v5.4 Vol 3, Part G, §4.4–§4.9): discovery over a service or a
    /// handle range, Read Multiple (Variable Length), Reliable Writes, Signed Writes.
    @Suite("GATT procedures from the CLI")
    struct GATTProcedureCLI {
        static func base(_ command: String, _ world: WorldProcess, _ device: String, _ dir: URL) throws -> [String] {
            [command, try world.device(device).address + "/random"] + WorldIntegration.adapter(world) + ["--state-dir", dir.path]
        }

        /// ATT PDUs of one opcode in a capture, as `rtstack decode --brief` lists them.
        static func attLines(_ capture: URL, opcode: UInt8) async throws -> [String] {
            let decoded = try await RtstackProcess.run(["decode", capture.path, "--brief", "--filter", "att=0x" + String(opcode, radix: 16)],
                                                       timeout: 20)
            return decoded.stdout.filter { $0.contains(" ACL ") && $0.contains(" ATT ") }
        }

        @Test("gatt --service, --range, --characteristic, --only: each sub-procedure over its handle range")
        func discoveryOverRanges() async throws {
            let world = try await WorldProcess.start(["--speed", "0", "--environment", "0", "--distractors", "0"])
            defer { world.stop() }
            let dir = try PackagePaths.temporaryDirectory("gatt-ranges")
            defer { try? FileManager.default.removeItem(at: dir) }
            let base = try Self.base("gatt", world, "Heart 1", dir)

            // The Heart Rate service alone (Discover Primary Service by Service UUID).
            let service = try await RtstackProcess.run(base + ["--service", "180D", "--json"], timeout: 20)
            #expect(service.status == 0, "\(service.transcript)")
            let sections = try #require(service.events.first?["sections"]?.array, "\(service.transcript)")
            #expect(sections.count == 1)
            let hr = try #require(sections.first)
            #expect(hr["uuid"]?.string == "180D")
            let start = try #require(hr["start"]?.int), end = try #require(hr["end"]?.int)
            let characteristics = hr["characteristics"]?.array ?? []
            #expect(characteristics.compactMap { $0["uuid"]?.string } == ["2A37", "2A38", "2A39"], "\(hr)")
            let hrm = try #require(characteristics.first)
            #expect(hrm["descriptors"]?.array?.compactMap { $0["uuid"]?.string } == ["2902"])
            #expect(characteristics[1]["value"]?.string == "01", "Body Sensor Location: \(characteristics[1])")
            #expect(hr["included"]?.array?.isEmpty == true)

            // The same handles as a range give the same characteristics, without service discovery.
            let range = String(format: "0x%04X-0x%04X", start, end)
            let byRange = try await RtstackProcess.run(base + ["--range", range, "--only", "characteristics", "--no-values"], timeout: 20)
            #expect(byRange.status == 0, "\(byRange.transcript)")
            let lines = byRange.stdout
            #expect(lines.contains("range \(range)"), "\(byRange.transcript)")
            #expect(lines.filter { $0.hasPrefix("  characteristic ") }.count == 3, "\(byRange.transcript)")
            #expect(!lines.contains { $0.contains("descriptor") || $0.contains("value:") }, "\(byRange.transcript)")

            // Every attribute of the range (Find Information).
            let attributes = try await RtstackProcess.run(base + ["--range", range, "--only", "descriptors"], timeout: 20)
            #expect(attributes.status == 0, "\(attributes.transcript)")
            let types = attributes.stdout.filter { $0.hasPrefix("  attribute ") }
            #expect(types.count == end - start + 1, "\(attributes.transcript)")
            #expect(types.first?.contains("Primary Service (2800)") == true)
            #expect(types.contains { $0.contains("Client Characteristic Configuration (2902)") })

            // Discover Characteristics by UUID over the whole database; its descriptors stop at
            // the next service.
            let battery = try await RtstackProcess.run(base + ["--characteristic", "2A19"], timeout: 20)
            #expect(battery.status == 0, "\(battery.transcript)")
            let found = battery.stdout.filter { $0.hasPrefix("  characteristic ") }
            #expect(found.count == 1 && found[0].contains("Battery Level (2A19)"), "\(battery.transcript)")
            #expect(battery.stdout.filter { $0.contains("descriptor ") } .count == 1, "\(battery.transcript)")
            #expect(battery.stdout.contains { $0.contains("= 100 %") }, "\(battery.transcript)")

            // A service the peer does not have, and bad ranges.
            let absent = try await RtstackProcess.run(base + ["--service", "1814"], timeout: 20)
            #expect(absent.status == 1 && absent.stderr.contains("no primary service"), "\(absent.transcript)")
            for bad in ["0x0000-0x0010", "0x0020-0x0010", "16"] {
                let usage = try await RtstackProcess.run(base + ["--range", bad], timeout: 20)
                #expect(usage.status == 2, "--range \(bad): \(usage.transcript)")
            }
        }

        @Test("read of several handles: a peer without EATT is read one handle at a time unless --variable; --fixed: Read Multiple")
        func readMultiple() async throws {
            let world = try await WorldProcess.start(["--speed", "0", "--environment", "0", "--distractors", "0"])
            defer { world.stop() }
            let dir = try PackagePaths.temporaryDirectory("read-multiple")
            defer { try? FileManager.default.removeItem(at: dir) }
            let base = try Self.base("read", world, "Heart 1", dir)
            let expected = ["01", "64", HexText.string(Array("rtstack test world".utf8))]

            // Bumble's peripherals do not claim EATT (no Server Supported Features): the
            // request is not sent, the three handles are read one by one.
            let safe = dir.appendingPathComponent("safe.btsnoop")
            let one = try await RtstackProcess.run(base + ["2A38,2A19,2A29", "--json", "--capture", safe.path], timeout: 20)
            #expect(one.status == 0, "\(one.transcript)")
            let values = try #require(one.events.first?["values"]?.array, "\(one.transcript)")
            #expect(values.compactMap { $0["uuid"]?.string } == ["2A38", "2A19", "2A29"])
            #expect(values.compactMap { $0["value"]?.string } == expected)
            #expect(try await Self.attLines(safe, opcode: 0x20).isEmpty)
            #expect(try await Self.attLines(safe, opcode: 0x0A).count == 3)

            // --variable sends it anyway, and Bumble's GATT server answers it: one request.
            let forced = dir.appendingPathComponent("forced.btsnoop")
            let variable = try await RtstackProcess.run(base + ["2A38,2A19,2A29", "--json", "--variable", "--capture", forced.path], timeout: 20)
            #expect(variable.status == 0, "\(variable.transcript)")
            #expect(variable.events.first?["values"]?.array?.compactMap { $0["value"]?.string } == expected, "\(variable.transcript)")
            #expect(try await Self.attLines(forced, opcode: 0x20).count == 1)
            #expect(try await Self.attLines(forced, opcode: 0x0A).isEmpty, "no single reads")

            // --no-fallback: nothing to fall back on, the reason named.
            let strict = try await RtstackProcess.run(base + ["2A38,2A19", "--no-fallback"], timeout: 20)
            #expect(strict.status == 1, "\(strict.transcript)")
            #expect(strict.stderr.contains("does not set EATT Supported in Server Supported Features (0x2B3A)"), "\(strict.transcript)")

            let handles = values.compactMap { $0["handle"]?.int }.prefix(2).map { String(format: "0x%04X", $0) }
            let fixed = try await RtstackProcess.run(base + [handles.joined(separator: ","), "--fixed"], timeout: 20)
            #expect(fixed.status == 0, "\(fixed.transcript)")
            #expect(fixed.stdout == [handles.joined(separator: ",") + ": 01 64"], "\(fixed.transcript)")

            let usage = try await RtstackProcess.run(base + ["2A38", "--fixed"], timeout: 20)
            #expect(usage.status == 2, "\(usage.transcript)")
        }

        @Test("read of several handles from a peer that claims EATT: Server Supported Features read, then one Read Multiple Variable Length request")
        func readMultipleFromAnEATTPeer() async throws {
            let world = try await WorldProcess.start(["--speed", "0", "--environment", "0", "--distractors", "0", "--eatt"])
            defer { world.stop() }
            let dir = try PackagePaths.temporaryDirectory("read-multiple-eatt")
            defer { try? FileManager.default.removeItem(at: dir) }
            let capture = dir.appendingPathComponent("eatt.btsnoop")
            let r = try await RtstackProcess.run(try Self.base("read", world, "Heart 1", dir) + ["2A38,2A19", "--json", "--capture", capture.path],
                                                 timeout: 20)
            #expect(r.status == 0, "\(r.transcript)")
            #expect(r.events.first?["values"]?.array?.compactMap { $0["value"]?.string } == ["01", "64"], "\(r.transcript)")
            let features = try await Self.attLines(capture, opcode: 0x08).filter { $0.contains("type 2B3A") }
            #expect(features.count == 1, "\(features)")
            #expect(try await Self.attLines(capture, opcode: 0x20).count == 1)
            #expect(try await Self.attLines(capture, opcode: 0x0A).isEmpty)
        }

        @Test("write --reliable: both values prepared, echoes checked, one Execute Write; a refused execute fails by name")
        func reliableWrite() async throws {
            let world = try await WorldProcess.start(["--heart", "0", "--speed", "0", "--environment", "1", "--distractors", "0"])
            defer { world.stop() }
            let dir = try PackagePaths.temporaryDirectory("reliable")
            defer { try? FileManager.default.removeItem(at: dir) }
            let base = try Self.base("write", world, "Thingy 1", dir)
            let name = "EF680101-9B35-4933-9B10-52FFA9740042"

            let ok = try await RtstackProcess.run(base + [name, HexText.string(Array("Reliable".utf8)), "2B29", "01", "--reliable"], timeout: 20)
            #expect(ok.status == 0, "\(ok.transcript)")
            try await world.wait("the new name", timeout: 5) { e in e.contains { $0["event"]?.string == "thingy_name" } }
            let writes = world.events("att_write").filter { $0["device"]?.string == "Thingy 1" }
            #expect(writes.compactMap { $0["opcode"]?.string } == ["0x16", "0x16", "0x18"], "\(writes)")
            #expect(writes.compactMap { $0["uuid"]?.string } == [name, "2B29"])
            #expect(writes.last?["flags"]?.int == 1)
            #expect(world.events("thingy_name").last?["value"]?.string == "Reliable")

            // The Thingy takes names of 1–10 bytes: it refuses the Execute Write of 11.
            let refused = try await RtstackProcess.run(base + [name, HexText.string(Array("Eleven byte".utf8)), "--reliable"], timeout: 20)
            #expect(refused.status == 1, "\(refused.transcript)")
            #expect(refused.stderr.contains("Invalid Attribute Value Length (0x0d) for Execute Write Request"), "\(refused.transcript)")
            #expect(world.events("thingy_name").count == 1)

            let usage = try await RtstackProcess.run(base + [name, "01", "2B29", "01"], timeout: 20)
            #expect(usage.status == 2 && usage.stderr.contains("--reliable"), "\(usage.transcript)")
        }

        @Test("write --signed: the peripheral verifies the signature with its CSRK; the SignCounter advances in the bond file")
        func signedWrite() async throws {
            let world = try await WorldProcess.start(["--speed", "0", "--environment", "0", "--distractors", "0"])
            defer { world.stop() }
            let dir = try PackagePaths.temporaryDirectory("signed")
            defer { try? FileManager.default.removeItem(at: dir) }
            let heart = try world.device("Heart 1")
            let peer = try DeviceAddress(parsing: heart.address + "/random")
            let csrk: UInt128 = 0x0011_2233_4455_6677_8899_AABB_CCDD_EEFF
            let bonds = FileBondStore(directory: StateDirectory(path: dir.path))
            try StateDirectory(path: dir.path).create()
            let pairing = PairingResult(peerAddress: peer, identityAddress: peer, localSignatureKey: csrk,
                                        model: .justWorks, secureConnections: true, keySize: 16, bonded: true)
            try bonds.store(BondRecord(pairing: pairing, localSignCounter: 5))
            try world.control(#"{"cmd":"signing","device":"Heart 1","csrk":"\#(BondRecordCodec.hex128(csrk))"}"#)
            let write = try Self.base("write", world, "Heart 1", dir) + ["2A39", "01", "--signed"]

            for _ in 0..<2 {
                let sent = try await RtstackProcess.run(write, timeout: 20)
                #expect(sent.status == 0, "\(sent.transcript)")
            }
            try await world.wait("two signed writes", timeout: 5) { e in e.filter { $0["event"]?.string == "signed_write" }.count >= 2 }
            let signed = world.events("signed_write")
            #expect(signed.compactMap { $0["counter"]?.int } == [5, 6], "\(signed)")
            #expect(signed.allSatisfy { $0["verified"]?.bool == true && $0["applied"]?.bool == true }, "\(signed)")
            try await world.wait("the control point written twice", timeout: 5) { e in
                e.filter { $0["event"]?.string == "hr_control_point" && $0["accepted"]?.bool == true }.count == 2
            }
            #expect(try bonds.bond(for: peer)?.localSignCounter == 7)

            // A bond file whose counter went back (a restored backup): the peer refuses the replay.
            try bonds.store(BondRecord(pairing: pairing, localSignCounter: 6))
            #expect(try await RtstackProcess.run(write, timeout: 20).status == 0)
            try await world.wait("the replayed counter", timeout: 5) { e in
                e.contains { $0["event"]?.string == "signed_write" && $0["reason"]?.string == "replayed counter" }
            }

            // Another key at the peer: the signature does not verify.
            try world.control(#"{"cmd":"signing","device":"Heart 1","csrk":"ffeeddccbbaa99887766554433221100"}"#)
            #expect(try await RtstackProcess.run(write, timeout: 20).status == 0)
            try await world.wait("the wrong signature", timeout: 5) { e in
                e.contains { $0["event"]?.string == "signed_write" && $0["reason"]?.string == "signature" }
            }
            #expect(world.events("hr_control_point").count == 2)

            // No bond: nothing is sent, and the message says what is missing.
            let empty = try PackagePaths.temporaryDirectory("signed-none")
            defer { try? FileManager.default.removeItem(at: empty) }
            let none = try await RtstackProcess.run(["write", heart.address + "/random", "2A39", "01", "--signed"] + WorldIntegration.adapter(world)
                                                    + ["--state-dir", empty.path], timeout: 20)
            #expect(none.status == 1, "\(none.transcript)")
            #expect(none.stderr.contains("no bond with \(heart.address)/random"), "\(none.transcript)")
            #expect(world.events("signed_write").count == 4)
        }
    }
}
