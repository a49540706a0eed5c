import Testing
@testable import RTStackCLI

/// Options may come before the subcommand: `rtstack --adapter hci0 scan` is `rtstack scan
/// --adapter hci0`.
@Suite struct CommandOrderTests {
    @Test func theCommandAfterTheOptionsIsMovedToTheFront() {
        #expect(RTStackCLI.commandAfterOptions(["--adapter", "hci0", "scan", "--json"])
                == ["scan", "--adapter", "hci0", "--json"])
        #expect(RTStackCLI.commandAfterOptions(["--adapter=hci0", "--trace", "gatt", "AA:BB:CC:DD:EE:FF"])
                == ["gatt", "--adapter=hci0", "--trace", "AA:BB:CC:DD:EE:FF"])
        // A value that happens to be a command's name stays the option's value.
        #expect(RTStackCLI.commandAfterOptions(["--name", "scan", "--adapter", "hci0"]) == nil)
        // Only options: the run session.
        #expect(RTStackCLI.commandAfterOptions(["--adapter", "hci0", "--json"]) == nil)
        // A word that is no command: the session says what is wrong with it.
        #expect(RTStackCLI.commandAfterOptions(["--adapter", "hci0", "bogus"]) == nil)
    }
}

extension HCIAdapterCommandTests {
    @Test func aCommandAfterItsOptionsRunsAsThatCommand() async throws {
        let r = try await run(["--adapter", "tcp:127.0.0.1:9", "--duration", "1", "scan", "--json"])
        // scan's own error for a refused connection (the session would have started otherwise).
        #expect(r.code == .adapter, "\(r.err)")
        #expect(r.err.contains("127.0.0.1:9"), "\(r.err)")
        let bad = try await run(["--adapter", "hci0", "bogus"])
        #expect(bad.code == .usage)
        #expect(bad.err.contains("unexpected argument 'bogus'"), "\(bad.err)")
    }
}
