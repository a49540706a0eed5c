/// A transport whose descriptor work is `DescriptorIO`'s: TCP, serial, the HCI user channel and
/// a replay. They differ in how they open their descriptor, what they do on close, and which
/// errors mean that the controller went away; reading, writing and queueing are written once,
/// here. (A protocol rather than a base class: each transport stays a `final class`, and in a
/// whole-module build the shared bodies are specialised for it, so the hot path is unchanged.)
protocol DescriptorTransport: HCITransport {
    var io: DescriptorIO { get set }

    /// The error as this transport reports it: a tty's EIO and an unplugged adapter's
    /// ENODEV are the end of the stream, not a failed call. The default changes nothing.
    func reported(_ error: TransportError) -> TransportError
}

extension DescriptorTransport {
    public var fd: Int32 { io.fd }
    public var hasPendingWrites: Bool { io.hasPendingWrites }
    public var pendingByteCount: Int { io.pendingByteCount }

    func reported(_ error: TransportError) -> TransportError { error }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(TransportError) -> Int {
        do throws(TransportError) {
            return try io.read(into: buffer)
        } catch {
            throw reported(error)
        }
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(TransportError) {
        do throws(TransportError) {
            try io.write(bytes)
        } catch {
            throw reported(error)
        }
    }

    public func flushPendingWrites() throws(TransportError) {
        do throws(TransportError) {
            try io.flushPendingWrites()
        } catch {
            throw reported(error)
        }
    }

    public func close() { io.close() }
}
