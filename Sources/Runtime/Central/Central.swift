import HostCore
import Wire

/// The async Swift API: one adapter, its host on its own event-loop thread, and async calls
/// that are safe from any task. Every call becomes a job on the loop thread; results come back
/// through continuations and `AsyncStream`s.
///
///     let central = try await Central.open(.tcp(host: "127.0.0.1", port: 9000))
///     let hr = try await central.connect(to: address, plan: plan)
///     for await value in try await hr.subscribe(valueHandle: 0x0012) { … }
public final class Central: Sendable {
    let loop: EventLoop<HostDriver>
    let bridge: CentralBridge
    public let info: ControllerInfo

    init(loop: EventLoop<HostDriver>, bridge: CentralBridge, info: ControllerInfo) {
        self.loop = loop
        self.bridge = bridge
        self.info = info
    }

    /// Opens the adapter, brings the controller up and returns once it is ready.
    public static func open(_ adapter: AdapterSpec, configuration: HostConfiguration,
                            sinks: [any PacketSinkFactory] = [], signals: SignalWatcher? = nil) async throws -> Central {
        let bridge = CentralBridge()
        var started: EventLoop<HostDriver>?
        let info: ControllerInfo = try await withCheckedThrowingContinuation { continuation in
            bridge.ready = continuation
            do throws(TransportError) {
                // Opened here, so the transport never belongs to the calling task.
                let transport = try adapter.openTransport()
                started = try EventLoop<HostDriver>.start(name: "rtstack-loop", transport: transport, signals: signals) { context in
                    HostDriver(context: context, configuration: configuration, tap: PacketTap.make(sinks),
                               application: bridge, at: MonotonicClock.now())
                }
            } catch {
                bridge.ready = nil
                continuation.resume(throwing: CentralError.adapter(error.description))
            }
        }
        guard let loop = started else { throw CentralError.closed }
        return Central(loop: loop, bridge: bridge, info: info)
    }

    /// The adapter's event-loop thread as a `TaskExecutor`, for consumers that need the least
    /// latency: a task started with it as its preference runs on the loop thread, so a
    /// notification resumes it as a job the loop runs right after the read that delivered it,
    /// with no cross-thread wake-up (Docs/performance.md (e): p99 ≤ 200 µs from the transport's
    /// descriptor to the consumer).
    ///
    ///     Task(executorPreference: central.loopExecutor) {
    ///         for await value in stream { … }   // on the loop thread
    ///     }
    ///
    /// Blocking in such a task blocks the adapter's I/O (reads, writes, timers, every link), so
    /// keep its work short and hand anything long to another executor. After `close()` the task
    /// keeps running on the global pool (see `LoopExecutor`).
    public var loopExecutor: LoopExecutor { loop.executor }

    /// Runs `body` on the loop thread with the host; fails with `.closed` once the loop ended.
    func onLoop(_ body: @escaping @Sendable (HostDriver, CentralBridge) -> Void) -> Bool {
        let bridge = self.bridge
        return loop.submit { driver in driver.run { body(driver, bridge) } }
    }

    /// Advertising reports until the stream is dropped or `stopScan` is called.
    public func scan(_ configuration: ScanConfiguration = ScanConfiguration()) -> AsyncStream<Advertisement> {
        let (stream, continuation) = AsyncStream<Advertisement>.makeStream(bufferingPolicy: .bufferingNewest(4096))
        let submitted = onLoop { driver, bridge in
            bridge.nextScanToken += 1
            let token = bridge.nextScanToken
            bridge.scans[token] = continuation
            continuation.onTermination = { [weak self] _ in
                _ = self?.onLoop { driver, bridge in
                    bridge.scans[token] = nil
                    if bridge.scans.isEmpty { driver.host.stopScan(at: MonotonicClock.now()) }
                }
            }
            driver.host.startScan(configuration, at: MonotonicClock.now())
        }
        if !submitted { continuation.finish() }
        return stream
    }

    /// Connects and runs the plan (MTU, discovery or cache, subscriptions); returns when the
    /// link is ready.
    public func connect(to address: DeviceAddress, plan: LinkPlan = LinkPlan()) async throws -> Peripheral {
        let box = LinkBox()
        let info: ConnectionInfo = try await withCheckedThrowingContinuation { c in
            let ok = onLoop { driver, bridge in
                let link = driver.host.connect(to: address, plan: plan, at: MonotonicClock.now())
                box.link = link
                bridge.connects[link] = c
            }
            if !ok { c.resume(throwing: CentralError.closed) }
        }
        guard let link = box.link else { throw CentralError.closed }
        return Peripheral(central: self, link: link, connection: info)
    }

    /// Follows link states and disconnections of every link.
    public func linkEvents() -> AsyncStream<CentralLinkEvent> {
        let (stream, continuation) = AsyncStream<CentralLinkEvent>.makeStream()
        let ok = onLoop { _, bridge in
            bridge.nextScanToken += 1
            let token = bridge.nextScanToken
            let inner = AsyncStream<CentralBridge.LinkEvent>.makeStream()
            bridge.linkEvents[token] = inner.continuation
            Task {
                for await e in inner.stream {
                    switch e {
                    case let .state(l, s): continuation.yield(.state(l, s))
                    case let .disconnected(l, r, w): continuation.yield(.disconnected(l, r, willReconnect: w))
                    }
                }
                continuation.finish()
            }
        }
        if !ok { continuation.finish() }
        return stream
    }

    /// Why the adapter stopped working while in use — the transport was lost (e.g. closed in
    /// the middle of a packet) or the controller failed for good — once streams have ended
    /// because of it; nil otherwise.
    public var failure: CentralError? { bridge.failure.withLock { $0 } }

    /// Ends every stream the API handed out (scans, subscriptions); for Ctrl-C and deadlines.
    public func endStreams() {
        _ = onLoop { _, bridge in bridge.endStreams() }
    }

    /// Whether Ctrl-C (or `endStreams`) has ended the streams.
    public func wasInterrupted() async -> Bool {
        await withCheckedContinuation { c in
            if !onLoop({ _, bridge in c.resume(returning: bridge.interrupted) }) { c.resume(returning: true) }
        }
    }

    /// Warnings the host raised so far (malformed input, unexpected packets).
    public func warnings() async -> [HostWarning] {
        await withCheckedContinuation { c in
            if !onLoop({ _, bridge in c.resume(returning: bridge.warnings) }) { c.resume(returning: []) }
        }
    }

    /// Disconnects every link, waits for their Disconnection Complete (at most `timeout`), then
    /// stops the loop.
    public func close(timeout: UInt64 = HostDuration.seconds(3)) async {
        let links: [LinkID] = await withCheckedContinuation { c in
            if !onLoop({ _, bridge in c.resume(returning: Array(bridge.connections.keys)) }) { c.resume(returning: []) }
        }
        for l in links {
            await Peripheral(central: self, link: l, connection: nil).disconnect(timeout: timeout)
        }
        loop.stop()
    }
}

public enum CentralLinkEvent: Sendable {
    case state(LinkID, LinkState)
    case disconnected(LinkID, HCIStatus, willReconnect: Bool)
}

/// Carries the link id out of the loop-thread job that created it.
final class LinkBox: @unchecked Sendable {
    var link: LinkID?
}
