import Glibc

/// The loop body: everything here runs on the loop thread.
final class LoopRunner<Driver: EventLoopDriver> {
    private let loop: EventLoop<Driver>
    private let signals: SignalWatcher?
    private let makeDriver: (EventLoopContext<Driver>) -> Driver

    init(loop: EventLoop<Driver>, signals: SignalWatcher?, makeDriver: @escaping (EventLoopContext<Driver>) -> Driver) {
        self.loop = loop
        self.signals = signals
        self.makeDriver = makeDriver
    }

    /// The thread could not be started.
    func abandon() {
        _ = loop.finish(.stopped)
        loop.executor.finish()
    }

    func run() {
        loop.recordLoopThread()
        let context = EventLoopContext(loop: loop)
        let driver = makeDriver(context)
        let outcome = turn(driver: driver, context: context)
        driver.loopEnding(outcome)
        for job in loop.finish(outcome) { job(driver) }
        // After the streams have ended: tasks waiting on them run once more and finish.
        loop.executor.finish()
    }

    /// Loop turns until something ends the loop; returns why.
    private func turn(driver: Driver, context: EventLoopContext<Driver>) -> EventLoopOutcome {
        var fds: [pollfd] = []
        var watched: [WatchedDescriptor] = []
        fds.reserveCapacity(12)
        watched.reserveCapacity(10)
        var batch: [EventLoop<Driver>.Job] = []
        var taskJobs: [UnownedJob] = []
        var interruptedBy: Int32?

        func ended() -> EventLoopOutcome? {
            if let failure = context.failure { return .transportClosed(failure) }
            if context.stopRequested { return interruptedBy.map { .interrupted(signal: $0) } ?? .stopped }
            return nil
        }

        while true {
            if let outcome = ended() { return outcome }

            // The driver's deadline is asked once per turn, and again only when something ran
            // that may have moved it (a deadline handled, tasks run): a gateway's is a walk over
            // every adapter, link and device, and the turn's clock read serves the poll timeout too.
            var deadline = driver.nextDeadline
            var now = MonotonicClock.now()
            if let due = deadline, due <= now {
                driver.deadlineReached(at: now)
                if let outcome = ended() { return outcome }
                deadline = driver.nextDeadline
                now = MonotonicClock.now()
            }

            // Tasks on the loop's executor: those a read just resumed run here, before the loop
            // sleeps. If they queued more, poll without waiting so I/O keeps its turn.
            let (ranTaskJobs, moreTaskJobs) = loop.executor.runQueued(&taskJobs)
            if let outcome = ended() { return outcome }
            if ranTaskJobs {
                deadline = driver.nextDeadline
                now = MonotonicClock.now()
            }

            watched.removeAll(keepingCapacity: true)
            driver.collectDescriptors(into: &watched)
            fds.removeAll(keepingCapacity: true)
            fds.append(pollfd(fd: loop.wakeup.readFD, events: Int16(POLLIN), revents: 0))
            fds.append(pollfd(fd: signals?.fd ?? -1, events: Int16(POLLIN), revents: 0))
            for w in watched { fds.append(pollfd(fd: w.fd, events: w.events, revents: 0)) }

            let timeout = moreTaskJobs ? 0 : PollTimeout.milliseconds(until: deadline, now: now)
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0 {
                let code = currentErrno
                if code == EINTR { continue }
                return .pollFailed(errno: code)
            }
            if ready == 0 { continue }

            if fds[0].revents != 0 {
                // Drain first, then take: see `EventLoop.submit` for why this order loses no job.
                loop.wakeup.drain()
                let stop = loop.takeJobs(into: &batch)
                for job in batch {
                    job(driver)
                }
                batch.removeAll(keepingCapacity: true)
                if stop { return interruptedBy.map { .interrupted(signal: $0) } ?? .stopped }
                if let outcome = ended() { return outcome }
            }

            if fds[1].revents != 0, let request = signals?.takeRequest() {
                interruptedBy = request.signal
                switch request {
                case .graceful:
                    if driver.shutdownRequested(at: MonotonicClock.now()) { return .interrupted(signal: request.signal) }
                case .immediate:
                    return .interrupted(signal: request.signal)
                }
                if let outcome = ended() { return outcome }
            }

            for (i, w) in watched.enumerated() {
                let revents = fds[i + 2].revents
                guard revents != 0 else { continue }
                driver.descriptorReady(w.token, events: revents, at: MonotonicClock.now())
                if let outcome = ended() { return outcome }
            }
        }
    }
}

/// `poll()` timeouts from monotonic deadlines.
enum PollTimeout {
    /// Milliseconds until `deadline`, rounded up so the loop never wakes before it; -1 (wait
    /// for I/O only) when there is none; 0 when it is already due.
    static func milliseconds(until deadline: UInt64?, now: UInt64) -> Int32 {
        guard let deadline else { return -1 }
        guard deadline > now else { return 0 }
        let nanoseconds = deadline - now
        let milliseconds = nanoseconds / MonotonicClock.nanosecondsPerMillisecond
            + (nanoseconds % MonotonicClock.nanosecondsPerMillisecond == 0 ? 0 : 1)
        return Int32(clamping: milliseconds)
    }
}
