import Glibc

/// A minimal poll(2) loop for clients that have nothing else to wait on (tests, the probe
/// tool): it does for one or more `MQTTClient`s what the runtime's event loop does for them
/// next to the adapters.
public struct MQTTPollLoop {
    public var clients: [MQTTClient]

    public init(_ clients: [MQTTClient]) {
        self.clients = clients
    }

    /// Waits at most `timeout` seconds for the clients' sockets or deadlines and handles what
    /// is ready. Events are left in the clients for the caller to drain.
    public func runOnce(timeout: Double) {
        var now = MQTTClock.now()
        // What the caller published since the last round goes out before the wait; what that
        // read is handed over at once.
        for c in clients { c.flush(at: now) }
        var wait = clients.contains(where: \.hasEvents) ? 0 : MQTTClock.nanoseconds(timeout)
        var fds: [pollfd] = []
        var owners: [Int] = []
        for (i, c) in clients.enumerated() {
            if let d = c.nextDeadline { wait = min(wait, d > now ? d - now : 0) }
            if let fd = c.fileDescriptor {
                fds.append(pollfd(fd: fd, events: c.pollEvents, revents: 0))
                owners.append(i)
            }
        }
        let ms = Int32(min((wait + 999_999) / 1_000_000, UInt64(Int32.max)))
        let n = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), ms) }
        now = MQTTClock.now()
        if n > 0 {
            for (k, p) in fds.enumerated() where p.revents != 0 {
                let c = clients[owners[k]]
                // The client may have reconnected on another descriptor during this round.
                guard c.fileDescriptor == p.fd else { continue }
                if p.revents & (Int16(POLLIN) | Int16(POLLHUP) | Int16(POLLERR)) != 0 { c.handleReadable(at: now) }
                if p.revents & Int16(POLLOUT) != 0, c.fileDescriptor == p.fd { c.handleWritable(at: now) }
            }
        }
        for c in clients {
            if let d = c.nextDeadline, now >= d { c.handleTimeout(at: now) }
        }
    }

    /// Runs until `done` answers true (checked after each round) or `timeout` seconds pass;
    /// whether `done` was reached.
    @discardableResult
    public func run(timeout: Double, until done: () -> Bool) -> Bool {
        let end = MQTTClock.now() + MQTTClock.nanoseconds(timeout)
        while !done() {
            let now = MQTTClock.now()
            if now >= end { return false }
            runOnce(timeout: min(Double(end - now) / 1e9, 0.25))
        }
        return true
    }
}
