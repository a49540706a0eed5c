import HostCore
import Wire

/// Runs one adapter on its event loop thread, for either backend: an `AdapterPump` (the I/O
/// feeds the host; its outputs and events are pulled after every input) whose events go to a
/// `HostApplication`, plus the application's deadlines, the first Ctrl-C and the loop's end.
/// A lost adapter ends the loop.
public final class AdapterDriver: EventLoopDriver {
    public var host: any Host { pump.host }
    public var io: any AdapterIO { pump.io }
    private let pump: AdapterPump
    private let context: EventLoopContext<AdapterDriver>
    private let application: HostApplication

    /// Builds the driver on the loop thread: attaches the application, starts the host.
    /// `bondStore`: where the bonds the host reports are kept (the state directory's `FileBondStore`).
    public init(context: EventLoopContext<AdapterDriver>, io: any AdapterIO, application: HostApplication,
                bondStore: BondPersistence? = nil, at now: UInt64) {
        self.context = context
        self.application = application
        pump = AdapterPump(io: io, sink: application, bondStore: bondStore, at: now)
        application.attach(self, at: now)
        pump.start(at: now)
        failIfLost()
    }

    /// Runs application code that calls into the host (a job from another thread), then hands
    /// on what it caused.
    public func run(_ body: () -> Void) {
        pump.run(body)
        failIfLost()
    }

    /// The time of the input being handled (monotonic ns).
    public var currentTime: UInt64 { pump.now }

    public var adapterName: String { pump.io.name }

    /// The loop handle, for code that must call back in later from another thread.
    public var loop: EventLoop<AdapterDriver> { context.loop }

    /// Ends the loop after the current turn.
    public func stop() { context.stop() }

    private func failIfLost() {
        if let failure = pump.failure { context.fail(failure) }
    }

    // MARK: EventLoopDriver

    public func collectDescriptors(into list: inout [WatchedDescriptor]) {
        pump.collectDescriptors(into: &list)
    }

    public func descriptorReady(_ token: Int, events: Int16, at now: UInt64) {
        pump.descriptorReady(token, events: events, at: now)
        failIfLost()
    }

    public var nextDeadline: UInt64? {
        switch (pump.nextDeadline, application.nextDeadline) {
        case let (a?, b?): return min(a, b)
        case let (a?, nil): return a
        case let (nil, b?): return b
        case (nil, nil): return nil
        }
    }

    public func deadlineReached(at now: UInt64) {
        pump.deadlineReached(at: now)
        if let d = application.nextDeadline, d <= now { application.deadlineReached(at: now) }
        pump.settle()
        failIfLost()
    }

    public func shutdownRequested(at now: UInt64) -> Bool {
        var stopNow = false
        pump.run { stopNow = application.shutdownRequested(at: now) }
        failIfLost()
        return stopNow
    }

    public func loopEnding(_ outcome: EventLoopOutcome) {
        var error: TransportError?
        if case .transportClosed(let e) = outcome { error = e }
        application.adapterClosed(pump.close(after: error))
    }
}
