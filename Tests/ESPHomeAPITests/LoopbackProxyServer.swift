import ESPHomeAPI
import Foundation
import Glibc

/// A TCP listener on 127.0.0.1 that runs `APIServerConnection` for each client in the test's
/// own thread, with `answer` standing in for the proxy: just enough I/O to put Home Assistant's
/// real client in front of the protocol layer.
final class LoopbackProxyServer {
    let port: UInt16
    private let listener: Int32
    private var clients: [(fd: Int32, connection: APIServerConnection)] = []
    private let identity: ProxyIdentity
    private let key: NoisePresharedKey?
    private(set) var closeReasons: [String] = []

    init(identity: ProxyIdentity, key: NoisePresharedKey?) throws {
        self.identity = identity
        self.key = key
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 8) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
    }


    deinit {
        for client in clients { close(client.fd) }
        close(listener)
    }

    /// Serves until `done` says so or `timeout` seconds pass.
    func serve(timeout: Double, until done: () -> Bool, answer: (ClientMessage, inout APIServerConnection) -> Void) {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end, !done() {
            var descriptors = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
            descriptors += clients.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            _ = poll(&descriptors, nfds_t(descriptors.count), 20)
            if descriptors[0].revents & Int16(POLLIN) != 0 {
                let fd = accept(listener, nil, nil)
                if fd >= 0 { clients.append((fd, APIServerConnection(identity: identity, key: key))) }
            }
            var index = 0
            while index < clients.count {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let ready = descriptors.first { $0.fd == clients[index].fd }?.revents ?? 0
                var ended = false
                if ready & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                    let count = read(clients[index].fd, &buffer, buffer.count)
                    if count <= 0 {
                        ended = true
                        closeReasons.append("the client closed its socket")
                    } else {
                        for request in clients[index].connection.receive(buffer[0..<count]) {
                            answer(request, &clients[index].connection)
                        }
                    }
                }
                let output = clients[index].connection.takeOutput()
                if !output.isEmpty { _ = output.withUnsafeBytes { write(clients[index].fd, $0.baseAddress, $0.count) } }
                if let reason = clients[index].connection.closeReason {
                    closeReasons.append(reason)
                    ended = true
                }
                if ended {
                    close(clients[index].fd)
                    clients.remove(at: index)
                } else {
                    index += 1
                }
            }
        }
    }
}
