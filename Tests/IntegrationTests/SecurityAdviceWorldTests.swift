import Foundation
import Testing

extension WorldIntegration.Security {
    // Issue 17 §2: errors that say what happened and what to do, against Bumble peers.

    @Test("a read that needs an authenticated bond, run from a script (no terminal, no --passkey): the error says rtstack could offer only Just Works and names --passkey -; with --passkey - it reads")
    func authenticationNeededFromAScript() async throws {
        let world = try await WorldProcess.start(Self.secureWorld("passkey-display"))
        defer { world.stop() }
        let dir = try PackagePaths.temporaryDirectory("advice-mitm")
        defer { try? FileManager.default.removeItem(at: dir) }
        let peer = try world.device("Secure 1").address + "/random"
        let base = ["read", peer, Self.authenticated] + WorldIntegration.adapter(world) + ["--state-dir", dir.path]
        let r = try await RtstackProcess.run(base, timeout: 40)
        #expect(r.status == 1, "\(r.transcript)")
        let err = r.stderr
        #expect(err.contains("Insufficient Authentication"), "\(r.transcript)")
        #expect(err.contains("the peer needs an authenticated (MITM-protected) bond"), "\(r.transcript)")
        #expect(err.contains("rtstack could offer only Just Works"), "\(r.transcript)")
        #expect(err.contains("--passkey -") && err.contains("--io-capability"), "\(r.transcript)")

        // The remedy it names works: the passkey the peer shows, typed on stdin when asked.
        let typed = try RtstackProcess(base + ["--passkey", "-"], timeout: 40, stdin: true)
        typed.send("123456")
        let t = try await typed.finish()
        #expect(t.status == 0, "\(t.transcript)")
        #expect(t.stdout.last?.contains("\"authenticated\"") == true, "\(t.transcript)")
    }

    @Test("a peer that keeps a single bond refuses a new pairing with Unspecified Reason: the error names the common causes")
    func singleBondPeerRefuses() async throws {
        let world = try await WorldProcess.start(Self.secureWorld("single-bond"))
        defer { world.stop() }
        let dir = try PackagePaths.temporaryDirectory("advice-single-bond")
        defer { try? FileManager.default.removeItem(at: dir) }
        let peer = try world.device("Secure 1").address + "/random"
        let pair = ["pair", peer] + WorldIntegration.adapter(world) + ["--state-dir", dir.path]
        let first = try await RtstackProcess.run(pair, timeout: 40)
        try #require(first.status == 0, "\(first.transcript)")
        _ = try await world.wait("paired", timeout: 10) { $0.contains { $0["event"]?.string == "paired" } }

        let again = try await RtstackProcess.run(pair, timeout: 40)
        #expect(again.status == 1, "\(again.transcript)")
        #expect(again.stderr.contains("Unspecified Reason"), "\(again.transcript)")
        #expect(again.stderr.contains("it keeps a single bond and already has one"), "\(again.transcript)")
        #expect(again.stderr.contains("not in pairing mode"), "\(again.transcript)")

        // The same refusal while connecting a link that must be secure says it too.
        let other = try PackagePaths.temporaryDirectory("advice-single-bond-other")
        defer { try? FileManager.default.removeItem(at: other) }
        let read = try await RtstackProcess.run(["read", peer, Self.encrypted, "--security", "medium"] + WorldIntegration.adapter(world)
                                                + ["--state-dir", other.path], timeout: 40)
        #expect(read.status == 1, "\(read.transcript)")
        #expect(read.stderr.contains("Unspecified Reason") && read.stderr.contains("it keeps a single bond and already has one"),
                "\(read.transcript)")
    }

    @Test("write --signed on an encrypted link goes as Write Without Response (Vol 3, Part G, §4.9.2), said once, no bond needed")
    func signedWriteOnAnEncryptedLink() async throws {
        let world = try await WorldProcess.start(["--speed", "0", "--environment", "0", "--distractors", "0", "--rate", "0"])
        defer { world.stop() }
        let dir = try PackagePaths.temporaryDirectory("signed-encrypted")
        defer { try? FileManager.default.removeItem(at: dir) }
        let heart = try world.device("Heart 1").address + "/random"
        let r = try await RtstackProcess.run(["write", heart, "2A39", "01", "--signed", "--security", "medium"]
                                             + WorldIntegration.adapter(world) + ["--state-dir", dir.path], timeout: 40)
        #expect(r.status == 0, "\(r.transcript)")
        #expect(r.stdout.last == "wrote 1 byte(s) to 0x0012 without response" || r.stdout.last?.hasSuffix("without response") == true,
                "\(r.transcript)")
        let notices = r.stderr.components(separatedBy: "§4.9.2").count - 1
        #expect(notices == 1, "one notice: \(r.transcript)")
        try await world.wait("the control point written", timeout: 5) { e in
            e.contains { $0["event"]?.string == "hr_control_point" && $0["accepted"]?.bool == true }
        }
        #expect(world.events("signed_write").isEmpty, "nothing signed went out")
    }
}
