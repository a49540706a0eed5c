import HostCore
import Wire

/// The async Swift API: one adapter on either backend, its host on its own event-loop thread,
/// and async calls that are safe from any task. Every call becomes a job on the loop thread;
/// results come back through continuations and `AsyncStream`s.
///
///     let central = try await Central.open(.tcp(host: "127.0.0.1", port: 9000))
///     let central = try await Central.open(.hciSocket(index: 0), backend: .kernel)
///     let hr = try await central.connect(to: address, plan: plan)
///     for await value in try await hr.subscribe(valueHandle: 0x0012) { … }
public final class Central: Sendable {
    let loop: EventLoop<AdapterDriver>
    let bridge: CentralBridge
    public let info: ControllerInfo
    public let backend: AdapterBackend

    init(loop: EventLoop<AdapterDriver>, bridge: CentralBridge, info: ControllerInfo, backend: AdapterBackend) {
        self.loop = loop
        self.bridge = bridge
        self.info = info
        self.backend = backend
    }

    /// Opens the adapter, brings the controller (or the kernel's adapter) up and returns once it
    /// is ready. `backend` matters for `hciN` only: the HCI user channel (rtstack alone) or the
    /// kernel (shared with bluetoothd; `security` is then the BT_SECURITY of every link).
    /// Pairing (`configuration.security`, e.g. from `SecuritySetup.settings`) asks `agent` for
    /// passkeys and numeric comparisons; bonds go to `bondStore` (a `FileBondStore` of the state
    /// directory) as they are made.
    public static func open(_ adapter: AdapterSpec, backend: AdapterBackend = .userChannel,
                            configuration: HostConfiguration = HostConfiguration(ownAddress: .publicAddress),
                            security: KernelSecurityLevel? = nil, agent: (any PairingAgent)? = nil,
                            bondStore: FileBondStore? = nil,
                            sinks: [any PacketSinkFactory] = [], signals: SignalWatcher? = nil,
                            notice: @escaping @Sendable (String) -> Void = { _ in }) async throws -> Central {
        let bridge = CentralBridge()
        bridge.agent = agent
        var started: EventLoop<AdapterDriver>?
        let info: ControllerInfo = try await withCheckedThrowingContinuation { continuation in
            bridge.ready = continuation
            do throws(CentralError) {
                // Opened here, so the adapter's descriptors never belong to the calling task.
                let io: any AdapterIO
                do throws(AdapterOpenError) {
                    io = try adapter.open(backend: backend, configuration: configuration, security: security, sinks: sinks,
                                          notice: notice)
                } catch {
                    throw CentralError.unavailable(error)
                }
                do throws(TransportError) {
                    let directory = bondStore?.directory
                    started = try EventLoop<AdapterDriver>.start(name: "rtstack-loop", signals: signals) { context in
                        AdapterDriver(context: context, io: io, application: bridge,
                                      bondStore: directory.map { FileBondStore(directory: $0) }, at: MonotonicClock.now())
                    }
                } catch {
                    throw CentralError.adapter(error)
                }
            } catch {
                bridge.ready = nil
                continuation.resume(throwing: error)
            }
        }
        guard let loop = started else { throw CentralError.closed }
        return Central(loop: loop, bridge: bridge, info: info, backend: backend)
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
    func onLoop(_ body: @escaping @Sendable (AdapterDriver, CentralBridge) -> Void) -> Bool {
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
        // The link id comes back with the connection, as a value, from the job that made it.
        let (link, info): (LinkID, ConnectionInfo) = try await withCheckedThrowingContinuation { c in
            let ok = onLoop { driver, bridge in
                let link = driver.host.connect(to: address, plan: plan, at: MonotonicClock.now())
                bridge.connects[link] = c
            }
            if !ok { c.resume(throwing: CentralError.closed) }
        }
        return Peripheral(central: self, link: link, connection: info)
    }

    /// Why the adapter stopped working while in use — the transport was lost (e.g. closed in
    /// the middle of a packet) or the controller failed for good — once streams have ended
    /// because of it; nil otherwise.
    public var failure: CentralError? { bridge.failure.withLock { $0 } }

    /// Ends every stream the API handed out (scans, subscriptions); for Ctrl-C and deadlines.
    public func endStreams() {
        _ = onLoop { _, bridge in bridge.endStreams() }
    }

    /// Warnings the host raised so far (malformed input, unexpected packets).
    public func warnings() async -> [HostWarning] {
        await withCheckedContinuation { c in
            if !onLoop({ _, bridge in c.resume(returning: bridge.warnings) }) { c.resume(returning: []) }
        }
    }

    /// Streams that ended took their registrations back: waits until those CCCD writes are
    /// answered (at most a second), so that a disconnect right after does not overtake them,
    /// and a caller that ended a stream can tell when the peer has been told.
    public func unsubscribed() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let ok = onLoop { driver, bridge in
                guard !bridge.unsubscribing.isEmpty else { return c.resume() }
                bridge.unsubscribeWaiters.append(c)
                bridge.unsubscribeWaitEnd = driver.currentTime &+ HostDuration.seconds(1)
            }
            if !ok { c.resume() }
        }
    }

    /// Disconnects every link, waits for their Disconnection Complete (at most `timeout`), then
    /// stops the loop.
    public func close(timeout: UInt64 = HostDuration.seconds(3)) async {
        await unsubscribed()
        let links: [LinkID] = await withCheckedContinuation { c in
            if !onLoop({ _, bridge in c.resume(returning: Array(bridge.connections.keys)) }) { c.resume(returning: []) }
        }
        for l in links {
            await Peripheral(central: self, link: l, connection: nil).disconnect(timeout: timeout)
        }
        loop.stop()
    }
}
