import Wire

/// The driver's way back into its loop: writing to the transport, ending the loop, and the
/// `Sendable` loop handle to give to other threads.
///
/// Loop-thread only. It is deliberately not `Sendable`, so the compiler rejects capturing it
/// in a `@Sendable` job or handing it to another thread; those use `loop` (the handle) instead.
public final class EventLoopContext<Driver: EventLoopDriver> {
    /// The thread-safe handle: `submit` and `stop` from any thread.
    public let loop: EventLoop<Driver>
    let transport: any HCITransport
    private(set) var failure: TransportError?
    private(set) var stopRequested = false

    init(loop: EventLoop<Driver>, transport: any HCITransport) {
        self.loop = loop
        self.transport = transport
    }

    /// Whether the transport keeps packet boundaries or needs an H4 framer.
    public var framing: TransportFraming { transport.framing }

    /// The transport's label ("tcp:127.0.0.1:9000"), for the traffic tap and messages.
    public var adapterName: String { transport.name }

    /// Bytes waiting in the transport's write queue.
    public var hasPendingWrites: Bool { transport.hasPendingWrites }

    /// Sends one H4 packet (indicator byte first) or any run of H4 bytes on a stream.
    ///
    /// Never blocks: what the descriptor cannot take now is queued (bounded) and flushed when
    /// it becomes writable. An error that `endsTransport` also ends the loop after the current
    /// callback, with `transportClosed`; `writeQueueFull` only rejects this write.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(TransportError) {
        if let failure { throw failure }
        do throws(TransportError) {
            try transport.write(bytes)
        } catch {
            if error.endsTransport { failure = error }
            throw error
        }
    }

    public func write(_ bytes: [UInt8]) throws(TransportError) {
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

    /// Sends `packet` with its H4 indicator byte, assembled in a stack buffer (no heap
    /// allocation for the usual packet sizes).
    public func write(_ packet: HCIPacket) throws(TransportError) {
        let count = packet.bytes.count + 1
        let result = withUnsafeTemporaryAllocation(byteCount: count, alignment: 1) { buffer -> Result<Void, TransportError> in
            buffer[0] = packet.type.rawValue
            var i = 1
            for byte in packet.bytes {
                buffer[i] = byte
                i += 1
            }
            do throws(TransportError) {
                try write(UnsafeRawBufferPointer(buffer))
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    /// Ends the loop once the current callback returns (pending writes are not waited for).
    public func stop() { stopRequested = true }

    func recordFailure(_ error: TransportError) {
        if failure == nil { failure = error }
    }
}

@available(*, unavailable, message: "the context belongs to the loop thread; use `loop` from other threads")
extension EventLoopContext: Sendable {}
