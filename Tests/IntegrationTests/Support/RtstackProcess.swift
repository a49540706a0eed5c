import Foundation
import Synchronization
import Testing

/// What one `rtstack` run printed and how it ended.
struct RtstackResult: Sendable {
    var program: String
    var arguments: [String]
    var status: Int32
    var stdout: [String]
    var stderr: String
    var elapsed: Double
    /// stdout lines parsed as JSON (JSON Lines output).
    var events: [JSONValue]

    func events(_ name: String) -> [JSONValue] { events.filter { $0["event"]?.string == name } }

    /// For messages: the command and what it said.
    var transcript: String {
        "\(program) \(arguments.joined(separator: " ")) → status \(status) after \(String(format: "%.2f", elapsed)) s\n"
            + "stdout (\(stdout.count) lines, last 20):\n" + stdout.suffix(20).joined(separator: "\n")
            + "\nstderr:\n" + stderr
    }
}

/// The built `rtstack` as a child process: stdout lines and stderr read on threads, a hard
/// time limit after which it is killed and the test fails.
final class RtstackProcess: @unchecked Sendable {
    let arguments: [String]
    let timeout: Double
    private let process = Process()
    private let out: LineCollector
    private let err: LineCollector
    private let started: Date
    /// When the child exited, stamped on Foundation's own thread: `elapsed` is then the
    /// child's run time, not the time until a busy test pool got round to looking.
    private let exit = ExitStamp()
    private var input: Pipe?

    /// One line to its stdin (started with `stdin: true`).
    func send(_ line: String) {
        try? input?.fileHandleForWriting.write(contentsOf: Array((line + "\n").utf8))
    }

    /// Starts `rtstack ARGUMENTS`; fails the test (never skips) when the product is not built.
    convenience init(_ arguments: [String], timeout: Double, stdin: Bool = false) throws {
        try self.init(executable: try PackagePaths.rtstackBinary(), arguments, timeout: timeout, stdin: stdin)
    }

    /// Starts another program the same way (tshark). With `stdin`, `send` writes lines to it.
    init(executable: URL, _ arguments: [String], timeout: Double, stdin: Bool = false) throws {
        self.arguments = arguments
        self.timeout = timeout
        process.executableURL = executable
        process.arguments = arguments
        let o = Pipe(), e = Pipe()
        if stdin {
            let i = Pipe()
            input = i
            process.standardInput = i
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        process.standardOutput = o
        process.standardError = e
        process.terminationHandler = { [exit] _ in exit.stamp() }
        try process.run()
        started = Date()
        out = LineCollector(o.fileHandleForReading)
        err = LineCollector(e.fileHandleForReading)
    }

    /// Runs to the end and returns what it printed.
    static func run(_ arguments: [String], timeout: Double,
                    sourceLocation: SourceLocation = #_sourceLocation) async throws -> RtstackResult {
        let p = try RtstackProcess(arguments, timeout: timeout)
        return try await p.finish(sourceLocation: sourceLocation)
    }

    /// Runs another program to the end (found on PATH or in /usr/bin).
    static func runTool(_ name: String, _ arguments: [String], timeout: Double,
                        sourceLocation: SourceLocation = #_sourceLocation) async throws -> RtstackResult {
        let path = ((ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin"])
            .map { URL(fileURLWithPath: $0).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
        guard let path else { throw IntegrationFailure("\(name) is not installed (scripts/setup installs it)") }
        let p = try RtstackProcess(executable: path, arguments, timeout: timeout)
        return try await p.finish(sourceLocation: sourceLocation)
    }

    var events: [JSONValue] { out.json }
    /// What it wrote to stderr so far.
    var stderrText: String { err.text }
    var elapsed: Double {
        guard let end = exit.date else { return seconds(since: started) }
        return end.timeIntervalSince(started)
    }
    var isRunning: Bool { process.isRunning }

    /// Waits until the JSON lines so far satisfy `ready`; false on time-out or exit.
    func wait(timeout: Double, until ready: ([JSONValue]) -> Bool) async -> Bool {
        await out.wait(timeout: timeout, until: ready)
    }

    /// Waits for the exit (killing it at the time limit, which fails the test) and for the
    /// end of its output.
    func finish(sourceLocation: SourceLocation = #_sourceLocation) async throws -> RtstackResult {
        while process.isRunning {
            if elapsed > timeout {
                kill()
                let r = result()
                Issue.record("\(process.executableURL?.lastPathComponent ?? "?") did not end within \(timeout) s; killed.\n\(r.transcript)", sourceLocation: sourceLocation)
                throw IntegrationFailure("hung: \(arguments.joined(separator: " "))")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        let drained = Date()
        while !(out.isFinished && err.isFinished), seconds(since: drained) < 5 {
            try await Task.sleep(for: .milliseconds(10))
        }
        return result()
    }

    private func result() -> RtstackResult {
        RtstackResult(program: process.executableURL?.lastPathComponent ?? "?", arguments: arguments, status: process.isRunning ? -1 : process.terminationStatus,
                      stdout: out.lines, stderr: err.text, elapsed: elapsed, events: out.json)
    }

    /// SIGINT, as Ctrl-C: rtstack ends cleanly (links disconnected, summary printed).
    func interrupt() {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGINT)
    }

    /// SIGKILL if still running, and reap it.
    func kill() {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { kill() }
}

/// The child's exit time, set once from the termination handler.
private final class ExitStamp: Sendable {
    private let value = Mutex<Date?>(nil)
    func stamp() { value.withLock { if $0 == nil { $0 = Date() } } }
    var date: Date? { value.withLock { $0 } }
}
