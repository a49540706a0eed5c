#if canImport(Glibc)
import Glibc
#endif
import ESPHomeAPI
import HostCore
import Testing
@testable import RTStackCLI

/// A raw TCP client of an `ESPHomeServer` on loopback, and the plaintext frames it writes and
/// reads, for the server's tests: it sends whatever bytes a test wants, well-formed or not.
struct ESPHomeTestClient {
    let fd: Int32

    static let identity = ProxyIdentity(name: "rtstack-test", friendlyName: "rtstack test", macAddress: "AA:BB:CC:DD:EE:01",
                                        bluetoothMACAddress: "AA:BB:CC:DD:EE:01",
                                        features: [.passiveScan, .activeConnections, .remoteCaching, .rawAdvertisements])

    /// Connects to `port` on 127.0.0.1; `receiveBuffer` shrinks the client's socket buffer
    /// (a client that does not read fills it sooner).
    init(port: UInt16, receiveBuffer: Int32? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(fd >= 0)
        if var size = receiveBuffer {
            _ = setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        try #require(Self.connect(fd, toLoopbackPort: port) == 0, "connect: \(String(cString: strerror(errno)))")
    }

    func close() { _ = Glibc.close(fd) }

    /// Whether nobody listens on `port` of 127.0.0.1 any more.
    static func connectionRefused(port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { _ = Glibc.close(fd) }
        return connect(fd, toLoopbackPort: port) != 0 && errno == ECONNREFUSED
    }

    private static func connect(_ fd: Int32, toLoopbackPort port: UInt16) -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    func write(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// What arrived within `wait` ms of the first byte's arrival, or nothing after `wait` ms.
    func readAvailable(wait: Int32 = 1000) -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, wait) > 0 else { return out }
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            guard n > 0 else { break }
            out += buffer[0..<n]
        }
        return out
    }

    /// Reads until the server closes (true) or a second passes (false); what it read is dropped.
    func seesClose() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65536)
        for _ in 0..<100 {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 1000) > 0 else { return false }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n == 0 || (n < 0 && errno == ECONNRESET) { return true }
        }
        return false
    }

    // MARK: Frames

    static func frame(_ type: APIMessageType, _ payload: [UInt8] = []) -> [UInt8] {
        var bytes: [UInt8] = []
        PlaintextFraming.encode(APIFrame(type: type.rawValue, payload: payload), into: &bytes)
        return bytes
    }

    /// HelloRequest { client_info = "t"; api_version_major = 1; api_version_minor = 19 }
    static let hello = frame(.helloRequest, [0x0A, 0x01, 0x74, 0x10, 0x01, 0x18, 0x13])

    /// The message types of the plaintext frames in `bytes`.
    static func types(_ bytes: [UInt8]) throws -> [UInt16] {
        var decoder = PlaintextFraming()
        decoder.append(bytes)
        var types: [UInt16] = []
        while let frame = try decoder.next() { types.append(frame.type) }
        return types
    }
}

extension ESPHomeServer {
    /// A plaintext (or keyed) server on a free loopback port.
    static func loopback(key: NoisePresharedKey? = nil, clientLimit: Int = ESPHomeServer.defaultClientLimit) throws -> ESPHomeServer {
        try ESPHomeServer(endpoint: ESPHomeEndpoint(host: "127.0.0.1", port: 0), identity: ESPHomeTestClient.identity,
                          key: key, clientLimit: clientLimit)
    }

    /// Accepts what is pending and returns the newest client's id.
    func acceptNewest(at now: HostTime = 0) throws -> Int {
        var pfd = pollfd(fd: descriptors()[0].fd, events: Int16(POLLIN), revents: 0)
        _ = poll(&pfd, 1, 1000)
        accept(at: now)
        return try #require(clients.keys.max())
    }

    /// Waits up to a second for client `id` to be readable, then reads it.
    func pump(_ id: Int, at now: HostTime = 0) -> (requests: [ClientMessage], closed: Bool) {
        guard let fd = clients[id]?.fd else { return ([], true) }
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        _ = poll(&pfd, 1, 1000)
        return read(id, events: pfd.revents == 0 ? Int16(POLLIN) : pfd.revents, at: now)
    }

    /// A client past its hello: the client, its id here.
    func readyClient(at now: HostTime = 0) throws -> (ESPHomeTestClient, Int) {
        let client = try ESPHomeTestClient(port: port)
        let id = try acceptNewest(at: now)
        client.write(ESPHomeTestClient.hello)
        _ = pump(id, at: now)
        try #require(isReady(id))
        _ = client.readAvailable()
        return (client, id)
    }

    /// Whether client `id` still answers a ping.
    func answersPing(_ id: Int, _ client: ESPHomeTestClient, at now: HostTime = 0) throws -> Bool {
        client.write(ESPHomeTestClient.frame(.pingRequest))
        guard !pump(id, at: now).closed else { return false }
        return try ESPHomeTestClient.types(client.readAvailable()) == [APIMessageType.pingResponse.rawValue]
    }
}
