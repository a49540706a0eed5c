import Foundation

/// A child process with a pipe on each standard stream, its stdout and stderr read on threads
/// of their own (`LineCollector`), so it never blocks on output: how the test worlds are run.
struct PipedChild {
    let process: Process
    let stdin: Pipe
    let out: LineCollector
    let err: LineCollector

    /// `environment` replaces the test's own when given.
    static func start(_ executable: URL, _ arguments: [String], in directory: URL,
                      environment: [String: String]? = nil) throws -> PipedChild {
        let p = Process()
        p.executableURL = executable
        p.arguments = arguments
        p.currentDirectoryURL = directory
        if let environment { p.environment = environment }
        let stdinPipe = Pipe(), stdoutPipe = Pipe(), stderrPipe = Pipe()
        p.standardInput = stdinPipe
        p.standardOutput = stdoutPipe
        p.standardError = stderrPipe
        try p.run()
        return PipedChild(process: p, stdin: stdinPipe, out: LineCollector(stdoutPipe.fileHandleForReading),
                          err: LineCollector(stderrPipe.fileHandleForReading))
    }
}
