#if canImport(Glibc)
import Glibc
#endif
import Wire

/// Buffered writer over a file descriptor. Decoding writes millions of short lines, so output
/// goes out in large writes; live views and JSON Lines call `flush()` per event instead.
public final class OutputStream: @unchecked Sendable {
    private let fd: Int32
    private var buffer = TextBuffer()
    private let limit: Int

    public init(fd: Int32, bufferSize: Int = 1 << 16) {
        self.fd = fd
        self.limit = bufferSize
        // Room for the limit plus one long line, so that the buffer never grows.
        buffer = TextBuffer(capacity: bufferSize + bufferSize / 4)
    }

    public static let standardOutput = OutputStream(fd: 1)
    public static let standardError = OutputStream(fd: 2, bufferSize: 4096)

    public var isTerminal: Bool { isatty(fd) == 1 }

    public func write(_ s: String) {
        buffer.append(s)
        if buffer.count >= limit { flush() }
    }

    /// Lets a renderer that writes into an array append its bytes (one copy; `append(text:)`
    /// writes in place).
    public func append(_ body: (inout [UInt8]) -> Void) {
        var bytes: [UInt8] = []
        body(&bytes)
        bytes.withUnsafeBufferPointer { buffer.append(bytes: $0) }
        if buffer.count >= limit { flush() }
    }

    /// Lets a renderer append text straight into the buffer.
    public func append(text body: (inout TextBuffer) -> Void) {
        body(&buffer)
        if buffer.count >= limit { flush() }
    }

    public func line(_ s: String) {
        write(s)
        buffer.append(byte: 0x0a)
        if buffer.count >= limit { flush() }
    }

    public func flush() {
        var off = 0
        while off < buffer.count {
            let n = buffer.withUnsafeBufferPointer { raw in
                Glibc.write(fd, raw.baseAddress! + off, raw.count - off)
            }
            if n < 0 {
                if errno == EINTR { continue }
                break   // EPIPE (e.g. `| head`): drop what is left rather than spin.
            }
            off += n
        }
        buffer.removeAll()
    }

    deinit { flush() }
}
