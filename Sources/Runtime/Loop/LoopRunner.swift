import Glibc

/// The loop body: everything here runs on the loop thread.
final class LoopRunner<Driver: EventLoopDriver> {
    private let loop: EventLoop<Driver>
    private let transport: any HCITransport
    private let signals: SignalWatcher?
    private let makeDriver: (EventLoopContext<Driver>) -> Driver

    init(
        loop: EventLoop<Driver>,
        transport: any HCITransport,
        signals: SignalWatcher?,
        makeDriver: @escaping (EventLoopContext<Driver>) -> Driver
    ) {
        self.loop = loop
        self.transport = transport
        self.signals = signals
        self.makeDriver = makeDriver
    }

    /// The thread could not be started: release the transport.
    func abandon() {
        transport.close()
        _ = loop.finish(.stopped)
        loop.executor.finish()
    }

    func run() {
        loop.recordLoopThread()
        let context = EventLoopContext(loop: loop, transport: transport)
        let driver = makeDriver(context)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: EventLoop<Driver>.readBufferSize, alignment: 16)
        defer { buffer.deallocate() }

        let outcome = turn(driver: driver, context: context, buffer: buffer)

        let reason: TransportError
        if case .transportClosed(let error) = outcome {
            reason = error
        } else {
            reason = .closed(adapter: transport.name)
        }
        driver.transportClosed(reason)
        transport.close()
        context.recordFailure(.closed(adapter: transport.name))
        for job in loop.finish(outcome) { job(driver) }
        // After the streams have ended: tasks waiting on them run once more and finish.
        loop.executor.finish()
    }

    /// Loop turns until something ends the loop; returns why.
    private func turn(driver: Driver, context: EventLoopContext<Driver>, buffer: UnsafeMutableRawBufferPointer) -> EventLoopOutcome {
        var fds = [pollfd](repeating: pollfd(fd: -1, events: 0, revents: 0), count: 3)
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

            if let due = driver.nextDeadline {
                let now = MonotonicClock.now()
                if due <= now {
                    driver.deadlineReached(at: now)
                    if let outcome = ended() { return outcome }
                }
            }

            // Tasks on the loop's executor: those a read just resumed run here, before the loop
            // sleeps. If they queued more, poll without waiting so I/O keeps its turn.
            let moreTaskJobs = loop.executor.runQueued(&taskJobs)
            if let outcome = ended() { return outcome }

            let timeout = moreTaskJobs ? 0 : PollTimeout.milliseconds(until: driver.nextDeadline, now: MonotonicClock.now())
            let wantsOut = transport.hasPendingWrites
            fds[0] = pollfd(fd: transport.fd, events: Int16(POLLIN) | (wantsOut ? Int16(POLLOUT) : 0), revents: 0)
            fds[1] = pollfd(fd: loop.wakeup.readFD, events: Int16(POLLIN), revents: 0)
            fds[2] = pollfd(fd: signals?.fd ?? -1, events: Int16(POLLIN), revents: 0)

            let ready = poll(&fds, 3, timeout)
            if ready < 0 {
                let code = currentErrno
                if code == EINTR { continue }
                return .pollFailed(errno: code)
            }
            if ready == 0 { continue }

            if fds[1].revents != 0 {
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

            if fds[2].revents != 0, let request = signals?.takeRequest() {
                interruptedBy = request.signal
                switch request {
                case .graceful:
                    if driver.shutdownRequested(at: MonotonicClock.now()) { return .interrupted(signal: request.signal) }
                case .immediate:
                    return .interrupted(signal: request.signal)
                }
                if let outcome = ended() { return outcome }
            }

            let events = Int32(fds[0].revents)
            if events & POLLNVAL != 0 {
                context.recordFailure(.closed(adapter: transport.name))
                continue
            }
            if events & POLLOUT != 0 {
                do throws(TransportError) {
                    try transport.flushPendingWrites()
                } catch {
                    context.recordFailure(error)
                    continue
                }
            }
            if events & (POLLIN | POLLHUP | POLLERR) != 0 {
                readAvailable(events: events, driver: driver, context: context, buffer: buffer)
            }
        }
    }

    /// Reads until the descriptor is drained, the turn's read budget is spent, or a callback
    /// ended the loop. A stream read that did not fill the buffer means the kernel had no
    /// more, so we stop there instead of paying for a read that returns EAGAIN.
    private func readAvailable(events: Int32, driver: Driver, context: EventLoopContext<Driver>, buffer: UnsafeMutableRawBufferPointer) {
        let stream = transport.framing == .h4Stream
        var reads = 0
        while reads < EventLoop<Driver>.maxReadsPerTurn {
            let count: Int
            do throws(TransportError) {
                count = try transport.read(into: buffer)
            } catch {
                context.recordFailure(error)
                return
            }
            if count == 0 {
                // Hang-up or error flagged but nothing readable: the other end is gone.
                if reads == 0 && events & (POLLHUP | POLLERR) != 0 && events & POLLIN == 0 {
                    context.recordFailure(.endOfStream(adapter: transport.name))
                }
                return
            }
            reads += 1
            driver.received(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), at: MonotonicClock.now())
            if context.failure != nil || context.stopRequested { return }
            if stream && count < buffer.count { return }
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
