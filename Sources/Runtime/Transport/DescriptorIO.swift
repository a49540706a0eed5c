import Glibc

/// The non-blocking read/write/queue logic shared by the transports (`DescriptorTransport`).
///
/// Kept as a struct inside each transport class instead of a base class so each transport
/// stays a `final class` with static dispatch on its hot path.
struct DescriptorIO {
    enum WriteCall {
        /// `send(2)` with MSG_NOSIGNAL: a closed socket yields EPIPE instead of killing us.
        case socketSend
        /// `write(2)`: ttys do not raise SIGPIPE.
        case plainWrite
    }

    private(set) var fd: Int32
    let name: String
    let writeCall: WriteCall
    private var queue: WriteQueue

    init(fd: Int32, name: String, writeCall: WriteCall, queueLimit: Int, keepsPacketBoundaries: Bool) {
        self.fd = fd
        self.name = name
        self.writeCall = writeCall
        self.queue = WriteQueue(limit: queueLimit, keepsPacketBoundaries: keepsPacketBoundaries)
    }

    var isOpen: Bool { fd >= 0 }
    var hasPendingWrites: Bool { !queue.isEmpty }
    var pendingByteCount: Int { queue.count }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(TransportError) -> Int {
        guard fd >= 0 else { throw .closed(adapter: name) }
        while true {
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if n > 0 { return n }
            if n == 0 { throw .endOfStream(adapter: name) }
            let code = currentErrno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return 0 }
            throw mapped(code, operation: "read")
        }
    }

    mutating func write(_ bytes: UnsafeRawBufferPointer) throws(TransportError) {
        guard fd >= 0 else { throw .closed(adapter: name) }
        guard queue.accepts(bytes.count) else { throw .writeQueueFull(adapter: name, limit: queue.limit) }
        if !queue.isEmpty {
            // Keep order: behind what already waits.
            queue.append(bytes)
            try flushPendingWrites()
            return
        }
        var offset = 0
        while offset < bytes.count {
            switch send(UnsafeRawBufferPointer(rebasing: bytes[offset...])) {
            case .sent(let n):
                if queue.keepsPacketBoundaries { return }
                offset += n
            case .wouldBlock:
                queue.append(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
                return
            case .failed(let error):
                throw error
            }
        }
    }

    mutating func flushPendingWrites() throws(TransportError) {
        guard fd >= 0 else { throw .closed(adapter: name) }
        let fd = self.fd
        let call = writeCall
        let name = self.name
        try queue.flush { chunk in Self.send(chunk, fd: fd, call: call, name: name) }
    }

    mutating func close() {
        FileDescriptorFlags.closeIgnoringErrors(fd)
        fd = -1
        queue.removeAll()
    }

    private func send(_ chunk: UnsafeRawBufferPointer) -> WriteQueue.SendResult {
        Self.send(chunk, fd: fd, call: writeCall, name: name)
    }

    private static func send(_ chunk: UnsafeRawBufferPointer, fd: Int32, call: WriteCall, name: String) -> WriteQueue.SendResult {
        while true {
            let n: Int
            switch call {
            case .socketSend: n = Glibc.send(fd, chunk.baseAddress, chunk.count, Int32(MSG_NOSIGNAL))
            case .plainWrite: n = Glibc.write(fd, chunk.baseAddress, chunk.count)
            }
            if n > 0 || chunk.isEmpty { return .sent(n) }
            if n == 0 { return .wouldBlock }  // took nothing: wait for POLLOUT rather than spin
            let code = currentErrno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return .wouldBlock }
            return .failed(mapped(code, operation: "write", name: name))
        }
    }

    private func mapped(_ code: Int32, operation: String) -> TransportError {
        Self.mapped(code, operation: operation, name: name)
    }

    private static func mapped(_ code: Int32, operation: String, name: String) -> TransportError {
        switch code {
        case ECONNRESET, EPIPE: return .connectionReset(adapter: name)
        default: return .systemCall(operation: "\(operation) \(name)", errno: code)
        }
    }
}
