/// How HCI packet boundaries reach the host over a transport.
public enum TransportFraming: Sendable, Hashable {
    /// A byte stream carrying H4 (packet indicator byte + packet): TCP, a UART. Reads end
    /// anywhere, so an H4 framer must sit between the transport and the core.
    case h4Stream
    /// One read returns exactly one packet, still led by its H4 indicator byte (the Linux HCI
    /// socket). No framer is needed; each `received` call is one whole packet.
    case packets
}

/// A connection to one controller, driven by exactly one event loop thread.
///
/// Implementations own a non-blocking file descriptor that the loop polls. They are not
/// thread-safe and are not `Sendable`: after `EventLoop.start` takes the transport, only the
/// loop thread touches it.
///
/// Bytes in both directions include the H4 packet indicator byte, for both framings.
public protocol HCITransport: AnyObject {
    /// Label for messages and the traffic tap ("tcp:127.0.0.1:9000", "/dev/ttyACM0").
    var name: String { get }
    /// The descriptor to poll for POLLIN (and POLLOUT while `hasPendingWrites`).
    var fd: Int32 { get }
    var framing: TransportFraming { get }

    /// One `read(2)` into `buffer` (the loop passes 64 KiB). Returns the number of bytes read,
    /// 0 when nothing is available right now (EAGAIN). Throws `endOfStream` on EOF and other
    /// errors when the transport is gone. For `.packets` framing the result is one packet.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(TransportError) -> Int

    /// Sends all of `bytes` (one packet for `.packets` framing): what the descriptor does not
    /// take now waits in a bounded queue flushed by `flushPendingWrites()` on POLLOUT, in order.
    /// Throws `writeQueueFull` (nothing of this write sent) when the queue limit would be
    /// exceeded, and an error that `endsTransport` when the connection is gone.
    func write(_ bytes: UnsafeRawBufferPointer) throws(TransportError)

    /// Whether queued bytes wait for POLLOUT.
    var hasPendingWrites: Bool { get }

    /// Sends as much of the queue as the descriptor takes without blocking.
    func flushPendingWrites() throws(TransportError)

    /// Closes the descriptor; later calls throw `closed`. Idempotent.
    func close()
}

extension HCITransport {
    /// Writes an array (e.g. one built with `ByteWriter`).
    public func write(_ bytes: [UInt8]) throws(TransportError) {
        // Array.withUnsafeBytes is `rethrows`, which erases the error type: carry it in a Result.
        let result = bytes.withUnsafeBytes { raw -> Result<Void, TransportError> in
            do throws(TransportError) {
                try write(raw)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }
}
