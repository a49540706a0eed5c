import Glibc

/// A plain-TCP connection to the broker in rtstack's own MQTT 3.1.1 framing (`MQTTPacketWriter`,
/// `MQTTPacketReader`): what a loop turn queued — PUBLISHes, PUBACKs, a PINGREQ — leaves in one
/// `send`, and one `recv` takes every acknowledgement that has come. libmosquitto makes a
/// `send` per packet, one more on its internal socket pair per publish, and three `read`s per
/// incoming packet, and offers no call that does otherwise (Docs/performance.md, "The gateway's
/// cost per notification"); at a few hundred notifications a second those system calls were
/// the gateway's largest cost.
///
/// Non-blocking from the first call: the host name is resolved with `getaddrinfo` (as
/// libmosquitto's `mosquitto_connect_async` does, blocking for a name that is not an address),
/// the connection completes while the loop polls for writability, and CONNECT waits in the
/// buffer until then.
final class MQTTSocketSession: MQTTSession {
    private let configuration: MQTTClientConfiguration
    private var socket: Int32 = -1
    /// Until the TCP connection is made (the first writable poll).
    private var establishing = true
    private var acknowledged = false
    private var closing = false
    private var outgoing = MQTTPacketWriter()
    private var incoming = MQTTPacketReader()
    private var identifiers = MQTTPacketIdentifiers()
    /// QoS 0 messages are done once written: their identifiers (never on the wire) and the
    /// count of octets queued up to their end.
    private var atMostOnceUnwritten: [(id: UInt16, end: Int)] = []
    private var writtenTotal = 0
    private var outputs = MQTTPullQueue<MQTTSessionOutput>()
    private var lastSent: UInt64 = 0
    private var lastReceived: UInt64 = 0
    private var pingSentAt: UInt64?
    private let keepAliveInterval: UInt64
    private let receiveBuffer: UnsafeMutableRawBufferPointer
    /// The system calls this session made on its socket, for the tests and the benchmark's
    /// reading of where the time goes.
    private(set) var sendCalls = 0
    private(set) var receiveCalls = 0

    static let receiveBufferSize = 16 * 1024

    init(configuration: MQTTClientConfiguration) {
        self.configuration = configuration
        keepAliveInterval = UInt64(configuration.keepAlive) * 1_000_000_000
        receiveBuffer = .allocate(byteCount: Self.receiveBufferSize, alignment: 8)
    }

    deinit {
        closeSocket()
        receiveBuffer.deallocate()
    }

    var fileDescriptor: Int32? { socket >= 0 ? socket : nil }
    var wantsWrite: Bool { socket >= 0 && !outgoing.isEmpty }

    /// Resolves the broker's host, starts the TCP connection and queues CONNECT; the reason when
    /// no address could be tried.
    func connect(at now: UInt64) -> String? {
        let broker = configuration.broker
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_protocol = Int32(IPPROTO_TCP)
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(broker.host, String(broker.port), &hints, &list)
        if rc != 0 {
            return "connect to \(broker): " + String(cString: gai_strerror(rc)) + "; " + MQTTRemedy.unresolvedHost
        }
        defer { freeaddrinfo(list) }
        var failure: Int32 = 0
        var entry = list
        while let address = entry?.pointee, socket < 0 {
            entry = address.ai_next
            let s = Glibc.socket(address.ai_family, address.ai_socktype | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue),
                                 address.ai_protocol)
            guard s >= 0 else { failure = errno; continue }
            if Glibc.connect(s, address.ai_addr, address.ai_addrlen) == 0 || errno == EINPROGRESS {
                socket = s
            } else {
                failure = errno
                Glibc.close(s)
            }
        }
        guard socket >= 0 else { return Self.describe("connect to \(broker)", errno: failure) }
        var on: Int32 = 1
        _ = setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        let will = configuration.availability.map { (topic: $0.topic, payload: $0.offlinePayload, qos: $0.qos, retain: true) }
        outgoing.connect(clientID: configuration.clientID, keepAlive: configuration.keepAlive,
                         username: configuration.username, password: configuration.password, will: will)
        lastSent = now
        lastReceived = now
        return nil
    }

    func publish(_ message: MQTTMessage) -> MQTTSessionPublish {
        guard socket >= 0, !closing else { return .notNow }
        let length = 2 + message.topic.utf8.count + 2 + message.payload.count
        if length > 268_435_455 {
            return .refused("publish to '\(message.topic)': a message of \(message.payload.count) octets is larger than MQTT allows "
                            + "(268,435,455 octets with its topic); it is not sent")
        }
        guard let id = identifiers.take() else { return .notNow }
        message.payload.withUnsafeBytes { payload in
            outgoing.publish(topic: message.topic, payload: payload, qos: message.qos, retain: message.retain, packetIdentifier: id)
        }
        if message.qos == .atMostOnce { atMostOnceUnwritten.append((id, writtenTotal + outgoing.count)) }
        return .queued(id)
    }

    func subscribe(_ filter: String, qos: MQTTQoS) -> UInt16? {
        guard socket >= 0, !closing, let id = identifiers.take() else { return nil }
        outgoing.subscribe(filter, qos: qos, packetIdentifier: id)
        return id
    }

    func disconnect() {
        guard socket >= 0, !closing else { return }
        outgoing.disconnect()
        closing = true
    }

    func read(at now: UInt64) -> String? {
        guard socket >= 0 else { return nil }
        if establishing {
            if let failure = connectionFailure() { return failure }
            if !isEstablished() { return nil }
        }
        while true {
            let n = recv(socket, receiveBuffer.baseAddress, receiveBuffer.count, 0)
            receiveCalls += 1
            if n > 0 {
                incoming.append(UnsafeRawBufferPointer(rebasing: receiveBuffer[0..<n]))
                lastReceived = now
                if n < receiveBuffer.count { break }
            } else if n == 0 {
                closeSocket()
                return closing ? nil : "the broker closed the connection; rtstack tries again (the broker's log says why)"
            } else if errno == EINTR {
                continue
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                break
            } else {
                let code = errno
                closeSocket()
                return Self.describe("the broker connection", errno: code)
            }
        }
        do {
            while let packet = try incoming.next() { take(packet) }
        } catch {
            closeSocket()
            return "the broker's stream broke MQTT 3.1.1 (\(error.what)): check that --mqtt names an MQTT broker; rtstack tries again"
        }
        return nil
    }

    func write(at now: UInt64) -> String? {
        guard socket >= 0 else { return nil }
        if establishing {
            if let failure = connectionFailure() { return failure }
            if !isEstablished() { return nil }
        }
        while !outgoing.isEmpty {
            let n = outgoing.bytes.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            sendCalls += 1
            if n > 0 {
                writtenTotal += n
                outgoing.consume(n)
                lastSent = now
            } else if n < 0 && errno == EINTR {
                continue
            } else if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                break
            } else {
                let code = errno
                closeSocket()
                return Self.describe("the broker connection", errno: code)
            }
        }
        if !atMostOnceUnwritten.isEmpty {
            var done = 0
            while done < atMostOnceUnwritten.count, atMostOnceUnwritten[done].end <= writtenTotal {
                identifiers.release(atMostOnceUnwritten[done].id)
                outputs.append(.published(atMostOnceUnwritten[done].id))
                done += 1
            }
            atMostOnceUnwritten.removeFirst(done)
        }
        if closing && outgoing.isEmpty {
            // Whatever came meanwhile (PUBACKs) is read and dropped first: a socket closed with
            // unread data sends RST, not FIN, and the broker must see the DISCONNECT.
            while recv(socket, receiveBuffer.baseAddress, receiveBuffer.count, 0) > 0 {}
            closeSocket()
            outputs.append(.closed(nil))
        }
        return nil
    }

    /// PINGREQ when nothing went out or came in for the keep-alive interval (§3.1.2.10); the end
    /// of the connection when the PINGRESP has not come within another one.
    func keepAlive(at now: UInt64) -> String? {
        guard socket >= 0, acknowledged, !closing else { return nil }
        if let sent = pingSentAt {
            guard now >= sent + keepAliveInterval else { return nil }
            closeSocket()
            return "no PINGRESP within the keep-alive of \(configuration.keepAlive) s: the broker or the network to it stalled; "
                + "rtstack tries again"
        }
        if now >= lastSent + keepAliveInterval || now >= lastReceived + keepAliveInterval {
            outgoing.pingRequest()
            pingSentAt = now
        }
        return nil
    }

    var hasOutputs: Bool { !outputs.isEmpty }

    func nextOutput() -> MQTTSessionOutput? { outputs.pop() }

    private func take(_ packet: MQTTControlPacket) {
        switch packet {
        case .connectAcknowledgement(let code):
            acknowledged = code == 0
            outputs.append(.connectAcknowledgement(code))
        case .publish(let message, let id):
            if message.qos == .atLeastOnce {
                outgoing.puback(id)
            }
            outputs.append(.message(message))
        case .publishAcknowledgement(let id):
            // An identifier not in use is a PUBACK of an earlier connection's message: nothing waits for it.
            if identifiers.release(id) { outputs.append(.published(id)) }
        case .subscribeAcknowledgement(let id, let code):
            if identifiers.release(id) { outputs.append(.subscribed(id, returnCode: code)) }
        case .pingResponse:
            pingSentAt = nil
        }
    }

    /// The TCP connection failed (SO_ERROR): its reason.
    private func connectionFailure() -> String? {
        var code: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(socket, SOL_SOCKET, SO_ERROR, &code, &size) == 0, code != 0 else { return nil }
        closeSocket()
        return Self.describe("connect to \(configuration.broker)", errno: code)
    }

    /// The TCP connection is made (it has a peer).
    private func isEstablished() -> Bool {
        var address = sockaddr_storage()
        var size = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let made = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(socket, $0, &size) == 0 }
        }
        if made { establishing = false }
        return made
    }

    private func closeSocket() {
        if socket >= 0 {
            Glibc.close(socket)
            socket = -1
        }
    }

    private static func describe(_ operation: String, errno code: Int32) -> String {
        operation + ": " + String(cString: strerror(code)) + "; " + MQTTRemedy.socket(errno: code)
    }
}
