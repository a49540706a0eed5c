import Glibc
import Synchronization

/// One descriptor a `MultiDescriptorDriver` wants watched this turn; `token` comes back in
/// `descriptorReady`.
public struct WatchedDescriptor: Sendable {
    public var fd: Int32
    /// POLLIN, POLLOUT … as for `poll(2)`.
    public var events: Int16
    public var token: Int

    public init(fd: Int32, events: Int16, token: Int) {
        self.fd = fd
        self.events = events
        self.token = token
    }
}

/// What a `MultiDescriptorLoop` drives: a set of descriptors that changes from turn to turn
/// (the kernel backend's management socket plus one L2CAP socket per link), deadlines, and
/// the first Ctrl-C.
public protocol MultiDescriptorDriver: AnyObject {
    /// Appends the descriptors to wait on; called before every `poll`.
    func collectDescriptors(into list: inout [WatchedDescriptor])
    /// `poll` flagged the descriptor (`events` are its revents).
    func descriptorReady(_ token: Int, events: Int16, at now: UInt64)
    var nextDeadline: UInt64? { get }
    func deadlineReached(at now: UInt64)
    /// First signal: true ends the loop now; false means the driver ends it later
    /// (`isFinished`).
    func shutdownRequested(at now: UInt64) -> Bool
    /// The loop ends after the turn in which this became true.
    var isFinished: Bool { get }
}

/// A `poll(2)` loop over a changing set of descriptors, for backends that need more than one
/// (the one-transport `EventLoop` serves the HCI backends). It runs on the thread that calls
/// `run`, so the driver is created, used and dropped on that thread and needs no locks; `stop()`
/// is the only call other threads make, through an eventfd.
public final class MultiDescriptorLoop: Sendable {
    private let wakeup: WakeupDescriptor
    private let stopRequested = Atomic<Bool>(false)

    public init() throws(TransportError) {
        wakeup = try WakeupDescriptor.make()
    }

    deinit { wakeup.close() }

    /// Ends `run` after its current turn; any thread, idempotent.
    public func stop() {
        stopRequested.store(true, ordering: .releasing)
        wakeup.wake()
    }

    public var isStopRequested: Bool { stopRequested.load(ordering: .acquiring) }

    /// Turns until the driver is finished, `stop()` is called, a second signal arrives (or
    /// the first, if the driver says so), or `poll` fails.
    public func run<Driver: MultiDescriptorDriver>(_ driver: Driver, signals: SignalWatcher?) -> EventLoopOutcome {
        var watched: [WatchedDescriptor] = []
        var fds: [pollfd] = []
        watched.reserveCapacity(8)
        fds.reserveCapacity(10)
        while true {
            if driver.isFinished { return .stopped }
            if isStopRequested { return .stopped }
            // At most once per turn: a driver that does not move its deadline gets a zero
            // timeout below, so its descriptors are still served.
            if let due = driver.nextDeadline {
                let now = MonotonicClock.now()
                if due <= now {
                    driver.deadlineReached(at: now)
                    if driver.isFinished || isStopRequested { return .stopped }
                }
            }
            watched.removeAll(keepingCapacity: true)
            driver.collectDescriptors(into: &watched)
            fds.removeAll(keepingCapacity: true)
            fds.append(pollfd(fd: wakeup.readFD, events: Int16(POLLIN), revents: 0))
            fds.append(pollfd(fd: signals?.fd ?? -1, events: Int16(POLLIN), revents: 0))
            for w in watched { fds.append(pollfd(fd: w.fd, events: w.events, revents: 0)) }

            let timeout = PollTimeout.milliseconds(until: driver.nextDeadline, now: MonotonicClock.now())
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0 {
                let code = currentErrno
                if code == EINTR { continue }
                return .pollFailed(errno: code)
            }
            if ready == 0 { continue }
            if fds[0].revents != 0 {
                wakeup.drain()
                if isStopRequested { return .stopped }
            }
            if fds[1].revents != 0, let request = signals?.takeRequest() {
                switch request {
                case .graceful:
                    if driver.shutdownRequested(at: MonotonicClock.now()) { return .interrupted(signal: request.signal) }
                case .immediate:
                    return .interrupted(signal: request.signal)
                }
            }
            for (i, w) in watched.enumerated() {
                let revents = fds[i + 2].revents
                guard revents != 0 else { continue }
                driver.descriptorReady(w.token, events: revents, at: MonotonicClock.now())
                if driver.isFinished { break }
            }
        }
    }
}
