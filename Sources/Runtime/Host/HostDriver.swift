import HostCore
import Wire

/// Runs the sans-I/O host on the event-loop thread: bytes from the transport go through the H4
/// framer (stream transports) into `Host.receive`; the host's packets go out through the tap to
/// the transport; its events go to the application.
public final class HostDriver: EventLoopDriver, HostSink {
    public let host: Host
    public let tap: PacketTap
    private let context: EventLoopContext<HostDriver>
    private var framer: H4Framer
    private let application: HostApplication
    private var now: UInt64 = 0
    /// Host events wait here until the host call that raised them has returned: the host must
    /// not be re-entered from its own sink, and a request's id must be known before its
    /// completion is handled. Reused, so queuing allocates nothing once warmed up.
    private var pending: [HostEvent] = []
    private var draining = false
    private var packetBuffer: [UInt8] = []
    /// Bytes the framer could not make sense of (resynchronised over), for `rtstack info`.
    public private(set) var garbageBytes = 0

    public init(context: EventLoopContext<HostDriver>, configuration: HostConfiguration, tap: PacketTap,
                application: HostApplication, at now: UInt64) {
        self.context = context
        self.tap = tap
        self.application = application
        self.framer = H4Framer(configuration: .controllerToHost)
        self.now = now
        // `Host` needs its sink at construction; the driver is that sink, so it is made in
        // two steps through an unowned forwarding box.
        let forward = SinkForwarder()
        self.host = Host(configuration: configuration, sink: forward)
        forward.target = self
        pending.reserveCapacity(64)
        application.attach(self, at: now)
        host.start(at: now)
        drain()
    }

    /// Runs application code that calls into the host, then hands over the events it raised.
    /// Every job from another thread goes through here.
    public func run(_ body: () -> Void) {
        now = MonotonicClock.now()
        body()
        drain()
    }

    /// The time of the input being handled (monotonic ns).
    public var currentTime: UInt64 { now }

    private func drain() {
        guard !draining else { return }
        draining = true
        var i = 0
        while i < pending.count {
            let event = pending[i]
            i += 1
            application.hostEvent(event, at: now)
        }
        pending.removeAll(keepingCapacity: true)
        draining = false
    }

    public var adapterName: String { context.adapterName }

    /// Ends the loop after the current turn (pending writes are flushed first).
    public func stop() { context.stop() }

    // MARK: EventLoopDriver

    public func received(_ bytes: UnsafeRawBufferPointer, at now: UInt64) {
        self.now = now
        switch context.framing {
        case .packets:
            guard let typeByte = bytes.first, let type = H4PacketType(rawValue: typeByte) else {
                deliver(.warning(HostWarning("packet with unknown H4 type", bytes: Array(bytes))))
                return
            }
            // One reused buffer: after `drain()` nothing holds the previous packet, so refilling
            // it allocates nothing (the no-allocation-per-notification rule holds here too).
            packetBuffer.removeAll(keepingCapacity: true)
            packetBuffer.append(contentsOf: bytes.dropFirst())
            let packet = HCIPacket(type: type, bytes: packetBuffer[...])
            tap.pass(packet, .controllerToHost, at: now)
            host.receive(packet, at: now)
            drain()
            application.inputProcessed(at: now)
        case .h4Stream:
            framer.feed(bytes)
            // Packets are lent as slices of the framer's buffer: the host must not keep them
            // beyond `receive` (notification values are copied by whoever stores them).
            while framer.withNext({ output in
                switch output {
                case .packet(let packet):
                    tap.pass(packet, .controllerToHost, at: now)
                    host.receive(packet, at: now)
                case .garbage(let garbage, let reason):
                    garbageBytes += garbage.count
                    deliver(.warning(HostWarning("H4 stream: \(garbage.count) byte(s) skipped (\(reason))", bytes: garbage)))
                }
                // Handled inside the loan: event values may be slices of the framer's buffer.
                drain()
                return true
            }) != nil {}
            application.inputProcessed(at: now)
        }
    }

    public func deadlineReached(at now: UInt64) {
        self.now = now
        if let d = host.nextDeadline, d <= now { host.advanceTime(to: now) }
        drain()
        if let d = application.nextDeadline, d <= now { application.deadlineReached(at: now) }
        drain()
    }

    public var nextDeadline: UInt64? {
        switch (host.nextDeadline, application.nextDeadline) {
        case let (a?, b?): return min(a, b)
        case let (a?, nil): return a
        case let (nil, b?): return b
        case (nil, nil): return nil
        }
    }

    /// A stream that ends with part of a packet in the framer says so: that packet is lost,
    /// and a user reading only "end of stream" would not know the controller side cut it.
    public func transportClosed(_ error: TransportError) {
        var reason = error
        if context.framing == .h4Stream, framer.bufferedByteCount > 0 {
            switch error {
            case .endOfStream(let adapter), .connectionReset(let adapter):
                reason = .closedMidPacket(adapter: adapter, partialBytes: framer.bufferedByteCount)
            default:
                break
            }
        }
        application.transportClosed(reason)
    }

    public func shutdownRequested(at now: UInt64) -> Bool {
        self.now = now
        let stopNow = application.shutdownRequested(at: now)
        drain()
        return stopNow
    }

    // MARK: HostSink

    public func send(_ packet: HCIPacket) {
        tap.pass(packet, .hostToController, at: now)
        do {
            try context.write(packet)
        } catch {
            deliver(.warning(HostWarning("write to \(context.adapterName) failed: \(error)")))
        }
    }

    public func deliver(_ event: HostEvent) {
        pending.append(event)
    }
}

/// Breaks the construction cycle between `Host` (which needs a sink) and the driver (which
/// owns the host).
private final class SinkForwarder: HostSink {
    weak var target: HostDriver?
    func send(_ packet: HCIPacket) { target?.send(packet) }
    func deliver(_ event: HostEvent) { target?.deliver(event) }
}
