import Foundation
import Testing

extension WorldIntegration.Security {
    /// Privacy end to end (Docs/security.md, "Privacy"): the world's `privacy` peer advertises
    /// with resolvable private addresses made by Bumble from its IRK, distributes the IRK and its
    /// public identity when pairing, and moves to a new RPA on `rotate`. Bumble's controller
    /// resolves nothing (world fix 7), so rtstack resolves in software.
    @Test("privacy: after pairing with its RPA and a new RPA, the peer scans as its identity and a read by identity reconnects with the bond (no second pairing)")
    func privacyReconnectByIdentity() async throws {
        let world = try await WorldProcess.start(Self.secureWorld("privacy"))
        defer { world.stop() }
        let dir = try PackagePaths.temporaryDirectory("privacy")
        defer { try? FileManager.default.removeItem(at: dir) }
        let base = WorldIntegration.adapter(world) + ["--state-dir", dir.path]
        let firstRPA = try world.device("Secure 1").address
        #expect(firstRPA.hasPrefix("4") || firstRPA.hasPrefix("5") || firstRPA.hasPrefix("6") || firstRPA.hasPrefix("7"),
                "a resolvable private address has top bits 0b01: \(firstRPA)")

        let pair = try await RtstackProcess.run(["pair", firstRPA + "/random"] + base, timeout: 40)
        try #require(pair.status == 0, "\(pair.transcript)")
        #expect(pair.stdout.joined(separator: "\n").contains("keys LTK, IRK"), "\(pair.transcript)")
        _ = try await world.wait("paired", timeout: 10) { $0.contains { $0["event"]?.string == "paired" } }
        let bonds = try await RtstackProcess.run(["bonds", "--state-dir", dir.path, "--json"], timeout: 10)
        let identity = try #require(bonds.events.first?["address"]?.string, "\(bonds.transcript)")
        #expect(identity.hasSuffix("/public"), "Bumble distributes its public address as the identity: \(identity)")

        let rotated = try world.control(#"{"cmd":"rotate","device":"Secure 1"}"#)
        let newRPA = try #require(rotated["address"]?.string)
        #expect(newRPA != firstRPA)

        let scan = try await RtstackProcess.run(["scan", "--duration", "2", "--json"] + base, timeout: 20)
        #expect(scan.status == 0, "\(scan.transcript)")
        let seen = scan.events.compactMap { $0["address"]?.string }
        #expect(seen.contains(identity), "the new RPA is reported as the identity: \(seen)")
        #expect(!seen.contains { $0.hasPrefix(newRPA) }, "\(seen)")

        let read = try await RtstackProcess.run(["read", identity, Self.encrypted] + base + ["--trace"], timeout: 40)
        #expect(read.status == 0, "\(read.transcript)")
        #expect(read.stdout.last?.contains("\"encrypted\"") == true, "\(read.transcript)")
        #expect(read.stderr.contains(newRPA), "LE Create Connection to the new RPA: \(read.stderr.suffix(4000))")
        #expect(read.stderr.contains("LE Enable Encryption") && !read.stderr.contains("Pairing Request"), "paired again")
        #expect(world.events("paired").count == 1)
    }
}
