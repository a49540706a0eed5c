import Glibc
import Testing

/// Docs/systemd/rtstack-gateway.service as systemd itself reads it: `systemd-analyze verify`
/// (with ExecStart pointed at /bin/true, since the test does not install rtstack).
@Suite(.enabled(if: access("/usr/bin/systemd-analyze", X_OK) == 0, "systemd-analyze is not installed (Debian package systemd)"))
struct UnitFileTests {
    static var unitPath: String {
        // #filePath is <package>/Tests/ServiceTests/<this file>.
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/Docs/systemd/rtstack-gateway.service"
    }

    @Test func systemdAcceptsTheUnit() throws {
        guard let f = fopen(Self.unitPath, "r") else { Issue.record("cannot read \(Self.unitPath)"); return }
        var text: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&buffer, 1, buffer.count, f)
            if n <= 0 { break }
            text += buffer[0..<n]
        }
        fclose(f)
        let unit = String(decoding: text, as: UTF8.self)
        #expect(unit.contains("Type=notify") && unit.contains("WatchdogSec=") && unit.contains("ExecReload=/bin/kill -HUP $MAINPID"))
        let dir = "/tmp/rtstack-unit-\(getpid())"
        mkdir(dir, 0o700)
        let copy = dir + "/rtstack-gateway.service"
        let out = fopen(copy, "w")
        fputs(unit.replacingExecStart(), out)
        fclose(out)
        defer { unlink(copy); rmdir(dir) }
        guard let p = popen("/usr/bin/systemd-analyze verify '\(copy)' 2>&1; echo \"exit=$?\"", "r") else { Issue.record("popen failed"); return }
        var result: [UInt8] = []
        while true {
            let n = fread(&buffer, 1, buffer.count, p)
            if n <= 0 { break }
            result += buffer[0..<n]
        }
        pclose(p)
        let report = String(decoding: result, as: UTF8.self)
        #expect(report.hasSuffix("exit=0\n"), "\(report)")
        #expect(!report.contains("Unknown key") && !report.contains("Invalid"), "\(report)")
    }
}

extension String {
    func replacingExecStart() -> String {
        split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix("ExecStart=") ? "ExecStart=/bin/true" : String(line)
        }.joined(separator: "\n")
    }
}
