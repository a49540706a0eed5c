import Foundation
import HostCore
import Runtime
import Testing
import Wire

extension WorldIntegration {
    /// A peer whose ATT server misbehaves (Tests/World hostile mode). Each test: the error is
    /// named, nothing hangs (every step has a time limit), and the link stays usable, since a
    /// broken response ends its own transaction only (Core Spec v5.4 Vol 3, Part F, §3.3: the
    /// next request may be sent once a response, even an unusable one, has arrived).
    @Suite("Hostile peer: ATT")
    struct HostileATT {
        @Test("Truncated Exchange MTU Response: the exchange fails as a protocol violation, ATT_MTU stays 23, the link works")
        func truncatedResponse() async throws {
            try await HostileRig.run("att_truncated") { rig in
                // The plan's exchange meets the 2-byte response (§3.4.2.2 needs 3) and goes on.
                let p = try await rig.connect(mtu: 247)
                let mtu = try await withTimeout(5, "asking the MTU") { try await p.perform(.exchangeMTU(247)) }
                guard case .mtu(let m) = mtu else { Issue.record("got \(mtu)"); return }
                #expect(m == 23, "ATT_MTU after a broken exchange: \(m)")
                let warnings = await rig.central.warnings().map(\.message)
                #expect(warnings.contains { $0.contains("malformed Exchange MTU Response") }, "\(warnings)")
                #expect(warnings.contains { $0.contains("Exchange MTU failed, ATT_MTU stays 23") }, "\(warnings)")
                #expect(try await rig.performed("att_truncated").count == 1)
                // Discovery at the default MTU still finds the whole database.
                let db = try await withTimeout(10, "discovery at MTU 23") { try await p.discover() }
                #expect(db.characteristic(BluetoothUUID(UInt16(0x2A37)))?.cccdHandle != nil, "\(db)")
                try await rig.expectLinkUsable(p)
            }
        }

        @Test("Read By Group Type Response with trailing garbage: discovery fails naming it, the link works")
        func trailingGarbage() async throws {
            try await HostileRig.run("att_trailing") { rig in
                let p = try await rig.connect()
                let error = try await rig.failure("discovery") { try await p.perform(.discoverAll) }
                let message = try #require(error?.violation, "expected a protocol violation, got \(String(describing: error))")
                #expect(message.contains("Read By Group Type Response"), "\(message)")
                #expect(try await rig.performed("att_trailing").count == 1, "the client asked again after the broken answer")
                try await rig.expectLinkUsable(p)
            }
        }

        @Test("Read By Group Type answers that never advance: discovery ends with an error after one repeat")
        func stuckGroupType() async throws {
            try await stuck("stuck_group_type", naming: "Read By Group Type Response")
        }

        @Test("Read By Type answers that never advance: characteristic discovery ends with an error after one repeat")
        func stuckReadByType() async throws {
            try await stuck("stuck_read_by_type", naming: "Read By Type Response")
        }

        @Test("Find Information answers that never advance: descriptor discovery ends with an error after one repeat")
        func stuckFindInformation() async throws {
            try await stuck("stuck_find_information", naming: "Find Information Response")
        }

        /// Discovery continues after the last handle found (Vol 3, Part G, §4.4.1, §4.6.1,
        /// §4.7.1); an answer that repeats handles before that point is refused at once, so the
        /// client never asks the same question twice.
        private func stuck(_ behaviour: String, naming pdu: String) async throws {
            try await HostileRig.run(behaviour) { rig in
                let p = try await rig.connect(mtu: 247)
                let started = Date()
                let error = try await rig.failure("discovery against \(behaviour)") { try await p.perform(.discoverAll) }
                let message = try #require(error?.violation, "expected a protocol violation, got \(String(describing: error))")
                #expect(message.contains(pdu) && message.contains("outside the requested range"), "\(message)")
                #expect(seconds(since: started) < 3, "discovery took \(seconds(since: started)) s")
                let repeats = try await rig.performed(behaviour).count
                #expect(repeats == 1, "repeats sent: \(repeats)")
                try await rig.expectLinkUsable(p)
            }
        }

        @Test("rtstack gatt against a peer whose Read By Type never advances: exits 1 at once, naming the violation")
        func stuckDiscoveryFromTheCLI() async throws {
            let world = try await WorldProcess.start(["--speed", "0", "--environment", "0", "--distractors", "0",
                                                      "--hostile", "stuck_read_by_type"])
            defer { world.stop() }
            let dir = try PackagePaths.temporaryDirectory("hostile-gatt")
            defer { try? FileManager.default.removeItem(at: dir) }
            let heart = try world.device("Heart 1")
            let r = try await RtstackProcess.run(["gatt", heart.address + "/random"] + WorldIntegration.adapter(world)
                                                 + ["--state-dir", dir.path], timeout: 20)
            #expect(r.status == 1, "\(r.transcript)")
            #expect(r.elapsed < 8, "took \(r.elapsed) s")
            #expect(r.stderr.contains("peer broke the protocol: Read By Type Response") && r.stderr.contains("outside the requested range"),
                    "stderr: \(r.stderr)")
            #expect(world.events("hostile").filter { $0["behaviour"]?.string == "stuck_read_by_type" }.count == 1)
        }

        @Test("Characteristic declaration beyond the service's end: discovery fails naming the handle, the link works")
        func handleBeyondEnd() async throws {
            try await HostileRig.run("handle_beyond_end") { rig in
                let p = try await rig.connect()
                let error = try await rig.failure("discovery") { try await p.perform(.discoverAll) }
                let message = try #require(error?.violation, "expected a protocol violation, got \(String(describing: error))")
                let answered = try #require(try await rig.performed("handle_beyond_end").first?["answered"]?.int)
                #expect(message.contains("Read By Type Response") && message.contains(Hex.number(UInt16(answered), width: 4))
                        && message.contains("outside the requested range"), "\(message)")
                #expect(try await rig.performed("handle_beyond_end").count == 1)
                try await rig.expectLinkUsable(p)
            }
        }

        @Test("Find Information naming handle 0x0000: discovery fails naming it, the link works")
        func handleZero() async throws {
            try await HostileRig.run("handle_zero") { rig in
                let p = try await rig.connect()
                let error = try await rig.failure("discovery") { try await p.perform(.discoverAll) }
                let message = try #require(error?.violation, "expected a protocol violation, got \(String(describing: error))")
                #expect(message.contains("Find Information Response") && message.contains("0x0000"), "\(message)")
                #expect(try await rig.performed("handle_zero").count == 1)
                try await rig.expectLinkUsable(p)
            }
        }

        @Test("Server Rx MTU 23: the exchange settles on 23; discovery, long reads and notifications are right")
        func mtu23() async throws {
            try await mtu("mtu23", ask: 247, expect: 23)
        }

        @Test("Server Rx MTU 517: the exchange settles on 517; discovery, long reads and notifications are right")
        func mtu517() async throws {
            try await mtu("mtu517", ask: 517, expect: 517)
        }

        /// ATT_MTU is the smaller of the two Rx MTUs (Vol 3, Part F, §3.4.2.2).
        private func mtu(_ behaviour: String, ask: UInt16, expect: UInt16) async throws {
            try await HostileRig.run(behaviour, rate: 20) { rig in
                let p = try await rig.connect(mtu: ask)
                let mtu = try await withTimeout(5, "asking the MTU") { try await p.perform(.exchangeMTU(ask)) }
                guard case .mtu(let m) = mtu else { Issue.record("got \(mtu)"); return }
                #expect(m == expect)
                let status = try rig.world.control(#"{"cmd":"status"}"#)
                #expect(status["devices"]?.array?.first?["connections"]?.array?.first?["mtu"]?.int == Int(expect),
                        "the peer's view: \(String(describing: status["devices"]?.array?.first?["connections"]))")

                let db = try await withTimeout(10, "discovery at MTU \(expect)") { try await p.discover() }
                #expect(db.services.map(\.uuid) == [0x1800, 0x1801, 0x180D, 0x180F, 0x180A].map { BluetoothUUID(UInt16($0)) },
                        "services: \(db.services.map(\.uuid))")
                let manufacturer = try #require(db.characteristic(BluetoothUUID(UInt16(0x2A29))))
                let name = try await withTimeout(5, "read long") { try await p.read(handle: manufacturer.valueHandle) }
                #expect(String(decoding: name, as: UTF8.self) == "rtstack test world")
                // 79 bytes: a Read and three Read Blobs at MTU 23, one Read at 517.
                let serial = try #require(db.characteristic(BluetoothUUID(UInt16(0x2A25))), "no long Serial Number String")
                let long = try await withTimeout(5, "read long") { try await p.read(handle: serial.valueHandle) }
                #expect(String(decoding: long, as: UTF8.self) == "RTSTACK-HOSTILE-SERIAL-" + String(repeating: "ABCDEFGHIJKLMNOPQRSTUVWXYZ", count: 2) + "-END",
                        "read long gave \(long.count) bytes")
                let hrm = try #require(db.characteristic(BluetoothUUID(UInt16(0x2A37))))
                #expect(hrm.cccdHandle == hrm.valueHandle + 1)

                let values = try await withTimeout(5, "five notifications") {
                    var got: [[UInt8]] = []
                    for await v in try await p.subscribe(valueHandle: hrm.valueHandle) {
                        got.append(v)
                        if got.count == 5 { break }
                    }
                    return got
                }
                try await rig.world.wait("five notifications", timeout: 3) { _ in
                    rig.world.notifications(device: "Heart 1", uuid: "2A37").count >= 5
                }
                let sent = rig.world.notifications(device: "Heart 1", uuid: "2A37").prefix(5).map(\.value)
                #expect(values == Array(sent), "got \(values), sent \(sent)")
                let warnings = await rig.central.warnings()
                #expect(warnings.isEmpty, "\(warnings)")
            }
        }
    }
}
