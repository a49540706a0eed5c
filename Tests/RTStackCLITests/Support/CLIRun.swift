import Foundation
import RTStackCLI

/// One `rtstack` command line run in-process, its stdout and stderr caught in temporary files.
struct CLIRun {
    var code: ExitCode
    var out: String
    var err: String

    static func run(_ args: [String]) async throws -> CLIRun {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rtstack-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let outPath = dir.appendingPathComponent("out").path
        let errPath = dir.appendingPathComponent("err").path
        let outFD = open(outPath, O_CREAT | O_WRONLY | O_TRUNC, 0o600)
        let errFD = open(errPath, O_CREAT | O_WRONLY | O_TRUNC, 0o600)
        let code = await RTStackCLI.run(args, console: Console(out: OutputStream(fd: outFD), err: OutputStream(fd: errFD)))
        close(outFD)
        close(errFD)
        return CLIRun(code: code, out: try String(contentsOfFile: outPath, encoding: .utf8),
                      err: try String(contentsOfFile: errPath, encoding: .utf8))
    }
}
