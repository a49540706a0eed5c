import Glibc
import Synchronization

/// What the consumer side reports back to the controller thread: how many measurements it
/// has consumed, and for the latency runs the delivery time of each.
final class Progress: @unchecked Sendable {
    let consumed = Atomic<Int>(0)
    /// Delivery times (monotonic ns) by sample index, read once the run is over.
    let delivered: UnsafeMutablePointer<UInt64>
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        delivered = .allocate(capacity: self.capacity)
        delivered.initialize(repeating: 0, count: self.capacity)
    }

    deinit { delivered.deallocate() }

    /// One measurement consumed, at `time` (0: do not stamp).
    @inline(__always)
    func consumed(at time: UInt64) {
        let i = consumed.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue
        if time != 0, i < capacity { delivered[i] = time }
    }
}

/// The controller on the far end of a TCP loopback socket, on its own thread: the host under
/// test connects to it as to the Bumble world's controller (`--adapter tcp:127.0.0.1:PORT`,
/// `TCPTransport`, the real path), it answers set-up through `ScriptedController`, and once the
/// three subscriptions are live it sends the measured notifications.
final class ControllerServer: @unchecked Sendable {
    enum Workload {
        /// `count` notifications, at most `window` ahead of the consumer (the AsyncStreams
        /// buffer a bounded number of values; the window keeps every one delivered).
        case throughput(count: Int, window: Int)
        /// `samples` notifications one at a time, `interval` ns apart, each stamped when its
        /// bytes are written.
        case latency(samples: Int, interval: UInt64)
    }

    let port: UInt16
    private let listener: Int32
    let progress: Progress
    let workload: Workload
    /// Send times (latency) and the first/last write (throughput), monotonic ns.
    let sent: UnsafeMutablePointer<UInt64>
    let started = Atomic<UInt64>(0)
    let finished = Atomic<UInt64>(0)
    let lost = Atomic<Int>(0)
    /// CPU time of this thread while it streamed (throughput), to subtract from the process's.
    let cpu = Atomic<UInt64>(0)
    private var thread: pthread_t?

    init?(workload: Workload, progress: Progress) {
        self.workload = workload
        self.progress = progress
        let count: Int
        switch workload {
        case .throughput: count = 1
        case .latency(let n, _): count = max(1, n)
        }
        sent = .allocate(capacity: count)
        sent.initialize(repeating: 0, count: count)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 1) == 0 else { close(fd); return nil }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { sent.deallocate() }

    func start() {
        let box = Unmanaged.passRetained(self)
        var t = pthread_t()
        _ = pthread_create(&t, nil, { raw in
            guard let raw else { return nil }
            let server = Unmanaged<ControllerServer>.fromOpaque(raw).takeRetainedValue()
            server.serve()
            return nil
        }, box.toOpaque())
        thread = t
    }

    func join() {
        if let t = thread { pthread_join(t, nil) }
        thread = nil
    }

    private func serve() {
        let fd = accept(listener, nil, nil)
        close(listener)
        guard fd >= 0 else { return }
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        let controller = ScriptedController()
        var buffer = [UInt8](repeating: 0, count: 65536)
        // Set-up: answer until three CCCD writes are answered.
        while controller.cccdWrites < BenchWorkload.sensors.count {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { close(fd); return }
            controller.feed(buffer[0..<n])
            if !writeAll(fd, controller.outbox) { close(fd); return }
            controller.outbox.removeAll()
        }
        let handles = BenchWorkload.sensors.map { controller.handles[$0.address] ?? 0 }
        switch workload {
        case let .throughput(count, window):
            streamThroughput(fd, handles: handles, count: count, window: window)
        case let .latency(samples, interval):
            streamLatency(fd, handles: handles, samples: samples, interval: interval)
        }
        // Stay until the host goes away (it answers nothing more that matters), so the host
        // never sees its controller vanish mid-run.
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while poll(&pfd, 1, 5000) > 0 {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            controller.feed(buffer[0..<n])
            _ = writeAll(fd, controller.outbox)
            controller.outbox.removeAll()
        }
        close(fd)
    }

    private func streamThroughput(_ fd: Int32, handles: [UInt16], count: Int, window: Int) {
        let chunk = max(1, min(window / 2, 2048))
        // One chunk of bytes, reused: `chunk` notifications round robin; `chunk` is a multiple
        // of three so every chunk starts with the heart-rate link.
        let perChunk = max(3, chunk - chunk % 3)
        let bytes = BenchWorkload.notificationStream(count: perChunk, handles: handles)
        let cpu0 = Clock.threadCPU()
        started.store(Clock.monotonic(), ordering: .releasing)
        var sentCount = 0
        while sentCount < count {
            while sentCount - progress.consumed.load(ordering: .acquiring) > window - perChunk {
                usleep(20)
            }
            let n = min(perChunk, count - sentCount)
            if n == perChunk {
                if !writeAll(fd, bytes) { return }
            } else {
                if !writeAll(fd, BenchWorkload.notificationStream(count: n, handles: handles)) { return }
            }
            sentCount += n
        }
        let deadline = Clock.monotonic() + 30_000_000_000
        while progress.consumed.load(ordering: .acquiring) < count, Clock.monotonic() < deadline {
            usleep(20)
        }
        finished.store(Clock.monotonic(), ordering: .releasing)
        cpu.store(Clock.threadCPU() - cpu0, ordering: .releasing)
    }

    private func streamLatency(_ fd: Int32, handles: [UInt16], samples: Int, interval: UInt64) {
        // One pre-built packet per link; values cycle as in the throughput stream.
        var packets: [[UInt8]] = []
        for (s, sensor) in BenchWorkload.sensors.enumerated() {
            for v in sensor.values {
                packets.append(BenchWorkload.notificationH4(handle: handles[s], attribute: sensor.valueHandle, value: v))
            }
        }
        // Round robin over links: heart v0, speed v0, env v0, heart v1, …
        let order: [Int] = {
            var o: [Int] = []
            let perSensor = BenchWorkload.sensors.map(\.values.count)
            let rounds = perSensor.max() ?? 1
            for r in 0..<rounds {
                var base = 0
                for (s, n) in perSensor.enumerated() {
                    if r < n { o.append(base + r) }
                    base += perSensor[s]
                }
            }
            return o
        }()
        var next = Clock.monotonic() + 20_000_000
        started.store(next, ordering: .releasing)
        for i in 0..<samples {
            sleepUntil(next)
            let before = progress.consumed.load(ordering: .acquiring)
            let t0 = Clock.monotonic()
            sent[i] = t0
            if !writeAll(fd, packets[order[i % order.count]]) { return }
            // Wait for this one's delivery (well within the interval) so samples stay paired.
            let deadline = t0 + 200_000_000
            while progress.consumed.load(ordering: .acquiring) == before {
                if Clock.monotonic() > deadline {
                    _ = lost.add(1, ordering: .relaxed)
                    return
                }
                usleep(20)
            }
            next += interval
            let now = Clock.monotonic()
            if next < now { next = now + interval / 2 }
        }
        finished.store(Clock.monotonic(), ordering: .releasing)
    }

    private func sleepUntil(_ t: UInt64) {
        var ts = timespec(tv_sec: Int(t / 1_000_000_000), tv_nsec: Int(t % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
    }

    private func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(fd, raw.baseAddress.map { $0 + offset }, raw.count - offset)
                if n < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    return false
                }
                offset += n
            }
            return true
        }
    }
}
