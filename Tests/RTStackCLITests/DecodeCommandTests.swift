import Testing
import Foundation
import RTStackCLI
import Capture
import Wire
import TestSupport

/// `rtstack decode` in-process, with its output captured in temporary files.
@Suite struct DecodeCommandTests {
    func run(_ args: [String]) async throws -> CLIRun {
        try await CLIRun.run(["decode"] + args)
    }

    func temporaryFile(_ bytes: [UInt8], suffix: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rtstack-\(UUID().uuidString)\(suffix)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func missingFileExitsWithInputError() async throws {
        let r = try await run(["/nonexistent/x.btsnoop"])
        #expect(r.code == .input)
        #expect(r.err.contains("/nonexistent/x.btsnoop"))
    }

    @Test func wrongMagicNamesTheProblem() async throws {
        let path = try temporaryFile(Array("hello, this is not a capture".utf8), suffix: ".btsnoop")
        defer { unlink(path) }
        let r = try await run([path])
        #expect(r.code == .input)
        #expect(r.err.contains("btsnoop"))
    }

    @Test func truncatedLastRecordKeepsEarlierPacketsAndExitsZero() async throws {
        var file = BtsnoopFormat.fileHeader()
        for i in 0..<3 {
            let rec = CaptureRecord(timestampMicros: 1_000_000 + Int64(i), direction: .hostToController,
                                    packet: HCIPacket(type: .command, bytes: [0x03, 0x0C, 0x00]))
            try BtsnoopFormat.appendRecord(rec, to: &file)
        }
        file.removeLast(2)
        let path = try temporaryFile(file, suffix: ".btsnoop")
        defer { unlink(path) }
        let r = try await run([path, "--brief"])
        #expect(r.code == .success)
        #expect(r.out.contains("     2 "))
        #expect(r.out.contains("Summary: 2 packets"))
        #expect(r.err.contains("offset"))
    }

    @Test func usageErrorsExitTwo() async throws {
        let none = try await run([])
        let bogus = try await run(["x", "--bogus"])
        let badFilter = try await run(["x", "--filter", "handle=nope"])
        #expect(none.code == .usage)
        #expect(bogus.code == .usage)
        #expect(badFilter.code == .usage)
    }

    @Test func jsonSummaryMatchesTheCapture() async throws {
        guard let path = SharedCaptures.path("smartwatch-android-dlt201.pcapng") else {
            print("skipped: ../shared/captures is absent (a fresh clone has no phone captures)")
            return
        }
        let r = try await run([path, "--json", "--filter", "att=notification"])
        #expect(r.code == .success)
        let lines = r.out.split(separator: "\n")
        #expect(lines.count == 277 + 1)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(lines.last!.utf8)) as? [String: Any])
        #expect(summary["packets"] as? Int == 810)
        #expect(summary["att_notifications"] as? Int == 277)
        #expect(summary["decode_errors"] as? Int == 0)
    }
}
