import Glibc

/// The monitor's own small poll loop: the monitor socket, the signal watcher's descriptor and
/// a deadline, nothing else. Separate from the session's event loop on purpose (it has no
/// host, no timers, no writes to a controller), so that it can move onto the common loop later
/// without taking anything with it.
public enum MonitorLoop {
    public enum End: Sendable, Equatable {
        /// Ctrl-C or SIGTERM.
        case interrupted(signal: Int32)
        /// `--duration` ran out.
        case duration
        /// `onFrames` asked to stop (e.g. the output pipe closed).
        case stopped
        /// The socket failed; the message says why.
        case failed(String)
    }

    /// Waits for frames until a signal, the deadline or `onFrames` says stop. `onFrames` is
    /// called once per wake-up and reads everything waiting (returning false to stop);
    /// `onTick` runs every `tickNanoseconds` (the advertising table).
    public static func run(socket: HCIMonitorSocket, signals: SignalWatcher?, deadline: UInt64?,
                           tickNanoseconds: UInt64? = nil, onTick: () -> Void = {},
                           onFrames: () -> Bool) -> End {
        var nextTick = tickNanoseconds.map { MonotonicClock.now() &+ $0 }
        while true {
            let now = MonotonicClock.now()
            if let deadline, now >= deadline { return .duration }
            if let t = nextTick, now >= t, let every = tickNanoseconds {
                onTick()
                nextTick = now &+ every
            }
            let wake = [deadline, nextTick].compactMap { $0 }.min()
            var fds = [pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0)]
            if let signals { fds.append(pollfd(fd: signals.fd, events: Int16(POLLIN), revents: 0)) }
            let ready = poll(&fds, nfds_t(fds.count), PollTimeout.milliseconds(until: wake, now: now))
            if ready < 0 {
                if currentErrno == EINTR { continue }
                return .failed("poll: \(describeErrno(currentErrno))")
            }
            if fds.count > 1, fds[1].revents != 0, let request = signals?.takeRequest() {
                return .interrupted(signal: request.signal)
            }
            if fds[0].revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0, fds[0].revents & Int16(POLLIN) == 0 {
                return .failed("the monitor socket closed (revents \(fds[0].revents))")
            }
            if fds[0].revents & Int16(POLLIN) != 0, !onFrames() { return .stopped }
        }
    }
}
