#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Wire

/// Buffered writer over a file descriptor. Decoding writes millions of short lines, so output
/// goes out in large writes; live views and JSON Lines call `flush()` per event instead.
///
/// One stream is written from several threads at once — the subscribe command's task per
/// characteristic, the pairing agent's questions, notices from the loop thread — so its buffer
/// is behind a mutex: each call (a line, an appended record, a flush) goes in whole, never
/// interleaved with another's, and none is lost. Uncontended, the lock costs a few
/// nanoseconds a line next to the formatting of it.
public final class OutputStream: Sendable {
    private let fd: Int32
    private let buffer: Mutex<TextBuffer>
    private let limit: Int

    public init(fd: Int32, bufferSize: Int = 1 << 16) {
        self.fd = fd
        self.limit = bufferSize
        // Room for the limit plus one long line, so that the buffer never grows.
        buffer = Mutex(TextBuffer(capacity: bufferSize + bufferSize / 4))
    }

    public static let standardOutput = OutputStream(fd: 1)
    public static let standardError = OutputStream(fd: 2, bufferSize: 4096)

    public var isTerminal: Bool { isatty(fd) == 1 }

    public func write(_ s: String) {
        buffer.withLock { b in
            b.append(s)
            if b.count >= limit { drain(&b) }
        }
    }

    /// Lets a renderer that writes into an array append its bytes (one copy; `append(text:)`
    /// writes in place).
    public func append(_ body: (inout [UInt8]) -> Void) {
        var bytes: [UInt8] = []
        body(&bytes)
        buffer.withLock { b in
            bytes.withUnsafeBufferPointer { b.append(bytes: $0) }
            if b.count >= limit { drain(&b) }
        }
    }

    /// Lets a renderer append text straight into the buffer (under the lock: `body` must not
    /// write to this stream itself).
    public func append(text body: (inout TextBuffer) -> Void) {
        buffer.withLock { b in
            body(&b)
            if b.count >= limit { drain(&b) }
        }
    }

    public func line(_ s: String) {
        buffer.withLock { b in
            b.append(s)
            b.append(byte: 0x0a)
            if b.count >= limit { drain(&b) }
        }
    }

    public func flush() {
        buffer.withLock { drain(&$0) }
    }

    /// Writes out the buffer; called with the lock held, so writes leave in the order taken.
    private func drain(_ b: inout TextBuffer) {
        var off = 0
        while off < b.count {
            let n = b.withUnsafeBufferPointer { raw in
                Glibc.write(fd, raw.baseAddress! + off, raw.count - off)
            }
            if n < 0 {
                if errno == EINTR { continue }
                break   // EPIPE (e.g. `| head`): drop what is left rather than spin.
            }
            off += n
        }
        b.removeAll()
    }

    deinit { flush() }
}
