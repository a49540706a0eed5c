import Glibc
import Testing
@testable import Runtime

@Suite struct TCPTransportTests {
    @Test func bytesTravelBothWays() throws {
        let listener = LoopbackListener()
        let transport = try TCPTransport(host: "127.0.0.1", port: listener.port)
        defer { transport.close() }
        let peer = listener.accept()
        #expect(peer >= 0)
        defer { close(peer) }
        #expect(transport.framing == .h4Stream)
        #expect(transport.name == "tcp:127.0.0.1:\(listener.port)")

        // HCI Reset as H4: indicator 0x01, opcode 0x0C03, length 0 (Core Spec v5.4 Vol 4, Part E, §7.3.2).
        let reset: [UInt8] = [0x01, 0x03, 0x0C, 0x00]
        try transport.write(reset)
        #expect(readBytes(peer, count: 4) == reset)

        // Command Complete for it (Vol 4, Part E, §7.7.14).
        let complete: [UInt8] = [0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]
        #expect(writeAll(peer, complete))
        var buffer = [UInt8](repeating: 0, count: 64)
        var got: [UInt8] = []
        #expect(eventually {
            let n = (try? buffer.withUnsafeMutableBytes { try transport.read(into: $0) }) ?? 0
            got += buffer[0..<n]
            return got.count >= complete.count
        })
        #expect(got == complete)
    }

    @Test func setsNoDelayAndNonBlocking() throws {
        let listener = LoopbackListener()
        let transport = try TCPTransport(host: "localhost", port: listener.port)
        defer { transport.close() }
        var value: Int32 = 0
        var length = socklen_t(4)
        #expect(getsockopt(transport.fd, Int32(IPPROTO_TCP), TCP_NODELAY, &value, &length) == 0)
        #expect(value != 0)
        #expect(fcntl(transport.fd, F_GETFL) & O_NONBLOCK != 0)
        // Nothing available yet: read returns 0 instead of blocking.
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(try buffer.withUnsafeMutableBytes { try transport.read(into: $0) } == 0)
    }

    @Test func partialWritesQueueAndFlushInOrder() throws {
        let listener = LoopbackListener(receiveBuffer: 4096)
        let transport = try TCPTransport(host: "127.0.0.1", port: listener.port, writeQueueLimit: 8 << 20)
        defer { transport.close() }
        var small: Int32 = 4096
        _ = setsockopt(transport.fd, SOL_SOCKET, SO_SNDBUF, &small, 4)
        let peer = listener.accept()
        defer { close(peer) }

        // 4 MiB of a recognisable pattern cannot fit the kernel buffers of an idle reader.
        let total = 4 << 20
        let payload = (0..<total).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) }
        try transport.write(payload)
        #expect(transport.hasPendingWrites)
        #expect(transport.pendingByteCount > 0 && transport.pendingByteCount < total)

        // Drain the peer while flushing on POLLOUT, as the loop does.
        var received: [UInt8] = []
        received.reserveCapacity(total)
        var chunk = [UInt8](repeating: 0, count: 65536)
        let deadline = MonotonicClock.now() + testTimeout
        while received.count < total && MonotonicClock.now() < deadline {
            var fds = [pollfd(fd: transport.fd, events: Int16(POLLOUT), revents: 0),
                       pollfd(fd: peer, events: Int16(POLLIN), revents: 0)]
            _ = poll(&fds, 2, 100)
            if fds[0].revents & Int16(POLLOUT) != 0 { try transport.flushPendingWrites() }
            if fds[1].revents & Int16(POLLIN) != 0 {
                let n = chunk.withUnsafeMutableBytes { Glibc.read(peer, $0.baseAddress, $0.count) }
                if n > 0 { received += chunk[0..<n] }
            }
        }
        #expect(!transport.hasPendingWrites)
        #expect(received.count == total)
        #expect(received == payload)
    }

    @Test func fullQueueRejectsAWholeWriteAndKeepsTheStreamIntact() throws {
        let listener = LoopbackListener(receiveBuffer: 4096)
        let transport = try TCPTransport(host: "127.0.0.1", port: listener.port, writeQueueLimit: 64 * 1024)
        defer { transport.close() }
        var small: Int32 = 4096
        _ = setsockopt(transport.fd, SOL_SOCKET, SO_SNDBUF, &small, 4)
        let peer = listener.accept()
        defer { close(peer) }

        // Write 1000-byte records (first byte = record number) until one is refused.
        var accepted: [UInt8] = []
        var refused: TransportError?
        for record in 0..<10_000 {
            let bytes = [UInt8](repeating: UInt8(truncatingIfNeeded: record), count: 1000)
            do throws(TransportError) {
                try transport.write(bytes)
                accepted += bytes
            } catch {
                refused = error
                break
            }
        }
        #expect(refused == .writeQueueFull(adapter: "tcp:127.0.0.1:\(listener.port)", limit: 64 * 1024))
        #expect(refused?.endsTransport == false)
        #expect(refused?.description.contains("not reading") == true)

        // Everything accepted arrives, and nothing of the refused record.
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        let deadline = MonotonicClock.now() + testTimeout
        while received.count < accepted.count && MonotonicClock.now() < deadline {
            try transport.flushPendingWrites()
            var p = pollfd(fd: peer, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, 20) == 1 {
                let n = chunk.withUnsafeMutableBytes { Glibc.read(peer, $0.baseAddress, $0.count) }
                if n > 0 { received += chunk[0..<n] }
            }
        }
        #expect(received == accepted)
        var p = pollfd(fd: peer, events: Int16(POLLIN), revents: 0)
        #expect(poll(&p, 1, 50) == 0)
    }

    @Test func connectionRefusedNamesTheEndpoint() {
        let closedPort = RefusingPort()
        do {
            _ = try TCPTransport(host: "127.0.0.1", port: closedPort.port)
            Issue.record("connected to a port nobody listens on")
        } catch {
            #expect(error == .connectionRefused(endpoint: "127.0.0.1:\(closedPort.port)"))
            #expect(error.description == "no controller listening on 127.0.0.1:\(closedPort.port) (connection refused)")
        }
    }

    @Test func connectionRefusedThroughTheAdapterSpec() throws {
        let closedPort = RefusingPort()
        let spec = try AdapterSpec(parsing: "tcp:127.0.0.1:\(closedPort.port)")
        #expect(throws: TransportError.connectionRefused(endpoint: "127.0.0.1:\(closedPort.port)")) {
            _ = try spec.openTransport()
        }
    }

    @Test func peerCloseEndsTheLoopWithEndOfStream() throws {
        let listener = LoopbackListener()
        let transport = try TCPTransport(host: "127.0.0.1", port: listener.port)
        let peer = listener.accept()
        let log = EventLog()
        let loop = try startRecordingLoop(transport: transport, log: log)
        let event: [UInt8] = [0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]
        #expect(writeAll(peer, event))
        #expect(eventually { log.received.count == event.count })
        close(peer)
        #expect(finishes(loop))
        let name = "tcp:127.0.0.1:\(listener.port)"
        #expect(log.closed == [.endOfStream(adapter: name)])
        #expect(loop.outcome == .transportClosed(.endOfStream(adapter: name)))
        #expect(log.received == event)
        #expect(TransportError.endOfStream(adapter: name).description.contains("end of stream"))
    }

    @Test func loopWritesReachThePeer() throws {
        let listener = LoopbackListener()
        let transport = try TCPTransport(host: "127.0.0.1", port: listener.port)
        let peer = listener.accept()
        defer { close(peer) }
        let log = EventLog()
        let loop = try startRecordingLoop(transport: transport, log: log, echo: true)
        defer { loop.stop() }
        let bytes: [UInt8] = Array(0...255)
        #expect(writeAll(peer, bytes))
        #expect(readBytes(peer, count: 256) == bytes)
    }
}
