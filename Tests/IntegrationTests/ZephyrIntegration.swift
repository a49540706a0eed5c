import Foundation
import Testing

/// The product against a real link layer: Zephyr v2.5.0's controller and peripherals on
/// BabbleSim (../shared/bsim, `BsimWorld`), reached over `--adapter serial:PTY` — the serial
/// transport and its termios set-up against a real H4 peer.
///
/// Every test starts its own world and always stops it; worlds are independent (own sim id,
/// pty and folders), so the tests run in parallel. An idle world takes about 0.1 of a core.
/// The values asserted are the peripherals' own (Zephyr's samples, README of ../shared/bsim):
/// they are fixed by the firmware and the world's fixed seeds, not by this project. When the
/// world's folder is absent (a fresh clone without ../shared) the tests are skipped and say
/// so; `RTSTACK_BSIM_DIR` points at another copy.
@Suite("rtstack against Zephyr's link layer (BabbleSim)")
enum ZephyrIntegration {
    static let heartAddress = "E7:24:12:40:49:54/random"
    static let environmentAddress = "C4:02:95:2C:F1:AF/random"
    static let secureAddress = "FE:29:78:F2:29:80/random"

    /// Runs `body` with a fresh world of `peripherals` and a fresh state directory; the world
    /// is stopped and the directory removed however `body` ends, and nothing of the world may
    /// be left behind.
    /// `body` runs in the caller's isolation (a main-actor test's CoreBluetooth apps too).
    static func withWorld(_ peripherals: [String], label: String,
                          sourceLocation: SourceLocation = #_sourceLocation,
                          isolation: isolated (any Actor)? = #isolation,
                          _ body: (BsimWorld, URL) async throws -> Void) async throws {
        let world = try await BsimWorld.start(peripherals)
        let dir: URL
        do { dir = try PackagePaths.temporaryDirectory("zephyr-\(label)") } catch { await world.stop(); throw error }
        let outcome: Result<Void, any Error>
        do { try await body(world, dir); outcome = .success(()) } catch { outcome = .failure(error) }
        await world.stop()
        try? FileManager.default.removeItem(at: dir)
        #expect(world.leftBehind.isEmpty, "run-world left these behind (removed now): \(world.leftBehind)",
                sourceLocation: sourceLocation)
        try outcome.get()
    }

    /// Starts `rtstack ARGS --adapter serial:… --state-dir DIR` without a duration, waits (at
    /// most `timeout` s) until its JSON lines satisfy `enough`, then ends it as Ctrl-C does.
    /// The world is held to real time only from above: on a busy machine its simulated
    /// seconds run slower, so tests wait for what they need instead of a fixed time.
    static func rtstackUntil(_ arguments: [String], _ world: BsimWorld, _ dir: URL, timeout: Double,
                             sourceLocation: SourceLocation = #_sourceLocation,
                             until enough: @escaping ([JSONValue]) -> Bool) async throws -> (RtstackResult, Bool) {
        let p = try RtstackProcess(arguments + world.adapter + ["--state-dir", dir.path], timeout: timeout + 15)
        defer { p.kill() }
        let reached = await p.wait(timeout: timeout, until: enough)
        p.interrupt()
        return (try await p.finish(sourceLocation: sourceLocation), reached)
    }

    /// `rtstack ARGS --adapter serial:… --state-dir DIR`, bounded by `timeout`.
    static func rtstack(_ arguments: [String], _ world: BsimWorld, _ dir: URL, timeout: Double,
                        sourceLocation: SourceLocation = #_sourceLocation) async throws -> RtstackResult {
        try await RtstackProcess.run(arguments + world.adapter + ["--state-dir", dir.path], timeout: timeout,
                                     sourceLocation: sourceLocation)
    }
}
