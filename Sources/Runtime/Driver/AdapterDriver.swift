import HostCore
import Wire

/// Runs one adapter on its event loop thread, for either backend: its I/O (`AdapterIO`) feeds
/// the host; after every input the driver pulls what the host has for the adapter (through the
/// I/O) and then its events, which go to the application — which may call into the host again,
/// whose outputs are pulled in turn, until nothing is left (`settle`). Nothing in the host calls
/// out, so nothing here guards against being called back.
public final class AdapterDriver: EventLoopDriver {
    public let host: any Host
    public let io: any AdapterIO
    private let context: EventLoopContext<AdapterDriver>
    private let application: HostApplication
    private var now: UInt64
    /// Where bonds the host reports are kept (the state directory's `FileBondStore`).
    private let bondStore: BondPersistence?

    /// Builds the driver on the loop thread: attaches the application, starts the host.
    public init(context: EventLoopContext<AdapterDriver>, io: any AdapterIO, application: HostApplication,
                bondStore: BondPersistence? = nil, at now: UInt64) {
        self.context = context
        self.io = io
        self.host = io.host
        self.application = application
        self.bondStore = bondStore
        self.now = now
        application.attach(self, at: now)
        host.start(at: now)
        settle()
    }

    /// Runs application code that calls into the host (a job from another thread), then hands
    /// on what it caused.
    public func run(_ body: () -> Void) {
        now = MonotonicClock.now()
        body()
        settle()
    }

    /// The time of the input being handled (monotonic ns).
    public var currentTime: UInt64 { now }

    public var adapterName: String { io.name }

    /// The loop handle, for code that must call back in later from another thread.
    public var loop: EventLoop<AdapterDriver> { context.loop }

    /// Ends the loop after the current turn.
    public func stop() { context.stop() }

    /// Hands on everything the last input caused: the host's packets (through the I/O), then its
    /// events to the application, again until both are quiet.
    private func settle() {
        while true {
            var progressed = io.transmit(at: now)
            for w in io.takeWarnings() { application.hostEvent(.warning(w), at: now) }
            while let e = host.pollEvent() {
                progressed = true
                if case let .security(_, s) = e { keepBond(s) }
                application.hostEvent(e, at: now)
            }
            if !progressed { break }
        }
        if let failure = io.failure { context.fail(failure) }
    }

    /// Bonds outlive the process: stored as the host reports them, before the application
    /// hears of them. A bond that cannot be written is said as a warning, never with its keys.
    private func keepBond(_ event: SecurityEvent) {
        guard let store = bondStore else { return }
        switch event {
        case let .bondStored(bond):
            do throws(StateError) {
                try store.keep(bond)
            } catch {
                application.hostEvent(.warning(HostWarning("the bond with \(bond.address) could not be stored: \(error)")), at: now)
            }
        case let .bondRemoved(address):
            store.forget(address)
        default:
            break
        }
    }

    // MARK: EventLoopDriver

    public func collectDescriptors(into list: inout [WatchedDescriptor]) {
        io.collectDescriptors(into: &list)
    }

    public func descriptorReady(_ token: Int, events: Int16, at now: UInt64) {
        self.now = now
        io.descriptorReady(token, events: events, at: now) { settle() }
        settle()
        application.inputProcessed(at: now)
        settle()
    }

    public var nextDeadline: UInt64? {
        switch (host.nextDeadline, application.nextDeadline) {
        case let (a?, b?): return min(a, b)
        case let (a?, nil): return a
        case let (nil, b?): return b
        case (nil, nil): return nil
        }
    }

    public func deadlineReached(at now: UInt64) {
        self.now = now
        if let d = host.nextDeadline, d <= now { host.advanceTime(to: now) }
        settle()
        if let d = application.nextDeadline, d <= now { application.deadlineReached(at: now) }
        settle()
    }

    public func shutdownRequested(at now: UInt64) -> Bool {
        self.now = now
        let stopNow = application.shutdownRequested(at: now)
        settle()
        return stopNow
    }

    public func loopEnding(_ outcome: EventLoopOutcome) {
        let reason: TransportError
        if case .transportClosed(let error) = outcome {
            reason = io.describeEnd(error)
        } else {
            reason = .closed(adapter: io.name)
        }
        application.adapterClosed(reason)
        io.close()
    }
}
