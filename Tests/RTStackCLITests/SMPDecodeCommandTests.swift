import Foundation
import Testing
import TestSupport
import Wire

/// `rtstack decode` on a capture of a pairing: keys are shown only when asked for
/// (the dissector's own redaction is `SMPDissectionTests`).
@Suite struct SMPDecodeCommandTests {
    @Test func decodeCommandShowsKeysOnlyWithShowKeys() async throws {
        let path = try SMPPairingCapture.capture()
        defer { unlink(path) }
        func run(_ args: [String]) async throws -> String {
            try await CLIRun.run(["decode", path, "--no-gatt-cache"] + args).out
        }
        let plain = try await run(["--hex"])
        let shown = try await run(["--hex", "--show-keys"])
        #expect(!plain.contains(Hex.spaced(SMPPairingCapture.irk)) && shown.contains(Hex.spaced(SMPPairingCapture.irk)))
        #expect(plain.contains("Identity Resolving Key: (redacted)"))
        #expect(plain.contains("Long term key: (redacted)"))
        #expect(shown.contains("Long term key: " + Hex.spaced(SMPPairingCapture.ltk)))
    }
}
