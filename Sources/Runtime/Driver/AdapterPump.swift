import HostCore
import Wire

/// What an `AdapterPump` hands its host's events to: the run session, the async API's bridge,
/// or one adapter's share of the gateway.
public protocol HostEventSink: AnyObject {
    /// The host's events, in order. The sink may call into the host from here.
    func hostEvent(_ event: HostEvent, at now: HostTime)
    /// Every packet of one read has been handled: a place to hand on, in one go, what the read
    /// produced (the async API yields its notification batches here).
    func inputProcessed(at now: HostTime)
}

extension HostEventSink {
    public func inputProcessed(at now: HostTime) {}
}

/// One adapter on a loop thread, for either backend: its I/O (`AdapterIO`) feeds the host; after
/// every input the pump pulls what the host has for the adapter (through the I/O) and then its
/// events, which go to the sink — which may call into the host again, whose outputs are pulled in
/// turn, until nothing is left (`settle`). Nothing in the host calls out, so nothing here guards
/// against being called back.
///
/// The piece every driver of adapters shares: `AdapterDriver` runs one pump on its loop; the
/// gateway runs one per adapter, next to its broker and control sockets, on one loop. Tokens in
/// `collectDescriptors`/`descriptorReady` are the I/O's own; a driver with several pumps maps
/// them. A pump never ends the loop: a lost adapter shows as `failure`, and the driver decides.
public final class AdapterPump {
    public let host: any Host
    public let io: any AdapterIO
    private let sink: HostEventSink
    /// Where bonds the host reports are kept (the state directory's `FileBondStore`).
    private let bondStore: BondPersistence?
    /// The time of the input being handled (monotonic ns).
    public private(set) var now: UInt64

    /// Attach the sink's other half (if any) before `start`: the host's first events follow it.
    public init(io: any AdapterIO, sink: HostEventSink, bondStore: BondPersistence? = nil, at now: UInt64) {
        self.io = io
        self.host = io.host
        self.sink = sink
        self.bondStore = bondStore
        self.now = now
    }

    /// Brings the host up (its first commands go out at once).
    public func start(at now: UInt64) {
        self.now = now
        host.start(at: now)
        settle()
    }

    /// Runs code that calls into the host (a job from another thread, a command from MQTT),
    /// then hands on what it caused.
    public func run(_ body: () -> Void) {
        now = MonotonicClock.now()
        body()
        settle()
    }

    /// What this pump's adapter lost (transport ended, management socket failed); nil while it
    /// works.
    public var failure: TransportError? { io.failure }

    /// Hands on everything the last input caused: the host's packets (through the I/O), then its
    /// events to the sink, again until both are quiet. Returns whether there was anything (a
    /// driver with several pumps settles them all until none has: a sink may have called into
    /// another pump's host).
    @discardableResult
    public func settle() -> Bool {
        var any = false
        while true {
            var progressed = io.transmit(at: now)
            for w in io.takeWarnings() { sink.hostEvent(.warning(w), at: now) }
            while let e = host.pollEvent() {
                progressed = true
                if case let .security(_, s) = e { keepBond(s) }
                sink.hostEvent(e, at: now)
            }
            if !progressed { return any }
            any = true
        }
    }

    /// Bonds outlive the process: stored as the host reports them, before the sink hears of
    /// them. A bond that cannot be written is said as a warning, never with its keys.
    private func keepBond(_ event: SecurityEvent) {
        guard let store = bondStore else { return }
        switch event {
        case let .bondStored(bond):
            do throws(StateError) {
                try store.keep(bond)
            } catch {
                sink.hostEvent(.warning(HostWarning("the bond with \(bond.address) could not be stored: \(error)")), at: now)
            }
        case let .bondRemoved(address):
            store.forget(address)
        default:
            break
        }
    }

    public func collectDescriptors(into list: inout [WatchedDescriptor]) {
        io.collectDescriptors(into: &list)
    }

    public func descriptorReady(_ token: Int, events: Int16, at now: UInt64) {
        self.now = now
        io.descriptorReady(token, events: events, at: now) { _ = settle() }
        settle()
        sink.inputProcessed(at: now)
        settle()
    }

    /// The host's next deadline.
    public var nextDeadline: UInt64? { host.nextDeadline }

    /// Advances the host when its deadline is due.
    public func deadlineReached(at now: UInt64) {
        self.now = now
        if let d = host.nextDeadline, d <= now { host.advanceTime(to: now) }
        settle()
    }

    /// Closes the adapter's descriptors; returns how the end reads for the user (`error` is
    /// the loss, nil when the adapter was closed on purpose).
    public func close(after error: TransportError?) -> TransportError {
        let reason = error.map(io.describeEnd) ?? .closed(adapter: io.name)
        io.close()
        return reason
    }
}
