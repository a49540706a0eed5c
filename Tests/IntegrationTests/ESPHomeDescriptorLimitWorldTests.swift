import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// util-linux's prlimit(1), which sets the limits of a running process.
private let prlimitPath = "/usr/bin/prlimit"

/// `rtstack gateway --esphome` at its file descriptor limit, for real: the running gateway's
/// RLIMIT_NOFILE is lowered with prlimit(1) to two more than it holds open, and four clients
/// connect. Two are taken; the other two wait in the listener's backlog, and accept(2) fails with
/// EMFILE while they do. Before the listener rested at the limit, the gateway spun on that
/// failure (2 s of CPU in 3 s, measured); now it sleeps, says so once with the remedy, and takes
/// the waiting clients when two descriptors come free. The unit-level half, with the failure
/// injected, is Tests/RTStackCLITests/Gateway/ESPHomeServerDescriptorLimitTests.swift.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: prlimitPath),
                             "prlimit (util-linux) is not installed: `apt-get install util-linux`"))
struct ESPHomeDescriptorLimitWorldTests {

    /// A plain TCP connection to the proxy's port on 127.0.0.1 (it never says hello: what it
    /// costs the gateway is the descriptor).
    final class Connection {
        let fd: Int32

        init(port: Int) throws {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            let rc = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard fd >= 0, rc == 0 else { throw IntegrationFailure("cannot connect to 127.0.0.1:\(port): errno \(errno)") }
        }

        func close() { _ = Glibc.close(fd) }
    }

    /// The process's CPU time (user + system, every thread) in seconds, from /proc/PID/stat.
    static func cpuSeconds(_ pid: Int32) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")") else { return nil }
        // After the command in parentheses: state is field 3; utime and stime are 14 and 15.
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    @Test(.timeLimit(.minutes(2)))
    func atItsDescriptorLimitTheProxyRestsInsteadOfSpinningAndTakesTheWaitingClientsOnceDescriptorsAreFree() async throws {
        let world = try await WorldProcess.start(["--heart", "1", "--speed", "0", "--environment", "0", "--distractors", "0"])
        defer { world.stop() }
        let directory = try PackagePaths.temporaryDirectory("fdlimit")
        let gateway = try GatewayProcess(["--adapter", "tcp:127.0.0.1:\(world.hciPort)", "--esphome", "127.0.0.1:0",
                                          "--state-dir", directory.path, "--control-socket", "off", "--log-level", "info"])
        let port = try await ProxyClientRun.listeningPort(gateway)
        try await Task.sleep(for: .milliseconds(500))
        let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(gateway.pid)/fd").count
        let limit = open + 2
        let lower = Process()
        lower.executableURL = URL(fileURLWithPath: prlimitPath)
        lower.arguments = ["--pid", "\(gateway.pid)", "--nofile=\(limit):\(limit)"]
        try lower.run()
        lower.waitUntilExit()
        try #require(lower.terminationStatus == 0, "prlimit could not lower the gateway's descriptor limit")

        var connections: [Connection] = []
        defer { for c in connections { c.close() } }
        for _ in 0..<4 { connections.append(try Connection(port: port)) }
        try await Task.sleep(for: .milliseconds(1500))
        let before = try #require(Self.cpuSeconds(gateway.pid))
        try await Task.sleep(for: .seconds(2))
        let after = try #require(Self.cpuSeconds(gateway.pid))
        #expect(after - before < 0.3, "the gateway used \(after - before) s of CPU in 2 s with clients waiting at its descriptor limit: it spins")
        let warnings = gateway.stderrLines.filter { $0.contains("cannot accept a connection") }
        #expect(warnings.count == 1, "said once while the shortage lasts: \(warnings)")
        #expect(warnings.first?.contains("EMFILE: its limit is \(limit)") == true, "\(gateway.transcript)")
        #expect(warnings.first?.contains("ulimit -n") == true)

        // Two taken clients go: their descriptors are free, and the two that waited are taken.
        connections.removeFirst().close()
        connections.removeFirst().close()
        let started = Date()
        while Date().timeIntervalSince(started) < 10,
              !gateway.stderrLines.contains(where: { $0.contains("accepting connections again") }) {
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(gateway.stderrLines.contains { $0.contains("accepting connections again") }, "\(gateway.transcript)")
        #expect(gateway.isRunning)
        #expect(await gateway.terminate() == 0, "\(gateway.transcript)")
    }
}
