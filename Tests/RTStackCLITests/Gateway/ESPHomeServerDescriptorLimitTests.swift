#if canImport(Glibc)
import Glibc
#endif
import ESPHomeAPI
import HostCore
import Service
import Testing
@testable import RTStackCLI

/// The native API's listener out of file descriptors (accept(2) failing with EMFILE or ENFILE):
/// it must neither spin on the connection that waits in the backlog nor give up listening. The
/// failure is injected (`acceptCall`): lowering RLIMIT_NOFILE here would starve the other tests
/// of this process; the connection that waits is real.
@Suite struct ESPHomeServerDescriptorLimitTests {
    static let second = HostDuration.seconds(1)

    /// A server whose accept(2) fails with `code` until `failing` is false, counting its calls.
    final class FailingAccept {
        var failing = true
        var calls = 0
        let code: Int32
        init(_ code: Int32) { self.code = code }

        func install(on server: ESPHomeServer) {
            server.acceptCall = { [self] fd, address, length in
                calls += 1
                guard failing else { return Glibc.accept(fd, address, length) }
                errno = code
                return -1
            }
        }
    }

    func listens(_ server: ESPHomeServer) -> Bool { server.descriptors().contains { $0.client == nil } }

    @Test func outOfDescriptorsTheListenerRestsSaysSoOnceWithTheRemedyAndThenTakesTheWaitingClient() throws {
        let server = try ESPHomeServer.loopback()
        defer { server.closeAll(because: "test over") }
        let failure = FailingAccept(EMFILE)
        failure.install(on: server)
        let waiting = try ESPHomeTestClient(port: server.port)
        defer { waiting.close() }

        server.accept(at: Self.second)
        #expect(failure.calls == 1, "one try, not a loop over the connection still waiting")
        #expect(server.clients.isEmpty)
        #expect(!listens(server), "the listener is not polled while it rests: it would be ready again at once")
        #expect(server.nextDeadline == Self.second + DescriptorShortage.pause)
        let warnings = server.takeLog().filter { $0.0 == .warning }.map(\.1)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("cannot accept a connection") == true)
        #expect(warnings.first?.contains("EMFILE") == true)
        #expect(warnings.first?.contains("ulimit -n") == true && warnings.first?.contains("connect fewer clients") == true)

        // While it rests, nothing is tried; at the end of the rest it is polled again.
        server.accept(at: Self.second + DescriptorShortage.pause / 2)
        #expect(failure.calls == 1)
        #expect(server.advanceTime(to: Self.second + DescriptorShortage.pause).isEmpty)
        #expect(listens(server))

        // Still short: it rests again, and the shortage is not said again.
        server.accept(at: 2 * Self.second + DescriptorShortage.pause)
        #expect(failure.calls == 2)
        #expect(!listens(server))
        #expect(server.takeLog().filter { $0.0 == .warning }.isEmpty, "said once per shortage")

        // A descriptor comes free: the client that waited in the backlog is served.
        failure.failing = false
        let back = 3 * Self.second + 2 * DescriptorShortage.pause
        _ = server.advanceTime(to: back)
        let id = try server.acceptNewest(at: back)
        #expect(server.clients.count == 1)
        #expect(server.takeLog().contains { $0.0 == .notice && $0.1.contains("accepting connections again") && $0.1.contains("(2 tries)") })
        waiting.write(ESPHomeTestClient.hello)
        _ = server.pump(id, at: back)
        #expect(server.isReady(id), "the waiting client's hello was answered")
    }

    @Test func aFullSystemFileTableIsNamedAsSuchWithItsOwnRemedy() throws {
        let server = try ESPHomeServer.loopback()
        defer { server.closeAll(because: "test over") }
        FailingAccept(ENFILE).install(on: server)
        let waiting = try ESPHomeTestClient(port: server.port)
        defer { waiting.close() }
        server.accept(at: 0)
        let warning = server.takeLog().first { $0.0 == .warning }?.1
        #expect(warning?.contains("the system's file table is full (ENFILE)") == true)
        #expect(warning?.contains("fs.file-max") == true)
        #expect(!listens(server))
    }

    @Test func aShortageIsSaidAgainWhenItComesBackAfterAnAcceptedConnection() {
        var shortage = DescriptorShortage()
        #expect(shortage.acceptFailed(EMFILE, listener: "L", at: 0).line != nil)
        #expect(shortage.acceptFailed(EMFILE, listener: "L", at: Self.second).line == nil)
        #expect(shortage.accepted(at: 5 * Self.second) == "accepting connections again: file descriptors were short for 5 s (2 tries)")
        #expect(shortage.accepted(at: 6 * Self.second) == nil, "nothing to say without a shortage")
        #expect(shortage.acceptFailed(EMFILE, listener: "L", at: 7 * Self.second).line != nil, "a new shortage is said")
        let nothingWaiting = shortage.acceptFailed(EAGAIN, listener: "L", at: 8 * Self.second)
        #expect(!nothingWaiting.shortage && nothingWaiting.line == nil, "no connection waiting is no shortage")
    }
}
