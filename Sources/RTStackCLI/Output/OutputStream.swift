#if canImport(Glibc)
import Glibc
#endif

/// Buffered writer over a file descriptor. Decoding writes millions of short lines, so output
/// goes out in large writes; live views and JSON Lines call `flush()` per event instead.
public final class OutputStream: @unchecked Sendable {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private let limit: Int

    public init(fd: Int32, bufferSize: Int = 1 << 16) {
        self.fd = fd
        self.limit = bufferSize
        buffer.reserveCapacity(bufferSize)
    }

    public static let standardOutput = OutputStream(fd: 1)
    public static let standardError = OutputStream(fd: 2, bufferSize: 4096)

    public var isTerminal: Bool { isatty(fd) == 1 }

    public func write(_ s: String) {
        buffer.append(contentsOf: s.utf8)
        if buffer.count >= limit { flush() }
    }

    /// Lets a renderer append bytes straight into the buffer.
    public func append(_ body: (inout [UInt8]) -> Void) {
        body(&buffer)
        if buffer.count >= limit { flush() }
    }

    public func line(_ s: String) {
        write(s)
        buffer.append(0x0a)
        if buffer.count >= limit { flush() }
    }

    public func flush() {
        var off = 0
        while off < buffer.count {
            let n = buffer.withUnsafeBytes { raw in
                Glibc.write(fd, raw.baseAddress! + off, raw.count - off)
            }
            if n < 0 {
                if errno == EINTR { continue }
                break   // EPIPE (e.g. `| head`): drop what is left rather than spin.
            }
            off += n
        }
        buffer.removeAll(keepingCapacity: true)
    }

    deinit { flush() }
}
