import Foundation
import HostCore
import Testing
@testable import RTStackCLI
import Runtime

/// `--address rpa` (Docs/security.md, "Own address: resolvable private"): on the HCI backend a
/// host configuration with a rotated resolvable private address and rtstack's IRK from the
/// state directory; refused with the kernel backend, which owns the adapter's address.
@Suite struct OwnAddressOptionTests {
    static func options(_ words: [String]) throws(UsageError) -> AdapterOptions {
        try AdapterOptions(ParsedArguments(words, spec: OptionParsingTests.spec))
    }

    @Test func rpaOnTCPIsRotatedWithTheStateDirectorysIRK() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rtstack-rpa-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let o = try Self.options(["--adapter", "tcp:127.0.0.1:9000", "--address", "rpa", "--state-dir", dir.path])
        let c = o.hostConfiguration()
        #expect(c.ownAddress == .resolvablePrivate(rotation: HostConfiguration.OwnAddress.privateAddressTimeout))
        let irk = SecuritySetup.identityResolvingKey(StateDirectory(path: dir.path))
        #expect(irk != nil && c.security.pairing.localIdentity?.irk == irk)
        let identity = try #require(c.security.pairing.localIdentity?.address)
        #expect(identity.address.randomKind == .staticAddress, "the identity given to peers stays the static address")
    }

    @Test func rpaWithTheKernelBackendIsAUsageErrorNamingWhy() {
        do throws(UsageError) {
            _ = try Self.options(["--adapter", "hci0", "--backend", "kernel", "--address", "rpa"])
            Issue.record("--address rpa was accepted with --backend kernel")
        } catch {
            #expect(error.message.contains("kernel manages"), "\(error.message)")
            #expect(error.message.contains("btmgmt privacy on"))
        }
    }
}
