import Foundation
import Synchronization
import TestSupport
import Testing

/// One MQTT message as `mosquitto_sub` printed it.
struct BrokerMessage: Sendable {
    var topic: String
    var payload: String
    var qos: Int
    var retained: Bool

    var json: JSONValue? { JSONValue.parse(payload) }
    /// A measurement's `value` as a number.
    var value: Double? { json?["value"]?.double }
}

/// Debian's `mosquitto_sub` as a child process, an independent subscriber: one line per message,
/// "QOS RETAIN TOPIC PAYLOAD", read on a thread so that it never blocks the broker.
/// `clientID` makes it a durable subscriber (clean session off): the broker keeps what it misses.
final class BrokerSubscriber: @unchecked Sendable {
    private let child: PipedChild

    init(port: UInt16, filters: [String], clientID: String? = nil) throws {
        var args = ["-h", "127.0.0.1", "-p", "\(port)", "-q", "1", "-F", "%q %r %t %p"]
        if let clientID { args += ["-c", "-i", clientID] }
        for f in filters { args += ["-t", f] }
        child = try PipedChild.start(URL(fileURLWithPath: "/usr/bin/mosquitto_sub"), args, in: PackagePaths.root)
    }

    var messages: [BrokerMessage] {
        child.out.lines.compactMap { line in
            let parts = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
            guard parts.count >= 3, let qos = Int(parts[0]) else { return nil }
            return BrokerMessage(topic: String(parts[2]), payload: parts.count > 3 ? String(parts[3]) : "", qos: qos,
                                 retained: parts[1] == "1")
        }
    }

    func messages(_ topic: String) -> [BrokerMessage] { messages.filter { $0.topic == topic } }

    /// Waits until the messages so far satisfy `ready`.
    @discardableResult
    func wait(_ what: String, timeout: Double, until ready: @escaping ([BrokerMessage]) -> Bool) async throws -> [BrokerMessage] {
        let start = Date()
        while true {
            let m = messages
            if ready(m) { return m }
            if seconds(since: start) > timeout {
                throw IntegrationFailure("the subscriber did not see \(what) within \(timeout) s; last messages:\n"
                                         + m.suffix(15).map { "\($0.topic) \($0.payload)" }.joined(separator: "\n")
                                         + "\nstderr: \(child.err.text)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    var errorText: String { child.err.text }

    /// SIGKILL: a child of the test process starts with the test thread's blocked signals
    /// (TERM among them), so it would not hear a SIGTERM.
    func stop() {
        if child.process.isRunning {
            kill(child.process.processIdentifier, SIGKILL)
            child.process.waitUntilExit()
        }
    }

    deinit { stop() }
}

/// `rtstack gateway` as a long-running child: its own environment (NOTIFY_SOCKET, JOURNAL_STREAM),
/// stderr kept, signals from the test.
final class GatewayProcess: @unchecked Sendable {
    let arguments: [String]
    private let process = Process()
    private let err: LineCollector
    private let out: LineCollector

    /// `stderr`: a pipe of the test's (to give its inode to JOURNAL_STREAM); else one made here.
    init(_ arguments: [String], environment extra: [String: String] = [:], stderr: Pipe? = nil) throws {
        self.arguments = arguments
        process.executableURL = try PackagePaths.rtstackBinary()
        process.arguments = ["gateway"] + arguments
        var env = ProcessInfo.processInfo.environment
        for k in ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "JOURNAL_STREAM", "RUNTIME_DIRECTORY"] { env[k] = nil }
        for (k, v) in extra { env[k] = v }
        process.environment = env
        let e = stderr ?? Pipe(), o = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = o
        process.standardError = e
        try process.run()
        err = LineCollector(e.fileHandleForReading)
        out = LineCollector(o.fileHandleForReading)
    }

    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }
    var stderrLines: [String] { err.lines }

    func signal(_ s: Int32) {
        if process.isRunning { kill(process.processIdentifier, s) }
    }

    /// SIGTERM, then the exit status (nil: still running after `timeout`, then killed).
    func terminate(timeout: Double = 15) async -> Int32? {
        signal(SIGTERM)
        return await exitStatus(timeout: timeout)
    }

    func exitStatus(timeout: Double) async -> Int32? {
        let start = Date()
        while process.isRunning {
            if seconds(since: start) > timeout {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                return nil
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return process.terminationStatus
    }

    var transcript: String {
        "rtstack gateway \(arguments.joined(separator: " ")) — stderr (last 30):\n" + err.lines.suffix(30).joined(separator: "\n")
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}

/// What a gateway of the tests publishes about one device.
struct PublishedDevice {
    let messages: [BrokerMessage]
    let base: String

    init(_ messages: [BrokerMessage], gateway: String, device: String) {
        self.messages = messages
        base = "rtstack/\(gateway)/\(device)/"
    }

    func values(_ quantity: String) -> [Double] {
        messages.filter { $0.topic == base + quantity }.compactMap(\.value)
    }

    var states: [JSONValue] { messages.filter { $0.topic == base + "state" }.compactMap(\.json) }

    var lastState: JSONValue? { states.last }
}

enum GatewayChecks {
    /// The published values of one characteristic against what the world sent, in order:
    /// each notification exactly once (no gap, no repeat), none missing but the last few that
    /// were in flight when the gateway stopped.
    static func exactlyOnceInOrder(published: [Double], sent: [Double], tail: Int = 3, _ what: String,
                                   sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!sent.isEmpty, "\(what): the world sent nothing", sourceLocation: sourceLocation)
        let difference = zip(published, sent).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? -1
        #expect(published.count <= sent.count && Array(sent.prefix(published.count)) == published,
                "\(what): published \(published.count) values that are not the first of the \(sent.count) sent, in order: first difference at \(difference)",
                sourceLocation: sourceLocation)
        #expect(sent.count - published.count <= tail,
                "\(what): \(sent.count - published.count) of \(sent.count) notifications never reached the broker",
                sourceLocation: sourceLocation)
    }

    /// For `seq`-valued quantities: with re-sending (QoS 1 across a broker restart) duplicates
    /// may come, but every value from the first to the last, in order of first arrival.
    static func noGaps(published: [Double], sent: [Double], tail: Int = 3, _ what: String,
                       sourceLocation: SourceLocation = #_sourceLocation) {
        var seen = Set<Double>()
        let firsts = published.filter { seen.insert($0).inserted }
        #expect(firsts == firsts.sorted(), "\(what): out of order", sourceLocation: sourceLocation)
        exactlyOnceInOrder(published: firsts, sent: sent, tail: tail, what, sourceLocation: sourceLocation)
    }
}

/// A Unix datagram socket standing in for systemd's notification socket: every datagram the
/// gateway sends (READY=1, WATCHDOG=1, RELOADING=1 …), in order.
final class NotifyListener: @unchecked Sendable {
    let path: String
    private let fd: Int32
    private let received = Mutex<[String]>([])
    private let stopped = Mutex(false)

    init(directory: URL) throws {
        path = directory.appendingPathComponent("notify.sock").path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw IntegrationFailure("socket(AF_UNIX, SOCK_DGRAM): errno \(errno)") }
        let rc = withUnixAddress(path) { bind(fd, $0, $1) }
        guard rc == 0 else { throw IntegrationFailure("bind \(path): errno \(errno)") }
        var tv = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        let thread = Thread { [self] in self.readLoop() }
        thread.start()
    }

    private func readLoop() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !stopped.withLock({ $0 }) {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 { received.withLock { $0.append(String(decoding: buffer[0..<n], as: UTF8.self)) } }
        }
        close(fd)
    }

    var datagrams: [String] { received.withLock { $0 } }

    func wait(_ what: String, timeout: Double, until ready: @escaping ([String]) -> Bool) async throws {
        let start = Date()
        while !ready(datagrams) {
            if seconds(since: start) > timeout {
                throw IntegrationFailure("no \(what) on the notification socket within \(timeout) s: \(datagrams.suffix(10))")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    deinit {
        stopped.withLock { $0 = true }
        unlink(path)
    }
}

/// A program using the gateway's control socket: request lines out, answer and event lines in.
final class ControlSocketClient: @unchecked Sendable {
    private let handle: FileHandle
    private let lines: LineCollector

    init(path: String) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        let rc = withUnixAddress(path) { connect(fd, $0, $1) }
        guard fd >= 0, rc == 0 else { throw IntegrationFailure("cannot connect to the control socket \(path): errno \(errno)") }
        handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        lines = LineCollector(handle)
    }

    func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(handle.fileDescriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    var received: [JSONValue] { lines.json }

    /// Sends a request with `"id"` and waits for the answer with that id.
    func call(_ request: String, id: Int, timeout: Double = 10) async throws -> JSONValue {
        send(request)
        let start = Date()
        while true {
            if let answer = received.first(where: { $0["id"]?.int == id }) { return answer }
            if seconds(since: start) > timeout { throw IntegrationFailure("no answer to \(request) within \(timeout) s: \(lines.lines.suffix(5))") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    func close() { shutdown(handle.fileDescriptor, Int32(SHUT_RDWR)) }
}

/// Calls `body` (bind, connect) with `path` as an AF_UNIX address. Written here rather than
/// taken from the gateway's Service module, so the harness checks the sockets independently.
private func withUnixAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
    var a = sockaddr_un()
    a.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    precondition(bytes.count < MemoryLayout.size(ofValue: a.sun_path), "test socket path too long: \(path)")
    withUnsafeMutableBytes(of: &a.sun_path) { raw in for (i, b) in bytes.enumerated() { raw[i] = b } }
    return withUnsafePointer(to: &a) { p in
        p.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
}
