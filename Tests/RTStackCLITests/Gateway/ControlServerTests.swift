#if canImport(Glibc)
import Glibc
#endif
import HostCore
import Service
import Synchronization
import TestSupport
import Testing
@testable import RTStackCLI

/// The control socket over real Unix sockets in a fresh directory: what it reads, what it
/// sends, whom it drops, and the socket file it leaves (or does not).
@Suite final class ControlServerTests {
    let directory: String

    init() throws {
        var template = Array("/tmp/rtstack-control-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        directory = try #require(made.map { String(cString: $0) })
    }

    /// Each test's directory goes with it (the servers remove their socket files themselves).
    deinit {
        unlink(directory + "/plain")
        unlink(directory + "/gateway.sock")
        rmdir(directory)
    }

    var path: String { directory + "/gateway.sock" }

    func connectClient() throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        let address = try #require(UnixSocketAddress(path))
        #expect(address.withSockaddr { connect(fd, $0, $1) } == 0)
        return fd
    }

    func write(_ fd: Int32, _ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// What the client can read without waiting.
    func readAvailable(_ fd: Int32) -> String {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            guard n > 0 else { break }
            out += buffer[0..<n]
        }
        return String(decoding: out, as: UTF8.self)
    }

    func clientID(_ server: ControlServer) throws -> Int {
        server.accept(at: 0)
        return try #require(server.clients.keys.max())
    }

    /// A server with one client connected and accepted: the server, the client's descriptor,
    /// the client's id at the server. Both are closed after `body`.
    func withClient(_ body: (ControlServer, Int32, Int) throws -> Void) throws {
        let server = try ControlServer(path: path, mode: 0o600, group: nil)
        defer { server.close() }
        let fd = try connectClient()
        defer { close(fd) }
        try body(server, fd, try clientID(server))
    }

    /// accept(2) failing with EMFILE (injected: lowering RLIMIT_NOFILE would starve the other
    /// tests of this process; the connection that waits is real): the listener must neither spin on
    /// the connection left in the backlog nor stop listening.
    @Test func outOfDescriptorsTheListenerRestsSaysSoOnceAndThenTakesTheWaitingClient() throws {
        let server = try ControlServer(path: path, mode: 0o600, group: nil)
        defer { server.close() }
        var calls = 0
        var failing = true
        server.acceptCall = { fd in
            calls += 1
            guard !failing else { errno = EMFILE; return -1 }
            return Glibc.accept(fd, nil, nil)
        }
        let fd = try connectClient()
        defer { close(fd) }
        let second = HostDuration.seconds(1)
        let listens = { server.descriptors().contains { $0.client == nil } }

        server.accept(at: second)
        #expect(calls == 1, "one try, not a loop over the connection still waiting")
        #expect(server.clients.isEmpty)
        #expect(!listens(), "the listener is not polled while it rests: it would be ready again at once")
        #expect(server.nextDeadline == second + DescriptorShortage.pause)
        let warnings = server.takeLog().filter { $0.0 == .warning }.map(\.1)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("the control socket \(path) cannot accept a connection") == true)
        #expect(warnings.first?.contains("EMFILE") == true && warnings.first?.contains("ulimit -n") == true)

        server.accept(at: second + DescriptorShortage.pause / 2)
        #expect(calls == 1, "nothing is tried while it rests")
        server.advanceTime(to: second + DescriptorShortage.pause)
        #expect(listens())
        #expect(server.nextDeadline == nil)

        failing = false
        server.accept(at: 3 * second)
        #expect(server.clients.count == 1, "the client that waited in the backlog is taken")
        #expect(server.takeLog().contains { $0.0 == .notice && $0.1.contains("accepting connections again") })
    }

    @Test func aRequestThatArrivesInPiecesIsReadAsOneLineAndEmptyLinesAreSkipped() throws {
        try withClient { server, fd, id in
            write(fd, "{\"id\":1,\"op\":")
            #expect(server.read(id, events: Int16(POLLIN)).lines.isEmpty)
            write(fd, "\"devices\"}\n\n{\"id\":2")
            let (lines, closed) = server.read(id, events: Int16(POLLIN))
            #expect(lines == ["{\"id\":1,\"op\":\"devices\"}"] && !closed)
        }
    }

    @Test func linesSentReachTheClientEachEndedByALineFeed() throws {
        try withClient { server, fd, id in
            #expect(server.send(id, "{\"id\":1,\"ok\":true}"))
            #expect(server.send(id, "{\"event\":\"notification\"}"))
            #expect(readAvailable(fd) == "{\"id\":1,\"ok\":true}\n{\"event\":\"notification\"}\n")
        }
    }

    @Test func aClientThatHungUpIsReportedClosed() throws {
        let server = try ControlServer(path: path, mode: 0o600, group: nil)
        defer { server.close() }
        let fd = try connectClient()
        let id = try clientID(server)
        close(fd)
        #expect(server.read(id, events: Int16(POLLIN)).closed)
        #expect(server.clients[id] == nil)
        #expect(!server.send(id, "late"))
    }

    @Test func aLineLongerThanTheLimitIsAnsweredWithAnErrorAndTheClientDropped() throws {
        try withClient { server, fd, id in
            var closed = false
            var rounds = 0
            while !closed && rounds < 100 {
                write(fd, String(repeating: "x", count: 8192))
                closed = server.read(id, events: Int16(POLLIN)).closed
                rounds += 1
            }
            #expect(closed && server.clients[id] == nil)
            #expect(readAvailable(fd).hasPrefix("{\"ok\":false,\"error\":\"a request line is longer than 65536 bytes\"}"))
        }
    }

    @Test func aClientThatDoesNotReadIsDroppedPastTheOutputLimit() throws {
        try withClient { server, fd, id in
            let line = String(repeating: "n", count: 4095)
            var sent = 0
            while server.send(id, line), sent < 2 * ControlServer.outputLimit / 4096 { sent += 1 }
            #expect(server.clients[id] == nil)
            // It got what the socket took before the limit, and no more than the limit besides.
            #expect(sent * 4096 >= ControlServer.outputLimit / 2 && sent * 4096 <= ControlServer.outputLimit + 1 << 22)
        }
    }

    @Test func theSocketFileHasTheModeAskedAndIsRemovedOnClose() throws {
        let server = try ControlServer(path: path, mode: 0o640, group: nil)
        var st = stat()
        #expect(stat(path, &st) == 0 && st.st_mode & 0o777 == 0o640)
        server.close()
        #expect(stat(path, &st) != 0)
    }

    /// The process's umask is everybody's: a server that narrowed it around bind(2) gave the
    /// files other threads created meanwhile its mode (CI saw a test's script made
    /// non-executable and a broker's password file unreadable).
    @Test func makingAServerLeavesTheFilesOtherThreadsCreateAsTheyAsk() async throws {
        final class Flag: Sendable { let raised = Atomic<Bool>(false) }
        let done = Flag()
        let file = directory + "/plain"
        // Files made on a thread of their own (not the pool's, where they might wait until the
        // servers are made) while this one makes servers.
        let thread = OwnThreadExecutor(name: "files")
        defer { thread.close() }
        let files = Task.detached(executorPreference: thread) {
            var modes: Set<mode_t> = []
            repeat {
                let fd = open(file, O_CREAT | O_EXCL | O_WRONLY, 0o644)
                var st = stat()
                if fd >= 0 { fstat(fd, &st); close(fd); modes.insert(st.st_mode & 0o777) }
                unlink(file)
            } while !done.raised.load(ordering: .acquiring)
            return modes
        }
        for _ in 0..<300 {
            let server = try ControlServer(path: path, mode: 0o600, group: nil)
            server.close()
        }
        done.raised.store(true, ordering: .releasing)
        let modes = await files.value
        let mask = umask(0)
        umask(mask)
        #expect(modes == [0o644 & ~mask], "files made while servers were made got modes \(modes.map { String($0, radix: 8) })")
    }

    @Test func aStaleSocketFileIsReplacedAndOneSomebodyListensOnRefused() throws {
        // A gateway that died: its socket file stays, nobody listens.
        let dead = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        let address = try #require(UnixSocketAddress(path))
        #expect(address.withSockaddr { bind(dead, $0, $1) } == 0)
        close(dead)
        let server = try ControlServer(path: path, mode: 0o600, group: nil)
        defer { server.close() }
        do throws(ControlSocketError) {
            _ = try ControlServer(path: path, mode: 0o600, group: nil)
            Issue.record("a second server on a live socket was made")
        } catch {
            #expect(error.description.hasPrefix("another gateway is listening on \(path)"))
        }
    }

    @Test func aPathThatIsNotASocketIsRefusedAndLeftAlone() throws {
        let file = directory + "/plain"
        let fd = open(file, O_CREAT | O_WRONLY, 0o600)
        close(fd)
        #expect(throws: ControlSocketError.self) { try ControlServer(path: file, mode: 0o600, group: nil) }
        var st = stat()
        #expect(stat(file, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG)
    }
}
