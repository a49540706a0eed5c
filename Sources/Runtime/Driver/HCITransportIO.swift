import Glibc
import HostCore
import Wire

/// The HCI backend's I/O: one transport to a controller (TCP, a serial line, the HCI user
/// channel, a capture replay) and the `HCIHost` behind it. Bytes from the transport go through
/// the H4 framer (stream transports) into `HCIHost.receive`, each packet past the tap; the
/// host's packets go out past the tap to the transport.
public final class HCITransportIO: AdapterIO {
    /// One `read(2)` takes up to this much: at 1 Mbit/s a UART delivers ~100 KiB/s, a TCP peer can
    /// burst more, and batching keeps syscalls per notification low.
    public static let readBufferSize = 64 * 1024
    /// At most this many reads per wake-up before timers and jobs get their turn.
    static let maxReadsPerTurn = 16

    public let hciHost: HCIHost
    public var host: any Host { hciHost }
    public let tap: PacketTap
    private let transport: any HCITransport
    private var framer = H4Framer(configuration: .controllerToHost)
    private let buffer: UnsafeMutableRawBufferPointer
    private var packetBuffer: [UInt8] = []
    public private(set) var failure: TransportError?
    private var warnings: [HostWarning] = []

    /// Takes an opened transport; the host is made here, with `configuration`.
    public init(transport: any HCITransport, configuration: HostConfiguration, tap: PacketTap) {
        self.transport = transport
        self.tap = tap
        hciHost = HCIHost(configuration: configuration)
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.readBufferSize, alignment: 16)
    }

    deinit {
        buffer.deallocate()
    }

    public var name: String { transport.name }

    public func collectDescriptors(into list: inout [WatchedDescriptor]) {
        let events = Int16(POLLIN) | (transport.hasPendingWrites ? Int16(POLLOUT) : 0)
        list.append(WatchedDescriptor(fd: transport.fd, events: events, token: 0))
    }

    public func descriptorReady(_ token: Int, events: Int16, at now: UInt64, settle: () -> Void) {
        let events = Int32(events)
        if events & POLLNVAL != 0 {
            fail(.closed(adapter: transport.name))
            return
        }
        if events & POLLOUT != 0 {
            do throws(TransportError) {
                try transport.flushPendingWrites()
            } catch {
                fail(error)
                return
            }
        }
        guard events & (POLLIN | POLLHUP | POLLERR) != 0 else { return }
        // Reads until the descriptor is drained or the turn's budget is spent. A stream read that
        // did not fill the buffer means the kernel had no more, so no read that returns EAGAIN.
        let stream = transport.framing == .h4Stream
        var reads = 0
        while reads < Self.maxReadsPerTurn, failure == nil {
            let count: Int
            do throws(TransportError) {
                count = try transport.read(into: buffer)
            } catch {
                fail(error)
                return
            }
            if count == 0 {
                // Hang-up or error flagged but nothing readable: the other end is gone.
                if reads == 0 && events & (POLLHUP | POLLERR) != 0 && events & POLLIN == 0 {
                    fail(.endOfStream(adapter: transport.name))
                }
                return
            }
            reads += 1
            received(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), at: now, settle: settle)
            if stream && count < buffer.count { return }
        }
    }

    private func received(_ bytes: UnsafeRawBufferPointer, at now: UInt64, settle: () -> Void) {
        switch transport.framing {
        case .packets:
            guard let typeByte = bytes.first, let type = H4PacketType(rawValue: typeByte) else {
                warnings.append(HostWarning("packet with unknown H4 type", bytes: Array(bytes)))
                return
            }
            // One reused buffer: once settled nothing holds the previous packet, so refilling it
            // allocates nothing (the no-allocation-per-notification rule holds here too).
            packetBuffer.removeAll(keepingCapacity: true)
            packetBuffer.append(contentsOf: bytes.dropFirst())
            let packet = HCIPacket(type: type, bytes: packetBuffer[...])
            tap.pass(packet, .controllerToHost, at: now)
            hciHost.receive(packet, at: now)
            settle()
        case .h4Stream:
            framer.feed(bytes)
            // Packets are lent as slices of the framer's buffer: handled inside the loan, since
            // event values may be slices of it.
            while framer.withNext({ output in
                switch output {
                case .packet(let packet):
                    tap.pass(packet, .controllerToHost, at: now)
                    hciHost.receive(packet, at: now)
                case .garbage(let garbage, let reason):
                    warnings.append(HostWarning("H4 stream: \(garbage.count) byte(s) skipped (\(reason))", bytes: garbage))
                }
                settle()
                return true
            }) != nil {}
        }
    }

    public func transmit(at now: UInt64) -> Bool {
        var sent = false
        while failure == nil, let packet = hciHost.pollTransmit(at: now) {
            sent = true
            tap.pass(packet, .hostToController, at: now)
            write(packet)
        }
        return sent
    }

    /// Sends `packet` with its H4 indicator byte, assembled in a stack buffer (no heap
    /// allocation for the usual packet sizes).
    private func write(_ packet: HCIPacket) {
        let count = packet.bytes.count + 1
        let result = withUnsafeTemporaryAllocation(byteCount: count, alignment: 1) { raw -> TransportError? in
            raw[0] = packet.type.rawValue
            var i = 1
            for byte in packet.bytes {
                raw[i] = byte
                i += 1
            }
            do throws(TransportError) {
                try transport.write(UnsafeRawBufferPointer(raw))
                return nil
            } catch {
                return error
            }
        }
        guard let error = result else { return }
        if error.endsTransport {
            fail(error)
        } else {
            warnings.append(HostWarning("write to \(transport.name) failed: \(error)"))
        }
    }

    private func fail(_ error: TransportError) {
        if failure == nil { failure = error }
    }

    public func takeWarnings() -> [HostWarning] {
        guard !warnings.isEmpty else { return [] }
        defer { warnings.removeAll() }
        return warnings
    }

    /// A stream that ends with part of a packet in the framer says so: that packet is lost, and
    /// a user reading only "end of stream" would not know the controller side cut it.
    public func describeEnd(_ error: TransportError) -> TransportError {
        guard transport.framing == .h4Stream, framer.bufferedByteCount > 0 else { return error }
        switch error {
        case .endOfStream(let adapter), .connectionReset(let adapter):
            return .closedMidPacket(adapter: adapter, partialBytes: framer.bufferedByteCount)
        default:
            return error
        }
    }

    public func close() {
        transport.close()
    }
}
