import Capture
import Foundation
import HostCore
import Runtime
import SecurityCrypto
import Testing
import Wire

extension WorldIntegration.Security {
    /// `--address rpa` against Bumble's controller (Docs/security.md, "Own address: resolvable
    /// private"): the address bring-up sets is an RPA that the IRK rtstack keeps in its state
    /// directory resolves, and the scan runs with it.
    @Test("scan --address rpa sets an RPA of the state directory's IRK and scans with Own_Address_Type random")
    func scanWithResolvablePrivateAddress() async throws {
        let world = try await WorldProcess.start()
        defer { world.stop() }
        let dir = try PackagePaths.temporaryDirectory("rpa")
        defer { try? FileManager.default.removeItem(at: dir) }
        let capture = dir.appendingPathComponent("scan.btsnoop").path
        let scan = try await RtstackProcess.run(["scan", "--address", "rpa", "--duration", "1.5", "--json", "--capture", capture]
                                                + WorldIntegration.adapter(world) + ["--state-dir", dir.path], timeout: 20)
        #expect(scan.status == 0, "\(scan.transcript)")
        let heart = try world.device("Heart 1").address
        #expect(scan.events("device").contains { $0["address"]?.string == heart + "/random" }, "\(scan.transcript)")

        let irk = try #require(SecuritySetup.identityResolvingKey(StateDirectory(path: dir.path)))
        var reader = try CaptureReader(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: capture))))
        let commands = try reader.readAll().filter { $0.direction == .hostToController && $0.packet.type == .command }
            .compactMap { try? HCICommandPacket($0.packet) }
        let set = commands.filter { $0.opcode == .leSetRandomAddress }.compactMap { try? $0.decode(LESetRandomAddress.self) }
        let address = try #require(set.first?.randomAddress, "no LE Set Random Address in the capture")
        let parts = try #require(address.resolvablePrivateParts, "\(address) is not a resolvable private address")
        #expect(NettleCryptography().ah(irk: irk, prand: parts.prand) == parts.hash, "\(address) does not resolve with the IRK")
        #expect(address.isValidRandomAddress)
        let own = commands.compactMap { c -> LEOwnAddressType? in
            if c.opcode == .leSetExtendedScanParameters { return (try? c.decode(LESetExtendedScanParameters.self))?.ownAddressType }
            if c.opcode == .leSetScanParameters { return (try? c.decode(LESetScanParameters.self))?.ownAddressType }
            return nil
        }
        #expect(!own.isEmpty && own.allSatisfy { $0 == .randomDevice }, "\(own)")
    }
}
