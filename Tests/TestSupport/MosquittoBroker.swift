import Foundation
import Glibc
import MQTT
import Testing

/// Debian's mosquitto broker on a free port of 127.0.0.1, configured for one test: no
/// persistence (a restart loses every session, as after a crash), anonymous clients unless a
/// password file is given, TLS when certificates are. `kill` and `restart` keep the port.
public final class MosquittoBroker {
    public static let executable = "/usr/sbin/mosquitto"
    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }
    public static let skipReason: Comment = "Debian's mosquitto broker (/usr/sbin/mosquitto) is not installed; scripts/setup installs it"

    public let port: UInt16
    public let directory: URL
    public private(set) var process: ChildProcess?

    /// TLS files for a `listener` with certificates.
    public struct TLS {
        public var caFile: String
        public var certificateFile: String
        public var keyFile: String
        public init(caFile: String, certificateFile: String, keyFile: String) {
            self.caFile = caFile
            self.certificateFile = certificateFile
            self.keyFile = keyFile
        }
    }

    /// `persistent`: sessions and queued messages are saved in `directory` every second, so a
    /// durable subscriber (clean session off) keeps its subscription across a broker crash.
    public init(tls: TLS? = nil, passwordFile: String? = nil, persistent: Bool = false) throws {
        directory = try TemporaryDirectory.make("broker")
        // Run as root, mosquitto drops to its own user: that user writes the persistence file.
        if persistent { chmod(directory.path, 0o777) }
        port = try FreePort.find()
        var config = "listener \(port) 127.0.0.1\n"
        config += persistent
            ? "persistence true\npersistence_location \(directory.path)/\nautosave_interval 1\nmax_queued_messages 100000\n"
            : "persistence false\nmax_queued_messages 100000\n"
        config += passwordFile.map { "allow_anonymous false\npassword_file \($0)\n" } ?? "allow_anonymous true\n"
        if let t = tls { config += "cafile \(t.caFile)\ncertfile \(t.certificateFile)\nkeyfile \(t.keyFile)\n" }
        try config.write(to: directory.appendingPathComponent("mosquitto.conf"), atomically: true, encoding: .utf8)
        try start()
    }

    deinit { process?.terminate(signal: SIGKILL) }

    public var url: String { "mqtt://127.0.0.1:\(port)" }

    /// Starts the broker and waits until it accepts connections (at most 10 s).
    public func start() throws {
        let p = try ChildProcess(Self.executable, ["-c", directory.appendingPathComponent("mosquitto.conf").path])
        process = p
        let end = MQTTClock.now() + 10_000_000_000
        while MQTTClock.now() < end {
            if FreePort.accepts(port) { return }
            if !p.isRunning { throw BrokerFailure("mosquitto exited at start-up: \(p.text)") }
            usleep(20_000)
        }
        throw BrokerFailure("mosquitto did not accept connections on port \(port) within 10 s: \(p.text)")
    }

    /// Kills the broker (SIGKILL: no DISCONNECT to anyone, like a crash or a power cut).
    public func kill() {
        process?.terminate(signal: SIGKILL)
        process = nil
    }

    /// Stops the broker with SIGSTOP: its sockets stay open but nothing is read or answered,
    /// so messages written to it stay unacknowledged.
    public func freeze() {
        if let p = process { Glibc.kill(p.pid, SIGSTOP) }
    }

    /// Lets a frozen broker go on (SIGCONT): it reads and answers what waited meanwhile.
    public func thaw() {
        if let p = process { Glibc.kill(p.pid, SIGCONT) }
    }

    public func restart() throws {
        kill()
        try start()
    }

    public var log: String { process?.text ?? "" }
}

public struct BrokerFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ d: String) { description = d }
}

public enum TemporaryDirectory {
    public static func make(_ label: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("rtstack-mqtt-\(label)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}

public enum FreePort {
    /// A port the kernel just handed out for 127.0.0.1 (free when this returns; a test's broker
    /// binds it right after).
    public static func find() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BrokerFailure("socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_addr.s_addr = inet_addr("127.0.0.1")
        a.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &a) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) == 0 && getsockname(fd, $0, &len) == 0 }
        }
        guard ok else { throw BrokerFailure("bind: \(String(cString: strerror(errno)))") }
        return UInt16(bigEndian: a.sin_port)
    }

    /// Whether something accepts TCP connections on 127.0.0.1:port.
    public static func accepts(_ port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_addr.s_addr = inet_addr("127.0.0.1")
        a.sin_port = port.bigEndian
        return withUnsafePointer(to: &a) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
