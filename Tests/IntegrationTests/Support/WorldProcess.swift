import Foundation
import Synchronization
import Testing

/// One device of the world as its ready line describes it.
struct WorldDevice: Sendable {
    var name: String
    var address: String
    var addressType: String
    var kind: String
    /// The name it advertises (nil for the nameless distractors).
    var localName: String?
    var notify: [String]

    init?(_ j: JSONValue) {
        guard let n = j["name"]?.string, let a = j["address"]?.string, let k = j["kind"]?.string else { return nil }
        name = n
        address = a
        addressType = j["address_type"]?.string ?? "random"
        kind = k
        localName = j["local_name"]?.string
        notify = j["notify"]?.array?.compactMap(\.string) ?? []
    }
}

/// One notification the world logged as sent.
struct WorldNotification: Sendable {
    var device: String
    var uuid: String
    var seq: Int
    var value: [UInt8]
    var time: Double
}

/// The Bumble test world (Tests/World) as a child process: `scripts/world run` with free ports,
/// its ready line, every later stdout line (read on a thread, so the world never blocks), the
/// control port, and a `stop()` that always leaves no process behind.
final class WorldProcess: @unchecked Sendable {
    let hciPort: UInt16
    let controlPort: UInt16
    let devices: [WorldDevice]
    let hostAddress: String
    let readyLine: String

    private let process: Process
    private let stdinPipe: Pipe
    private let out: LineCollector
    private let err: LineCollector
    private let stopped = Mutex(false)

    private init(process: Process, stdinPipe: Pipe, out: LineCollector, err: LineCollector, ready: JSONValue, readyLine: String) throws {
        self.process = process
        self.stdinPipe = stdinPipe
        self.out = out
        self.err = err
        self.readyLine = readyLine
        guard let h = ready["hci_port"]?.int, let c = ready["control_port"]?.int,
              let hp = UInt16(exactly: h), let cp = UInt16(exactly: c) else {
            throw IntegrationFailure("the world's ready line has no ports: \(readyLine)")
        }
        hciPort = hp
        controlPort = cp
        devices = ready["devices"]?.array?.compactMap(WorldDevice.init) ?? []
        hostAddress = ready["host_address"]?.string ?? ""
    }

    /// Starts a world with these `run` options and returns once it is ready (at most 180 s: at
    /// the start of a full run dozens of worlds and tests share 2 cores).
    /// Cancels (skips) the test when the world's venv cannot be set up.
    static func start(_ options: [String] = []) async throws -> WorldProcess {
        try await WorldSetup.ensure()
        let child = try PipedChild.start(PackagePaths.worldScript,
                                         ["run", "--hci-port", "0", "--control-port", "0", "--exit-on-stdin-eof"] + options,
                                         in: PackagePaths.root)
        let (p, stdinPipe, out, err) = (child.process, child.stdin, child.out, child.err)
        let started = Date()
        while true {
            if let first = out.lines.first {
                guard let ready = JSONValue.parse(first), ready["event"]?.string == "ready" else {
                    kill(p.processIdentifier, SIGKILL)
                    throw IntegrationFailure("the world's first line is not its ready line: \(first)\nstderr: \(err.text)")
                }
                do {
                    return try WorldProcess(process: p, stdinPipe: stdinPipe, out: out, err: err, ready: ready, readyLine: first)
                } catch {
                    kill(p.processIdentifier, SIGKILL)
                    throw error
                }
            }
            if !p.isRunning {
                throw IntegrationFailure("the world exited (status \(p.terminationStatus)) before its ready line; options \(options); stderr:\n\(err.text)")
            }
            if seconds(since: started) > 180 {
                kill(p.processIdentifier, SIGKILL)
                throw IntegrationFailure("the world was not ready within 180 s (options \(options)); stderr:\n\(err.text)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    func device(_ name: String) throws -> WorldDevice {
        guard let d = devices.first(where: { $0.name == name }) else {
            throw IntegrationFailure("the world has no device \(name): \(devices.map(\.name))")
        }
        return d
    }

    /// Every event line after the ready line.
    var events: [JSONValue] { Array(out.json.dropFirst()) }
    var stderrText: String { err.text }

    func events(_ name: String) -> [JSONValue] { events.filter { $0["event"]?.string == name } }

    /// The notifications the world sent for one characteristic of one device, in order.
    func notifications(device: String, uuid: String) -> [WorldNotification] {
        events("notify").compactMap { e in
            guard e["device"]?.string == device, e["uuid"]?.string?.uppercased() == uuid.uppercased(),
                  let seq = e["seq"]?.int, let hex = e["value"]?.string, let bytes = HexText.bytes(hex) else { return nil }
            return WorldNotification(device: device, uuid: uuid, seq: seq, value: bytes, time: e["t"]?.double ?? 0)
        }
    }

    /// Waits until the world's event lines satisfy `ready`.
    @discardableResult
    func wait(_ what: String, timeout: Double, until ready: @escaping ([JSONValue]) -> Bool) async throws -> [JSONValue] {
        guard await out.wait(timeout: timeout, until: { ready(Array($0.dropFirst())) }) else {
            throw IntegrationFailure("the world did not log \(what) within \(timeout) s")
        }
        return events
    }

    /// Sends one JSON request line to the control port and returns the reply; fails on
    /// `"ok":false`.
    @discardableResult
    func control(_ json: String, timeout: Double = 10) throws -> JSONValue {
        let reply = try ControlConnection.exchange(port: controlPort, line: json, timeout: timeout)
        guard let j = JSONValue.parse(reply) else { throw IntegrationFailure("control \(json): reply is not JSON: \(reply)") }
        guard j["ok"]?.bool == true else { throw IntegrationFailure("control \(json) failed: \(reply)") }
        return j
    }

    /// Ends the world: `quit`, then SIGTERM, then SIGKILL; always reaped. Safe to call twice.
    func stop() {
        let first = stopped.withLock { s -> Bool in defer { s = true }; return !s }
        guard first else { return }
        if process.isRunning { _ = try? ControlConnection.exchange(port: controlPort, line: #"{"cmd":"quit"}"#, timeout: 2) }
        if !waitForExit(seconds: 3) {
            process.terminate()
            if !waitForExit(seconds: 2) {
                kill(process.processIdentifier, SIGKILL)
                _ = waitForExit(seconds: 5)
            }
        }
        try? stdinPipe.fileHandleForWriting.close()
    }

    private func waitForExit(seconds limit: Double) -> Bool {
        let start = Date()
        while process.isRunning {
            if seconds(since: start) > limit { return false }
            usleep(10_000)
        }
        return true
    }

    deinit { stop() }
}

/// `scripts/world setup`, once per test process. When the venv cannot be made (no Python ≥
/// 3.11, no network to PyPI) every world test is skipped with the reason.
enum WorldSetup {
    private static let outcome = Mutex<String??>(nil)

    static func ensure() async throws {
        if let known = outcome.withLock({ $0 }) {
            if let failure = known { try Test.cancel(Comment(rawValue: failure)) }
            return
        }
        let p = Process()
        p.executableURL = PackagePaths.worldScript
        p.arguments = ["setup"]
        let errPipe = Pipe()
        p.standardOutput = FileHandle.nullDevice
        p.standardError = errPipe
        try p.run()
        let err = LineCollector(errPipe.fileHandleForReading)
        let start = Date()
        while p.isRunning {
            if seconds(since: start) > 300 { p.terminate(); break }
            try await Task.sleep(for: .milliseconds(50))
        }
        p.waitUntilExit()
        let failure: String? = p.terminationStatus == 0 ? nil : """
            the Bumble test world is not available: `scripts/world setup` failed (it needs Python >= 3.11 \
            with venv and network access to PyPI for bumble==0.0.236): \(err.lines.suffix(5).joined(separator: " | "))
            """
        outcome.withLock { $0 = .some(failure) }
        if let failure { try Test.cancel(Comment(rawValue: failure)) }
    }
}

/// One request/reply exchange on the world's control port (JSON lines over TCP).
enum ControlConnection {
    static func exchange(port: UInt16, line: String, timeout: Double) throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw IntegrationFailure("control: socket() failed, errno \(errno)") }
        defer { close(fd) }
        var tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else { throw IntegrationFailure("control: cannot connect to 127.0.0.1:\(port), errno \(errno)") }
        let bytes = Array((line + "\n").utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw IntegrationFailure("control: send failed, errno \(errno)") }
            sent += n
        }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !reply.contains(UInt8(ascii: "\n")) {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { throw IntegrationFailure("control \(line): no reply (errno \(errno))") }
            reply.append(contentsOf: buffer[0..<n])
        }
        let end = reply.firstIndex(of: UInt8(ascii: "\n")) ?? reply.endIndex
        return String(decoding: reply[..<end], as: UTF8.self)
    }
}

enum HexText {
    static func bytes(_ s: String) -> [UInt8]? {
        let chars = Array(s.utf8)
        guard chars.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(chars.count / 2)
        var i = 0
        while i < chars.count {
            guard let hi = nibble(chars[i]), let lo = nibble(chars[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }

    static func string(_ b: [UInt8]) -> String {
        b.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
