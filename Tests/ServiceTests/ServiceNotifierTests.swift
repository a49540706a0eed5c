import Glibc
import Testing
@testable import Service

/// A datagram socket the test binds, playing systemd's side of NOTIFY_SOCKET.
final class NotifyListener {
    let fd: Int32
    let path: String

    /// `abstract`: a name in the abstract namespace (`@…`), as systemd uses for some services.
    init(abstract: Bool) throws {
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        let name = "rtstack-notify-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        path = abstract ? "@" + name : "/tmp/" + name
        var a = sockaddr_un()
        a.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        if abstract { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &a.sun_path) { raw in for (i, b) in bytes.enumerated() { raw[i] = b } }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + (abstract ? 0 : 1))
        let rc = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard rc == 0 else { throw ServiceNotifierError.system("bind", errno) }
    }

    deinit {
        close(fd)
        if !path.hasPrefix("@") { unlink(path) }
    }

    /// The next datagram, waiting at most one second.
    func receive() -> String? {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, 1000) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        return n >= 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : nil
    }
}

@Suite struct ServiceNotifierTests {
    @Test(arguments: [false, true])
    func notificationsArriveAsDatagrams(abstract: Bool) throws {
        let listener = try NotifyListener(abstract: abstract)
        let n = try ServiceNotifier(socketPath: listener.path)
        try n.ready(status: "3 sensors\non 1 adapter")
        #expect(listener.receive() == "READY=1\nSTATUS=3 sensors on 1 adapter")
        try n.watchdog()
        #expect(listener.receive() == "WATCHDOG=1")
        try n.reloading(monotonicMicroseconds: 123_456)
        #expect(listener.receive() == "RELOADING=1\nMONOTONIC_USEC=123456")
        try n.stopping()
        #expect(listener.receive() == "STOPPING=1")
        try n.status("broker away, 12 queued")
        #expect(listener.receive() == "STATUS=broker away, 12 queued")
    }

    @Test func fromTheEnvironment() throws {
        let listener = try NotifyListener(abstract: false)
        setenv("NOTIFY_SOCKET", listener.path, 1)
        defer { unsetenv("NOTIFY_SOCKET") }
        let n = try #require(try ServiceNotifier.fromEnvironment())
        try n.watchdog()
        #expect(listener.receive() == "WATCHDOG=1")
        unsetenv("NOTIFY_SOCKET")
        #expect(try ServiceNotifier.fromEnvironment() == nil)
    }

    @Test func badAddressesAndAbsentListeners() throws {
        #expect(throws: ServiceNotifierError.unsupportedAddress("vsock:2:1234")) { try ServiceNotifier(socketPath: "vsock:2:1234") }
        let long = "/" + String(repeating: "x", count: 120)
        #expect(throws: ServiceNotifierError.pathTooLong(long, limit: 107)) { try ServiceNotifier(socketPath: long) }
        // Nobody listens: the send fails with the reason, it does not hang or crash.
        let n = try ServiceNotifier(socketPath: "/tmp/rtstack-nobody-\(getpid())")
        #expect(throws: ServiceNotifierError.system("sendto /tmp/rtstack-nobody-\(getpid())", ENOENT)) { try n.watchdog() }
    }
}

@Suite struct WatchdogScheduleTests {
    @Test func pingsAtHalfTheInterval() throws {
        let s: UInt64 = 1_000_000_000
        var w = try #require(WatchdogSchedule(watchdogMicroseconds: "30000000", watchdogPID: nil, ownPID: 42, now: 100 * s))
        #expect(w.interval == 15 * s)
        #expect(w.isDue(at: 100 * s))
        w.pinged(at: 100 * s)
        #expect(!w.isDue(at: 115 * s - 1) && w.isDue(at: 115 * s))
    }

    @Test func onlyForThisProcess() {
        #expect(WatchdogSchedule(watchdogMicroseconds: nil, watchdogPID: nil, ownPID: 42, now: 0) == nil)
        #expect(WatchdogSchedule(watchdogMicroseconds: "0", watchdogPID: nil, ownPID: 42, now: 0) == nil)
        #expect(WatchdogSchedule(watchdogMicroseconds: "x", watchdogPID: nil, ownPID: 42, now: 0) == nil)
        #expect(WatchdogSchedule(watchdogMicroseconds: "1000000", watchdogPID: "41", ownPID: 42, now: 0) == nil)
        #expect(WatchdogSchedule(watchdogMicroseconds: "1000000", watchdogPID: "42", ownPID: 42, now: 0)?.interval == 500_000_000)
    }
}

@Suite struct LogLineTests {
    @Test func journalAndTerminalForms() {
        let journal = LogLine(toJournal: true)
        #expect(journal.format(.error, "hci0 lost") == "<3>hci0 lost\n")
        #expect(journal.format(.info, "two\nlines") == "<6>two\n<6>lines\n")
        #expect(journal.format(.debug, "x") == "<7>x\n")
        let terminal = LogLine(toJournal: false)
        #expect(terminal.format(.warning, "broker away\nretrying") == "rtstack: broker away\nrtstack: retrying\n")
    }

    /// JOURNAL_STREAM must name the very file stderr is; a redirected stderr does not count.
    @Test func detectsTheJournalStreamByDeviceAndInode() throws {
        let path = "/tmp/rtstack-journal-\(getpid())"
        let fd = open(path, O_CREAT | O_RDWR, 0o600)
        try #require(fd >= 0)
        defer { close(fd); unlink(path) }
        var st = stat()
        try #require(fstat(fd, &st) == 0)
        #expect(LogLine.isJournalStream(fd: fd, journalStream: "\(st.st_dev):\(st.st_ino)"))
        #expect(!LogLine.isJournalStream(fd: fd, journalStream: "\(st.st_dev):\(st.st_ino + 1)"))
        #expect(!LogLine.isJournalStream(fd: fd, journalStream: nil))
        #expect(!LogLine.isJournalStream(fd: fd, journalStream: "garbage"))
        #expect(!LogLine.isJournalStream(fd: 999, journalStream: "\(st.st_dev):\(st.st_ino)"))
    }
}
