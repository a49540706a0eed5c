import Foundation
import HostCore
import Runtime
import Testing
import Wire

extension WorldIntegration {
    /// A peer that misbehaves below GATT or outside a transaction (Tests/World hostile mode):
    /// broken L2CAP frames, stray notifications, indications and signaling requests in bursts,
    /// advertising data that overruns. Each test names the outcome, bounds every wait and
    /// checks the link afterwards.
    @Suite("Hostile peer: link")
    struct HostileLink {
        @Test("L2CAP length larger than what arrives: the frame is dropped when the next one starts, discovery and reads succeed")
        func shortL2CAPFrame() async throws {
            try await HostileRig.run("l2cap_short") { rig in
                let p = try await rig.connect()
                // Every response is preceded by a frame announcing 20 bytes it never sends
                // (Core Spec v5.4 Vol 3, Part A, §3.1: the Length field counts the payload).
                let db = try await withTimeout(10, "discovery behind broken frames") { try await p.discover() }
                #expect(db.characteristic(BluetoothUUID(UInt16(0x2A37)))?.cccdHandle != nil, "\(db)")
                try await rig.expectLinkUsable(p)
                let broken = try await rig.performed("l2cap_short").count
                #expect(broken >= 5, "only \(broken) broken frames sent")
                let warnings = await rig.central.warnings().map(\.message)
                let dropped = warnings.filter { $0.contains("new start while a frame was incomplete") }
                // The last broken frame waits for the next start, which has not come yet.
                #expect(dropped.count >= broken - 1 && dropped.count <= broken, "\(broken) broken frames, \(dropped.count) dropped: \(warnings)")
            }
        }

        @Test("Notifications on handles the database does not have are ignored; the subscribed stream is exact")
        func notificationsOnUnknownHandles() async throws {
            try await HostileRig.run("notify_unknown", rate: 20) { rig in
                let p = try await rig.connect()
                let db = try await withTimeout(10, "discovery") { try await p.discover() }
                let hrm = try #require(db.characteristic(BluetoothUUID(UInt16(0x2A37))))
                let values = try await withTimeout(5, "ten notifications") {
                    var got: [[UInt8]] = []
                    for await v in try await p.subscribe(valueHandle: hrm.valueHandle) {
                        got.append(v)
                        if got.count == 10 { break }
                    }
                    return got
                }
                try await rig.world.wait("ten notifications", timeout: 3) { _ in
                    rig.world.notifications(device: "Heart 1", uuid: "2A37").count >= 10
                }
                let sent = rig.world.notifications(device: "Heart 1", uuid: "2A37").prefix(10).map(\.value)
                #expect(values == Array(sent), "got \(values), sent \(sent)")
                let status = try rig.world.control(#"{"cmd":"status"}"#)
                let strays = status["devices"]?.array?.first?["hostile"]?["counts"]?["notify_unknown"]?.int ?? 0
                #expect(strays >= 20, "stray notifications sent: \(strays)")
                try await rig.expectLinkUsable(p)
            }
        }

        /// A notification or indication needs at least its opcode and the 2-octet Attribute
        /// Handle (Core Spec v5.4 Vol 3, Part F, §3.4.7.1, §3.4.7.2). A shorter one is not a
        /// valid PDU: dropped with a warning, and the indication is not confirmed.
        @Test("Notifications and indications too short for a handle: dropped with a warning, not confirmed, the stream exact")
        func shortNotificationsAndIndications() async throws {
            try await HostileRig.run("short_pdus", rate: 20) { rig in
                let p = try await rig.connect()
                let db = try await withTimeout(10, "discovery") { try await p.discover() }
                let hrm = try #require(db.characteristic(BluetoothUUID(UInt16(0x2A37))))
                let values = try await withTimeout(5, "ten notifications") {
                    var got: [[UInt8]] = []
                    for await v in try await p.subscribe(valueHandle: hrm.valueHandle) {
                        got.append(v)
                        if got.count == 10 { break }
                    }
                    return got
                }
                try await rig.world.wait("ten notifications", timeout: 3) { _ in
                    rig.world.notifications(device: "Heart 1", uuid: "2A37").count >= 10
                }
                let sent = rig.world.notifications(device: "Heart 1", uuid: "2A37").prefix(10).map(\.value)
                #expect(values == Array(sent), "got \(values), sent \(sent)")
                let warnings = await rig.central.warnings().map(\.message)
                #expect(warnings.filter { $0.contains("Handle Value Notification of 2 bytes") }.count >= 9, "\(warnings)")
                #expect(warnings.filter { $0.contains("Handle Value Indication of 2 bytes") }.count >= 9, "\(warnings)")
                try await rig.expectLinkUsable(p)
                #expect(rig.world.events("hostile_stray_confirmation").isEmpty, "a broken indication was confirmed")
            }
        }

        /// A server sends no second indication before the confirmation of the first (Vol 3,
        /// Part F, §3.4.7.2). The client cannot tell a burst from a confirmation still on its
        /// way, so it confirms each indication as it is delivered, in order, one confirmation
        /// per indication, and keeps the link.
        @Test("Indications faster than confirmations: each delivered in order and confirmed once, the link kept")
        func indicationBurst() async throws {
            try await HostileRig.run("") { rig in
                let p = try await rig.connect()
                let db = try await withTimeout(10, "discovery") { try await p.discover() }
                let hrm = try #require(db.characteristic(BluetoothUUID(UInt16(0x2A37))))
                let stream = try await withTimeout(5, "subscribing") { try await p.subscribe(valueHandle: hrm.valueHandle) }
                let burst = try rig.world.control(#"{"cmd":"indication_burst","device":"Heart 1","uuid":"2A37","count":8}"#)
                #expect(burst["sent"]?.int == 8)
                let values = try await withTimeout(5, "eight indications") {
                    var got: [[UInt8]] = []
                    for await v in stream {
                        got.append(v)
                        if got.count == 8 { break }
                    }
                    return got
                }
                #expect(values == (0..<8).map { [UInt8($0)] }, "\(values)")
                try await rig.world.wait("eight confirmations", timeout: 3) { e in
                    e.contains { $0["event"]?.string == "hostile_confirmation" && $0["count"]?.int == 8 }
                }
                try await Task.sleep(for: .milliseconds(300))
                let confirmations = rig.world.events("hostile_confirmation")
                #expect(confirmations.count == 8, "confirmations: \(confirmations.count)")
                #expect(confirmations.last?["outstanding"]?.int == 0)
                try await rig.expectLinkUsable(p)
            }
        }

        /// Each request gets its response (Vol 3, Part A, §4.20); updates not yet taken by the
        /// controller are replaced by newer parameters, so the command queue stays short.
        @Test("A flood of Connection Parameter Update Requests: each answered, LE Connection Update at most once each, the link kept")
        func parameterUpdateFlood() async throws {
            let commands = CommandRecorder()
            try await HostileRig.run("", sinks: [commands]) { rig in
                let p = try await rig.connect()
                let count = 100
                let flood = try rig.world.control(#"{"cmd":"param_flood","device":"Heart 1","count":\#(count)}"#)
                #expect(flood["sent"]?.int == count)
                try await rig.world.wait("\(count) responses", timeout: 5) { e in
                    e.filter { $0["event"]?.string == "hostile_update_response" }.count >= count
                }
                let responses = rig.world.events("hostile_update_response")
                #expect(responses.count == count)
                #expect(responses.allSatisfy { $0["result"]?.int == 0 }, "not all accepted")
                #expect(responses.compactMap { $0["identifier"]?.int } == (0..<count).map { $0 % 255 + 1 }, "answers out of order")
                try await rig.expectLinkUsable(p)
                let updates = commands.opcodes.filter { $0 == 0x2013 }.count   // LE Connection Update (Vol 4, Part E, §7.8.18)
                #expect(updates >= 1 && updates <= count, "LE Connection Update sent \(updates) times")
                #expect(rig.world.events("disconnected").isEmpty)
            }
        }

        @Test("Advertising data whose AD length overruns: the device is listed with what decodes, the others as usual")
        func overrunningAdvertisingData() async throws {
            let world = try await WorldProcess.start(["--hostile", "bad_adv", "--distractors", "0"])
            defer { world.stop() }
            let dir = try PackagePaths.temporaryDirectory("badadv")
            defer { try? FileManager.default.removeItem(at: dir) }
            let r = try await RtstackProcess.run(["scan"] + WorldIntegration.adapter(world)
                                                 + ["--state-dir", dir.path, "--json", "--duration", "1.5"], timeout: 20)
            #expect(r.status == 0, "\(r.transcript)")
            let devices = r.events("device")
            func last(_ name: String) throws -> JSONValue? {
                let address = try world.device(name).address + "/random"
                return devices.last { $0["address"]?.string == address }
            }
            // Flags and the service list come before the overrunning name structure
            // (Core Spec v5.4 Vol 3, Part C, §11): they are kept; the name is not.
            let heart = try #require(try last("Heart 1"), "the hostile heart is not listed:\n\(r.transcript)")
            #expect(heart["services"]?.array?.compactMap(\.string).contains("180D") == true, "\(heart)")
            #expect(heart["name"] == nil, "a name decoded from an overrunning structure: \(heart)")
            for (name, service) in [("Speed 1", "1814"), ("Thingy 1", "EF680100-9B35-4933-9B10-52FFA9740042")] {
                let d = try #require(try last(name), "\(name) not listed")
                #expect(d["services"]?.array?.compactMap(\.string).contains(service) == true, "\(name): \(d)")
            }
        }
    }
}
