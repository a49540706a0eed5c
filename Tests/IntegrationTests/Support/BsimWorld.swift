import Foundation
import Synchronization
import Testing

/// One device of a Zephyr world as its ready line describes it.
struct BsimDevice: Sendable {
    /// `hr`, `esp`, `sc_only`.
    var name: String
    /// With its type: `E7:24:12:40:49:54/random`.
    var address: String
    var localName: String

    init?(_ j: JSONValue) {
        guard let n = j["name"]?.string, let a = j["address"]?.string, let l = j["local_name"]?.string else { return nil }
        name = n
        address = a
        localName = l
    }
}

/// The Zephyr world (../shared/bsim, its README): Zephyr v2.5.0's link layer and peripherals on
/// BabbleSim's simulated radio, with the controller as H4 on a pseudo-terminal, as a child
/// process of the test.
///
/// `run-world` is started with a command that waits for one line on its stdin (`read`), so the
/// world ends when the test says so (`stop()` writes that line) and also when the test
/// process dies in any way (the pipe closes, `read` sees end of file): a crashed test leaves
/// no simulation running for the 24 h of simulated time. `stop()` then checks that nothing
/// of the world is left (its processes, BabbleSim's fifo folder, the log folder) and removes
/// what is, by the world's own sim id.
final class BsimWorld: @unchecked Sendable {
    let hciPTY: String
    let simID: String
    let logDirectory: String
    /// What run-world measured from its start to the controller's answer to HCI_Reset.
    let readyMilliseconds: Int
    let devices: [BsimDevice]
    /// When the ready line arrived (the simulation's time runs from a moment before it).
    let readyAt: Date
    /// When run-world was started: the simulation cannot have run longer than since then (its
    /// handbrake holds it to real time), whenever the test got to read the ready line.
    let launchedAt: Date

    private let process: Process
    private let stdinPipe: Pipe
    private let out: LineCollector
    private let err: LineCollector
    private let stopped = Mutex(false)
    /// Whether this world still holds its `BsimWorldSlots` slot (given back once, at stop).
    private let holdsSlot = Mutex(true)
    private let leftovers = Mutex<[String]>([])

    /// Environment variable that points at another copy of the world.
    static let directoryVariable = "RTSTACK_BSIM_DIR"

    /// `$RTSTACK_BSIM_DIR`, else `../shared/bsim` next to the package root.
    static var directory: URL {
        if let d = ProcessInfo.processInfo.environment[directoryVariable], !d.isEmpty {
            return URL(fileURLWithPath: d, isDirectory: true)
        }
        return PackagePaths.root.deletingLastPathComponent().appendingPathComponent("shared/bsim", isDirectory: true)
    }

    /// `--adapter serial:PTY@1000000` (the pty ignores the rate; it is what a real nRF52 with
    /// Zephyr's hci_uart uses).
    var adapter: [String] { ["--adapter", "serial:\(hciPTY)@1000000"] }

    private init(process: Process, stdinPipe: Pipe, out: LineCollector, err: LineCollector, ready: JSONValue,
                 launchedAt: Date) throws {
        self.process = process
        self.launchedAt = launchedAt
        self.stdinPipe = stdinPipe
        self.out = out
        self.err = err
        readyAt = Date()
        guard let pty = ready["hci_pty"]?.string, let sim = ready["sim_id"]?.string, let logs = ready["log_dir"]?.string else {
            throw IntegrationFailure("run-world's ready line lacks hci_pty, sim_id or log_dir: \(ready)")
        }
        hciPTY = pty
        simID = sim
        logDirectory = logs
        readyMilliseconds = ready["ready_ms"]?.int ?? -1
        devices = ready["devices"]?.array?.compactMap(BsimDevice.init) ?? []
    }

    /// Starts a world with these peripherals and returns once its controller answered HCI_Reset
    /// (at most `timeout` s). Skips the test when the world's folder is absent (a fresh clone
    /// without ../shared); anything else that stops it fails the test.
    static func start(_ peripherals: [String], timeout: Double = 30) async throws -> BsimWorld {
        let dir = directory
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            try Test.cancel(Comment(rawValue: """
                the Zephyr world (BabbleSim) is not available: no folder \(dir.path) \
                (set \(directoryVariable) to its location)
                """))
        }
        let script = dir.appendingPathComponent("run-world")
        guard FileManager.default.isExecutableFile(atPath: script.path) else {
            throw IntegrationFailure("\(script.path) is missing or not executable")
        }
        await BsimWorldSlots.acquire()
        do {
            return try await launch(peripherals, script: script, in: dir, timeout: timeout)
        } catch {
            BsimWorldSlots.release()
            throw error
        }
    }

    /// `start` once a slot is held.
    private static func launch(_ peripherals: [String], script: URL, in dir: URL, timeout: Double) async throws -> BsimWorld {
        // Through `env --default-signal`: a child of the test process inherits its blocked
        // signal mask (TERM, INT, HUP, CHLD… are blocked on the threads that spawn), and
        // run-world blocked on TERM never stops its watchdog, so it would hang in its own
        // clean-up. env unblocks every signal and resets their handling before run-world starts.
        // The command ends at the first line (or end of file) on stdin; its status is 0 then.
        let launchedAt = Date()
        let child = try PipedChild.start(URL(fileURLWithPath: "/usr/bin/env"),
                                         ["--default-signal", script.path, "--peripherals", peripherals.joined(separator: ","),
                                          "--", "sh", "-c", "read -r line; exit 0"], in: dir)
        let (p, stdinPipe, out, err) = (child.process, child.stdin, child.out, child.err)
        let started = Date()
        func abandon(_ message: String) -> IntegrationFailure {
            try? stdinPipe.fileHandleForWriting.close()
            kill(p.processIdentifier, SIGTERM)
            return IntegrationFailure(message)
        }
        while true {
            if let line = out.lines.first(where: { $0.hasPrefix("{") }) {
                guard let ready = JSONValue.parse(line) else {
                    throw abandon("run-world's ready line is not JSON: \(line)\nstderr: \(err.text)")
                }
                do {
                    return try BsimWorld(process: p, stdinPipe: stdinPipe, out: out, err: err, ready: ready, launchedAt: launchedAt)
                } catch {
                    throw abandon("\(error)")
                }
            }
            if !p.isRunning {
                throw IntegrationFailure("""
                    run-world --peripherals \(peripherals.joined(separator: ",")) exited (status \(p.terminationStatus)) \
                    before its ready line; stderr:\n\(err.text)
                    """)
            }
            if seconds(since: started) > timeout {
                throw abandon("run-world was not ready within \(timeout) s; stderr:\n\(err.text)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// A device's console output so far (`ctrl`, `hr`, `esp`, `sc_only`, `phy`).
    func log(_ name: String) -> String {
        (try? String(contentsOfFile: logDirectory + "/\(name).log", encoding: .utf8)) ?? ""
    }

    var stderrText: String { err.text }

    /// What `stop()` found still there after the world should have ended and had to remove
    /// (empty when run-world cleaned up after itself).
    var leftBehind: [String] { leftovers.withLock { $0 } }

    /// Ends the world and leaves nothing of it: the command's line, then (bounded waits)
    /// SIGKILL to run-world, whose watchdog stops the simulation; whatever of this sim id is
    /// still there after that is killed by pid and removed. Safe to call twice. Async, so
    /// that the seconds of a slow stop never hold a thread of the test pool.
    func stop() async {
        guard markStopped() else { return }
        endCommand()
        if !(await waitForExit(seconds: 10)) {
            kill(process.processIdentifier, SIGKILL)
            _ = await waitForExit(seconds: 5)
        }
        // run-world's own clean-up has run (or its watchdog's is running): give the latter
        // its 1 s poll and 3 s grace, then do what is left by hand.
        let deadline = Date().addingTimeInterval(6)
        while !remains().isEmpty, Date() < deadline { try? await Task.sleep(for: .milliseconds(50)) }
        var found: [String] = []
        for pid in worldProcesses() {
            found.append("process \(pid)")
            kill(pid, SIGKILL)
        }
        for path in [logDirectory, comDirectory] where FileManager.default.fileExists(atPath: path) {
            found.append(path)
            try? FileManager.default.removeItem(atPath: path)
        }
        leftovers.withLock { $0 = found }
        giveBackSlot()
    }

    private func giveBackSlot() {
        if holdsSlot.withLock({ h -> Bool in defer { h = false }; return h }) { BsimWorldSlots.release() }
    }

    private func markStopped() -> Bool {
        stopped.withLock { s -> Bool in defer { s = true }; return !s }
    }

    /// The line the command waits for, and end of file after it.
    private func endCommand() {
        let stdin = stdinPipe.fileHandleForWriting
        try? stdin.write(contentsOf: Data("stop\n".utf8))
        try? stdin.close()
    }

    /// BabbleSim's fifo folder of this world: /tmp/bs_<user>/<sim id>.
    var comDirectory: String {
        let user = getpwuid(getuid()).flatMap { String(validatingCString: $0.pointee.pw_name) } ?? "\(getuid())"
        return "/tmp/bs_\(user)/\(simID)"
    }

    /// Processes, folders and files of this world that still exist.
    func remains() -> [String] {
        worldProcesses().map { "process \($0)" }
            + [logDirectory, comDirectory].filter { FileManager.default.fileExists(atPath: $0) }
    }

    /// Pids whose command line names this world's sim id (the devices, the phy, the watchdog).
    private func worldProcesses() -> [pid_t] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        let needle = Array(simID.utf8)
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry), pid != getpid(),
                  let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"), !data.isEmpty else { return nil }
            let bytes = [UInt8](data)
            guard bytes.count >= needle.count else { return nil }
            for i in 0...(bytes.count - needle.count) where bytes[i] == needle[0] && Array(bytes[i..<(i + needle.count)]) == needle {
                return pid
            }
            return nil
        }
    }

    private func waitForExit(seconds limit: Double) async -> Bool {
        let start = Date()
        while process.isRunning {
            if seconds(since: start) > limit { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    /// A world nobody stopped (a harness bug) still ends: run-world cleans up after its command.
    deinit {
        if markStopped() { endCommand() }
        giveBackSlot()
    }
}
