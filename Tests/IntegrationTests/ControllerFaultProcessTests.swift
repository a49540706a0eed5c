import Foundation
import Testing

/// The built `rtstack` against a scripted controller on a TCP port (`ScriptedTCPController`)
/// that fails: the transport cut in the middle of a packet, a bring-up command never answered.
/// Each run is bounded by a process timeout (a hang fails the test); the exit status is the one
/// README's table gives (3: the adapter or transport could not be opened or was lost).
@Suite("Controller faults against the rtstack process", .serialized)
struct ControllerFaultProcessTests {
    /// Reads a capture back with `rtstack decode --json`: its summary line.
    static func decodeSummary(_ capture: String) async throws -> JSONValue {
        let decoded = try await RtstackProcess.run(["decode", capture, "--json"], timeout: 20)
        #expect(decoded.status == 0, "\(decoded.transcript)")
        return try #require(decoded.events.last { $0["summary"]?.bool == true }, "no decode summary\n\(decoded.transcript)")
    }

    @Test("scan: transport closed mid-packet → exit 3 naming it, capture flushed with every packet before the cut")
    func transportClosedMidPacketDuringScan() async throws {
        let controller = try ScriptedTCPController(.cutMidPacket(advertisements: 5, partialBytes: 6))
        defer { controller.stop() }
        let dir = try PackagePaths.temporaryDirectory("cut-scan")
        defer { try? FileManager.default.removeItem(at: dir) }
        let capture = dir.appendingPathComponent("scan.btsnoop").path

        let r = try await RtstackProcess.run(["scan"] + controller.adapterArguments + ["--json", "--capture", capture], timeout: 20)
        #expect(controller.hasCut, "the controller never got to the cut: \(controller.commandsReceived)")
        #expect(r.status == 3, "\(r.transcript)")
        #expect(r.stderr.contains("in the middle of a packet"), "\(r.transcript)")
        #expect(r.stderr.contains("tcp:127.0.0.1:\(controller.port)"), "\(r.transcript)")
        #expect(r.stderr.contains("check that it still runs"), "the remedy (issue 17 §2): \(r.transcript)")
        #expect(r.elapsed < 10, "\(r.transcript)")
        // The five devices before the cut were reported.
        #expect(r.events("device").count == 5, "\(r.transcript)")

        let summary = try await Self.decodeSummary(capture)
        #expect(summary["decode_errors"]?.int == 0, "\(summary)")
        #expect(summary["types"]?["event"]?.int == controller.packetsSent, "\(summary), sent \(controller.packetsSent)")
        #expect((summary["types"]?["command"]?.int ?? 0) >= controller.commandsReceived.count, "\(summary)")
    }

    @Test("session: transport closed mid-packet → exit 3 naming it, capture flushed")
    func transportClosedMidPacketDuringSession() async throws {
        let controller = try ScriptedTCPController(.cutMidPacket(advertisements: 3, partialBytes: 2))
        defer { controller.stop() }
        let dir = try PackagePaths.temporaryDirectory("cut-session")
        defer { try? FileManager.default.removeItem(at: dir) }
        let capture = dir.appendingPathComponent("session.btsnoop").path

        let r = try await RtstackProcess.run(controller.adapterArguments + ["--json", "--state-dir", dir.appendingPathComponent("state").path,
                                                                           "--capture", capture],
                                             timeout: 20)
        #expect(controller.hasCut)
        #expect(r.status == 3, "\(r.transcript)")
        #expect(r.stderr.contains("in the middle of a packet"), "\(r.transcript)")
        #expect(r.elapsed < 10, "\(r.transcript)")

        let summary = try await Self.decodeSummary(capture)
        #expect(summary["decode_errors"]?.int == 0, "\(summary)")
        #expect(summary["types"]?["event"]?.int == controller.packetsSent, "\(summary), sent \(controller.packetsSent)")
    }

    @Test("scan: a bring-up command never answered → exit 3 naming the command, within the command timeout")
    func commandNeverAnsweredAtBringUpDuringScan() async throws {
        let controller = try ScriptedTCPController(.neverAnswer(.readBDADDR))
        defer { controller.stop() }
        let r = try await RtstackProcess.run(["scan"] + controller.adapterArguments + ["--duration", "30"], timeout: 20)
        #expect(r.status == 3, "\(r.transcript)")
        #expect(r.stderr.contains("Read BD_ADDR"), "\(r.transcript)")
        #expect(r.stderr.contains("no answer"), "\(r.transcript)")
        #expect(r.stderr.contains("check its cable or transport"), "the remedy (issue 17 §2): \(r.transcript)")
        // The command timeout is 2 s: the failure comes then, not at --duration.
        #expect(r.elapsed >= 1.9 && r.elapsed < 8, "\(r.transcript)")
        #expect(controller.commandsReceived.last == .readBDADDR)
    }

    @Test("session: a bring-up command never answered → exit 3 naming the command")
    func commandNeverAnsweredAtBringUpDuringSession() async throws {
        let controller = try ScriptedTCPController(.neverAnswer(.leReadBufferSize))
        defer { controller.stop() }
        let dir = try PackagePaths.temporaryDirectory("silent-session")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try await RtstackProcess.run(controller.adapterArguments + ["--json", "--duration", "30",
                                                                           "--state-dir", dir.path],
                                             timeout: 20)
        #expect(r.status == 3, "\(r.transcript)")
        #expect(r.stderr.contains("LE Read Buffer Size"), "\(r.transcript)")
        #expect(r.stderr.contains("no answer"), "\(r.transcript)")
        #expect(r.elapsed >= 1.9 && r.elapsed < 8, "\(r.transcript)")
    }

    @Test("scan: Hardware Error → the controller is reset and scanning resumes; exit 0 at --duration")
    func hardwareErrorDuringScanRecovers() async throws {
        let controller = try ScriptedTCPController(.hardwareErrorAfterScan(recover: true))
        defer { controller.stop() }
        let r = try await RtstackProcess.run(["scan"] + controller.adapterArguments + ["--json", "--duration", "3"], timeout: 20)
        #expect(r.status == 0, "\(r.transcript)")
        // Devices from before and after the reset.
        let addresses = Set(r.events("device").compactMap { $0["address"]?.string?.prefix(17).uppercased() })
        #expect(addresses == ["D0:00:00:00:00:00", "D0:00:00:00:00:01", "D0:00:00:00:00:0A", "D0:00:00:00:00:0B"], "\(r.transcript)")
        #expect(controller.commandsReceived.filter { $0 == .reset }.count == 2, "\(controller.commandsReceived)")
        #expect(controller.commandsReceived.filter { $0 == .leSetScanEnable }.count >= 2)
    }

    @Test("session: Hardware Error → reset, the error shown as a notice, scanning resumes; clean end")
    func hardwareErrorDuringSessionRecovers() async throws {
        let controller = try ScriptedTCPController(.hardwareErrorAfterScan(recover: true))
        defer { controller.stop() }
        let dir = try PackagePaths.temporaryDirectory("hw-session")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try await RtstackProcess.run(controller.adapterArguments + ["--json", "--duration", "3", "--state-dir", dir.path],
                                             timeout: 20)
        #expect(r.status == 0, "\(r.transcript)")
        let notices = r.events("notice").compactMap { $0["message"]?.string }
        #expect(notices.contains { $0.contains("Hardware Error") && $0.contains("0x2A") }, "\(r.transcript)")
        #expect(controller.commandsReceived.filter { $0 == .reset }.count == 2, "\(controller.commandsReceived)")
        #expect(controller.commandsReceived.filter { $0 == .leSetScanEnable }.count >= 2, "\(controller.commandsReceived)")
        #expect(r.summary != nil, "\(r.transcript)")
    }

    @Test("scan: Hardware Error and the reset never answered → exit 3 naming HCI_Reset")
    func hardwareErrorWithoutRecoveryDuringScan() async throws {
        let controller = try ScriptedTCPController(.hardwareErrorAfterScan(recover: false))
        defer { controller.stop() }
        let r = try await RtstackProcess.run(["scan"] + controller.adapterArguments + ["--json", "--duration", "60"], timeout: 25)
        #expect(r.status == 3, "\(r.transcript)")
        #expect(r.stderr.contains("Reset"), "\(r.transcript)")
        #expect(r.stderr.contains("no answer"), "\(r.transcript)")
        // The reset timeout is 5 s.
        #expect(r.elapsed >= 4.9 && r.elapsed < 15, "\(r.transcript)")
    }

    @Test("session: Hardware Error and the reset never answered → exit 3 naming HCI_Reset")
    func hardwareErrorWithoutRecoveryDuringSession() async throws {
        let controller = try ScriptedTCPController(.hardwareErrorAfterScan(recover: false))
        defer { controller.stop() }
        let dir = try PackagePaths.temporaryDirectory("hw-session-dead")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try await RtstackProcess.run(controller.adapterArguments + ["--json", "--duration", "60", "--state-dir", dir.path],
                                             timeout: 25)
        #expect(r.status == 3, "\(r.transcript)")
        #expect(r.stderr.contains("Reset"), "\(r.transcript)")
        #expect(r.elapsed >= 4.9 && r.elapsed < 15, "\(r.transcript)")
    }
}
