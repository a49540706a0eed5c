#if canImport(Glibc)
import Glibc
#endif
import ESPHomeAPI
import HostCore
import Service
import Testing
@testable import RTStackCLI

/// A network service on a board (issue 20): every broken or hostile client loses its own
/// connection with one log line, and a well-behaved client connected beside it goes on being
/// answered. Real loopback sockets throughout; time is the server's `HostTime`, moved by hand.
@Suite struct ESPHomeServerHostileClientTests {
    static let second = HostDuration.seconds(1)

    /// The lines of one level.
    func lines(_ log: [(LogLine.Level, String)], level: LogLine.Level = .warning) -> [String] {
        log.filter { $0.0 == level }.map(\.1)
    }

    @Test func bytesThatAreNoFramesCloseOnlyThatClientWithOneLine() throws {
        let server = try ESPHomeServer.loopback()
        defer { server.closeAll(because: "test over") }
        let (good, goodID) = try server.readyClient()
        defer { good.close() }
        let bad = try ESPHomeTestClient(port: server.port)
        defer { bad.close() }
        let badID = try server.acceptNewest()
        _ = server.takeLog()
        bad.write(Array("GET / HTTP/1.1\r\nHost: proxy\r\n\r\n".utf8))
        #expect(server.pump(badID).closed)
        #expect(bad.seesClose())
        let log = server.takeLog()
        #expect(log.count == 1)
        #expect(lines(log).first?.contains("frame begins with 0x47, not 0x00") == true)
        #expect(try server.answersPing(goodID, good))
    }

    @Test func anOversizedFrameIsRefusedFromItsHeaderWithoutWaitingForItsBody() throws {
        let server = try ESPHomeServer.loopback()
        defer { server.closeAll(because: "test over") }
        let (good, goodID) = try server.readyClient()
        defer { good.close() }
        let (big, bigID) = try server.readyClient()
        defer { big.close() }
        _ = server.takeLog()
        // A header announcing a 1 MiB body (varint 0x80 0x80 0x40), type 75 (a GATT write).
        big.write([0x00, 0x80, 0x80, 0x40, 75] + [UInt8](repeating: 0xAB, count: 1000))
        #expect(server.pump(bigID).closed)
        #expect(lines(server.takeLog()) == ["ESPHome API client 127.0.0.1:\(try peerPort(big)) (t): frame of 1048576 bytes exceeds this proxy's limit of 32768 bytes"])
        #expect(try server.answersPing(goodID, good))
    }

    @Test func anUnknownMessageTypeClosesThatClientNamingTheType() throws {
        let server = try ESPHomeServer.loopback()
        defer { server.closeAll(because: "test over") }
        let (client, id) = try server.readyClient()
        defer { client.close() }
        _ = server.takeLog()
        var bytes: [UInt8] = []
        PlaintextFraming.encode(APIFrame(type: 4242, payload: [1, 2, 3]), into: &bytes)
        client.write(bytes)
        #expect(server.pump(id).closed)
        #expect(lines(server.takeLog()).first?.hasSuffix("message type 4242 is not one a Bluetooth proxy serves") == true)
    }

    @Test func aTruncatedHelloThenSilenceEndsAtTheHandshakeTimeoutAndNotBefore() throws {
        let server = try ESPHomeServer.loopback()
        defer { server.closeAll(because: "test over") }
        let start = 1_000 * Self.second
        let (good, goodID) = try server.readyClient(at: start)
        defer { good.close() }
        let slow = try ESPHomeTestClient(port: server.port)
        defer { slow.close() }
        let slowID = try server.acceptNewest(at: start)
        slow.write(Array(ESPHomeTestClient.hello.prefix(4)))
        #expect(!server.pump(slowID, at: start + Self.second).closed)
        _ = server.takeLog()
        #expect(server.nextDeadline == start + ESPHomeServer.handshakeTimeout)
        #expect(server.advanceTime(to: start + ESPHomeServer.handshakeTimeout - 1).isEmpty)
        #expect(server.advanceTime(to: start + ESPHomeServer.handshakeTimeout) == [slowID])
        #expect(slow.seesClose())
        #expect(lines(server.takeLog()).first?.hasSuffix("the client did not finish its hello within 15 s") == true)
        #expect(try server.answersPing(goodID, good, at: start + ESPHomeServer.handshakeTimeout))
    }

    @Test func pingsBeforeTheHelloDoNotPutOffTheHandshakeTimeout() throws {
        let server = try ESPHomeServer.loopback()
        defer { server.closeAll(because: "test over") }
        let client = try ESPHomeTestClient(port: server.port)
        defer { client.close() }
        let id = try server.acceptNewest(at: 0)
        client.write(ESPHomeTestClient.frame(.pingRequest))
        #expect(!server.pump(id, at: 14 * Self.second).closed)
        #expect(server.advanceTime(to: 15 * Self.second) == [id])
    }

    @Test func aNoiseClientThatNeverHandshakesIsToldNothingAndClosedAtTheTimeout() throws {
        let key = try NoisePresharedKey(base64: "AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=")
        let server = try ESPHomeServer.loopback(key: key)
        defer { server.closeAll(because: "test over") }
        let client = try ESPHomeTestClient(port: server.port)
        defer { client.close() }
        let id = try server.acceptNewest(at: 0)
        // The client hello (an empty Noise frame) and then nothing.
        client.write([0x01, 0x00, 0x00])
        #expect(!server.pump(id).closed)
        #expect(client.readAvailable().first == 0x01)
        #expect(server.advanceTime(to: ESPHomeServer.handshakeTimeout) == [id])
        #expect(server.takeLog().last?.1.hasSuffix("did not finish its Noise handshake and hello within 15 s") == true)
    }

    @Test func aPlaintextClientOnAKeyedProxyGetsTheReasonBeforeTheClose() throws {
        let key = try NoisePresharedKey(base64: "AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=")
        let server = try ESPHomeServer.loopback(key: key)
        defer { server.closeAll(because: "test over") }
        let client = try ESPHomeTestClient(port: server.port)
        defer { client.close() }
        let id = try server.acceptNewest()
        client.write(ESPHomeTestClient.hello + ESPHomeTestClient.frame(.authenticationRequest))
        #expect(server.pump(id).closed)
        #expect(client.readAvailable() == [0x01, 0x00, 0x13, 0x01] + Array("Bad indicator byte".utf8))
        #expect(lines(server.takeLog()).first?.contains("requires encryption") == true)
    }

    @Test func aSilentClientIsPingedAfterAMinuteAndDroppedAfterTwoAndAHalf() throws {
        let server = try ESPHomeServer.loopback()
        defer { server.closeAll(because: "test over") }
        let (silent, silentID) = try server.readyClient(at: 0)
        defer { silent.close() }
        let (lively, livelyID) = try server.readyClient(at: 0)
        defer { lively.close() }
        #expect(server.nextDeadline == ESPHomeServer.keepaliveInterval)
        #expect(server.advanceTime(to: ESPHomeServer.keepaliveInterval).isEmpty)
        let ping = [APIMessageType.pingRequest.rawValue]
        #expect(try ESPHomeTestClient.types(silent.readAvailable()) == ping)
        #expect(try ESPHomeTestClient.types(lively.readAvailable()) == ping)
        // One answers; its silence starts again from its answer.
        lively.write(ESPHomeTestClient.frame(.pingResponse))
        #expect(!server.pump(livelyID, at: 100 * Self.second).closed)
        #expect(server.nextDeadline == ESPHomeServer.keepaliveTimeout)
        #expect(server.advanceTime(to: ESPHomeServer.keepaliveTimeout) == [silentID])
        #expect(silent.seesClose())
        #expect(lines(server.takeLog()).first?.hasSuffix("the client sent nothing for 150 s, not even an answer to the keepalive ping") == true)
        #expect(server.nextDeadline == 160 * Self.second)
        #expect(try server.answersPing(livelyID, lively, at: 150 * Self.second))
    }

    @Test func aClientThatDoesNotReadIsDroppedPastTheOutputLimitAndTheOtherIsNot() throws {
        let server = try ESPHomeServer.loopback()
        defer { server.closeAll(because: "test over") }
        let (good, goodID) = try server.readyClient()
        defer { good.close() }
        let stuck = try ESPHomeTestClient(port: server.port, receiveBuffer: 4096)
        defer { stuck.close() }
        let stuckID = try server.acceptNewest()
        stuck.write(ESPHomeTestClient.hello)
        _ = server.pump(stuckID)
        _ = server.takeLog()
        let notification = ServerMessage.notifyData(address: 0x1122_3344_5566, handle: 0x2A, data: [UInt8](repeating: 7, count: 500))
        var sent = 0
        while server.send(notification, to: stuckID), sent < 100_000 { sent += 1 }
        #expect(server.clients[stuckID] == nil)
        // It got what the sockets hold, then the server's limit: far below the 100,000 tries.
        #expect(sent * 500 >= ESPHomeServer.outputLimit && sent < 20_000)
        #expect(lines(server.takeLog()).first?.contains("the client does not read what it is sent") == true)
        #expect(try server.answersPing(goodID, good))
    }

    @Test func connectsBeyondTheLimitAreClosedAtOnceWithALineEveryTenSeconds() throws {
        let server = try ESPHomeServer.loopback(clientLimit: 3)
        defer { server.closeAll(because: "test over") }
        let (good, goodID) = try server.readyClient()
        defer { good.close() }
        var flood: [ESPHomeTestClient] = []
        defer { for c in flood { c.close() } }
        for _ in 0..<20 {
            flood.append(try ESPHomeTestClient(port: server.port))
            server.accept(at: Self.second)
        }
        #expect(server.clients.count == 3)
        #expect(flood.filter { $0.seesClose() }.count == 18)
        var refusals = server.takeLog().filter { $0.0 == .warning }.map(\.1)
        #expect(refusals.count == 1)
        #expect(refusals.first?.contains("3 clients are connected, the most this proxy serves") == true)
        let late = try ESPHomeTestClient(port: server.port)
        defer { late.close() }
        _ = try server.acceptNewest(at: 11 * Self.second)
        refusals = server.takeLog().filter { $0.0 == .warning }.map(\.1)
        #expect(refusals.count == 1 && refusals[0].hasSuffix("(and 17 more since the last such line)"))
        #expect(try server.answersPing(goodID, good))
    }

    @Test func aHalfClosedClientGetsItsAnswersAndIsThenClosed() throws {
        let server = try ESPHomeServer.loopback()
        defer { server.closeAll(because: "test over") }
        let client = try ESPHomeTestClient(port: server.port)
        defer { client.close() }
        let id = try server.acceptNewest()
        client.write(ESPHomeTestClient.hello + ESPHomeTestClient.frame(.pingRequest))
        shutdown(client.fd, Int32(SHUT_WR))
        var closed = false
        for _ in 0..<3 where !closed { closed = server.pump(id).closed }
        #expect(closed)
        #expect(try ESPHomeTestClient.types(client.readAvailable()) == [APIMessageType.helloResponse.rawValue, APIMessageType.pingResponse.rawValue])
        #expect(client.seesClose())
        #expect(server.takeLog().last.map { $0.0 == .info && $0.1.hasSuffix("(t): the client closed the connection") } == true)
    }

    @Test func aResetConnectionIsLoggedAsAResetAndTheOtherClientStays() throws {
        let server = try ESPHomeServer.loopback()
        defer { server.closeAll(because: "test over") }
        let (good, goodID) = try server.readyClient()
        defer { good.close() }
        let (rude, rudeID) = try server.readyClient()
        // SO_LINGER with a zero timeout: close sends RST instead of FIN.
        var abort = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(rude.fd, SOL_SOCKET, SO_LINGER, &abort, socklen_t(MemoryLayout<linger>.size))
        rude.close()
        _ = server.takeLog()
        #expect(server.pump(rudeID).closed)
        #expect(server.takeLog().map(\.1).first?.hasSuffix("the client reset the connection") == true)
        #expect(try server.answersPing(goodID, good))
    }

    @Test func aNoiseClientIsServedAndOneSendingForgedCiphertextIsClosedAlone() throws {
        let key = try NoisePresharedKey(base64: "AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=")
        let server = try ESPHomeServer.loopback(key: key)
        defer { server.closeAll(because: "test over") }
        var sessions: [(ESPHomeTestClient, Int, NoiseInitiator)] = []
        defer { for s in sessions { s.0.close() } }
        for seed in [UInt8(1), 2] {
            let client = try ESPHomeTestClient(port: server.port)
            let id = try server.acceptNewest()
            var noise = NoiseInitiator(key: key, ephemeralPrivateKey: [UInt8](repeating: seed, count: 32))
            client.write(try noise.start())
            _ = server.pump(id)
            _ = try noise.receive(client.readAvailable())
            client.write(try noise.frame(APIFrame(type: APIMessageType.helloRequest.rawValue, payload: [0x0A, 0x01, 0x74, 0x10, 0x01, 0x18, 0x13])))
            _ = server.pump(id)
            #expect(try noise.receive(client.readAvailable()).map(\.type) == [APIMessageType.helloResponse.rawValue])
            sessions.append((client, id, noise))
        }
        _ = server.takeLog()
        // A ciphertext whose tag does not authenticate: a forgery, or a client that lost count.
        sessions[1].0.write([0x01, 0x00, 0x14] + [UInt8](repeating: 0xEE, count: 20))
        #expect(server.pump(sessions[1].1).closed)
        #expect(lines(server.takeLog()).first?.hasSuffix("an encrypted message does not authenticate: it was altered on the way, or the session is not the sender's") == true)
        sessions[0].0.write(try sessions[0].2.frame(APIFrame(type: APIMessageType.pingRequest.rawValue, payload: [])))
        #expect(!server.pump(sessions[0].1).closed)
        #expect(try sessions[0].2.receive(sessions[0].0.readAvailable()).map(\.type) == [APIMessageType.pingResponse.rawValue])
    }

    /// The client's own port, as the server's log names it.
    func peerPort(_ client: ESPHomeTestClient) throws -> UInt16 {
        let (address, result) = InternetSocketAddress.filled { getsockname(client.fd, $0, $1) }
        try #require(result == 0)
        return address.port
    }
}
