import Glibc
import HostCore
import Runtime
import Sensors
import Wire

/// The application on the event-loop thread for the loop path: connects the three sensors with
/// plans that subscribe, decodes every notification and reports it consumed.
final class LoopConsumer: HostApplication {
    private weak var driver: AdapterDriver?
    private let progress: Progress
    private let stamp: Bool
    private var routes: [(valueHandle: UInt16, uuid: BluetoothUUID)?] = Array(repeating: nil, count: 8)
    private var sink = MeasurementSink()

    init(progress: Progress, stamp: Bool) {
        self.progress = progress
        self.stamp = stamp
    }

    func attach(_ driver: AdapterDriver, at now: HostTime) { self.driver = driver }

    func hostEvent(_ event: HostEvent, at now: HostTime) {
        switch event {
        case let .notification(link, handle, value):
            let i = Int(link.rawValue)
            guard i < routes.count, let r = routes[i], r.valueHandle == handle else { return }
            sink.consume(SensorValueDecoder.decode(uuid: r.uuid, value: value))
            progress.consumed(at: stamp ? MonotonicClock.now() : 0)
        case .controllerReady:
            for s in BenchWorkload.sensors {
                driver?.host.connect(to: s.address, plan: s.plan(subscribe: true), at: now)
            }
        case let .subscribed(link, characteristic, valueHandle):
            let i = Int(link.rawValue)
            if i < routes.count { routes[i] = (valueHandle, characteristic) }
        default:
            break
        }
    }

    var nextDeadline: HostTime? { nil }
    func deadlineReached(at now: HostTime) {}
    func adapterClosed(_ error: TransportError) {}
    func shutdownRequested(at now: HostTime) -> Bool { true }
}

let benchConfiguration = HostConfiguration(ownAddress: .randomStatic(BDAddress(string: "C4:11:22:33:44:55") ?? .zero))

/// Notifications each link receives when `total` go round robin over the three.
func perLink(_ total: Int, _ s: Int) -> Int { (total - s + 2) / 3 }

struct PipelineResult {
    var delivered = 0
    var wallNanos: UInt64 = 0
    /// Process CPU during the stream minus the controller thread's.
    var hostCPUNanos: UInt64 = 0
    var latencies: [Double] = []
    var lost = 0
}

/// The loop path: `TCPTransport` → `EventLoop` (poll) → `AdapterDriver` / `HCITransportIO` (64 KiB
/// reads, H4 framer) → `HCIHost` → `LoopConsumer` (decoders), all on the loop thread.
func runLoopPath(_ workload: ControllerServer.Workload) -> PipelineResult? {
    let capacity: Int
    if case let .latency(n, _) = workload { capacity = n } else { capacity = 1 }
    let progress = Progress(capacity: capacity)
    guard let server = ControllerServer(workload: workload, progress: progress) else { return nil }
    server.start()
    let stamp: Bool
    if case .latency = workload { stamp = true } else { stamp = false }
    let loop: EventLoop<AdapterDriver>
    do {
        let transport = try TCPTransport(host: "127.0.0.1", port: server.port)
        let io = HCITransportIO(transport: transport, configuration: benchConfiguration,
                                tap: PacketTap(wallClockMicros: 0, monotonicNanos: 0))
        loop = try EventLoop<AdapterDriver>.start(name: "bench-loop") { context in
            AdapterDriver(context: context, io: io, application: LoopConsumer(progress: progress, stamp: stamp),
                          at: MonotonicClock.now())
        }
    } catch {
        print("loop: \(error)")
        return nil
    }
    let result = collect(server, progress)
    loop.stop()
    server.join()
    return result
}

/// Waits for the server's stream to end and gathers the figures.
func collect(_ server: ControllerServer, _ progress: Progress) -> PipelineResult {
    while server.started.load(ordering: .acquiring) == 0 { usleep(200) }
    let cpu0 = Clock.processCPU()
    while server.finished.load(ordering: .acquiring) == 0, server.lost.load(ordering: .acquiring) == 0 { usleep(500) }
    let cpu1 = Clock.processCPU()
    var r = PipelineResult()
    r.delivered = progress.consumed.load(ordering: .acquiring)
    r.wallNanos = server.finished.load(ordering: .acquiring) &- server.started.load(ordering: .acquiring)
    let serverCPU = server.cpu.load(ordering: .acquiring)
    r.hostCPUNanos = cpu1 - cpu0 > serverCPU ? cpu1 - cpu0 - serverCPU : 0
    r.lost = server.lost.load(ordering: .acquiring)
    if case let .latency(n, _) = server.workload {
        for i in 0..<min(n, r.delivered) where server.sent[i] != 0 && progress.delivered[i] >= server.sent[i] {
            r.latencies.append(Double(progress.delivered[i] - server.sent[i]))
        }
    }
    return r
}

/// The async path: `Central.open(.tcp(…))` (the same transport and loop), `connect` ×3, then
/// `Peripheral.subscribe` (CCCD write) and one task per link iterating its `AsyncStream<[UInt8]>`
/// and decoding each value.
/// With `batched`, `Peripheral.notificationBatches` instead: one `NotificationBatch` per read.
/// With `onLoop`, the consuming tasks prefer `Central.loopExecutor` (they run on the loop
/// thread) instead of the global concurrent pool.
func runAsyncPath(_ workload: ControllerServer.Workload, batched: Bool, onLoop: Bool = false) async -> PipelineResult? {
    let capacity: Int
    let total: Int
    switch workload {
    case let .latency(n, _): capacity = n; total = n
    case let .throughput(n, _): capacity = 1; total = n
    }
    let stamp: Bool
    if case .latency = workload { stamp = true } else { stamp = false }
    let progress = Progress(capacity: capacity)
    guard let server = ControllerServer(workload: workload, progress: progress) else { return nil }
    server.start()
    do {
        let central = try await Central.open(.tcp(host: "127.0.0.1", port: server.port), configuration: benchConfiguration)
        var streams: [(AsyncStream<[UInt8]>, BluetoothUUID, Int)] = []
        var batchStreams: [(AsyncStream<NotificationBatch>, BluetoothUUID, Int)] = []
        for (i, s) in BenchWorkload.sensors.enumerated() {
            let p = try await central.connect(to: s.address, plan: s.plan(subscribe: false))
            if batched {
                batchStreams.append((try await p.notificationBatches(valueHandle: s.valueHandle), s.characteristic, perLink(total, i)))
            } else {
                streams.append((try await p.subscribe(valueHandle: s.valueHandle), s.characteristic, perLink(total, i)))
            }
        }
        let streamsToConsume = streams
        let batchesToConsume = batchStreams
        let executor: (any TaskExecutor)? = onLoop ? central.loopExecutor : nil
        async let consumed: Void = withTaskGroup(of: Void.self) { group in
            for (stream, uuid, expected) in streamsToConsume {
                group.addTask(executorPreference: executor) {
                    var sink = MeasurementSink()
                    var n = 0
                    for await value in stream {
                        sink.consume(SensorValueDecoder.decode(uuid: uuid, value: value))
                        progress.consumed(at: stamp ? MonotonicClock.now() : 0)
                        n += 1
                        if n >= expected { break }
                    }
                }
            }
            for (stream, uuid, expected) in batchesToConsume {
                group.addTask(executorPreference: executor) {
                    var sink = MeasurementSink()
                    var n = 0
                    for await batch in stream {
                        for value in batch {
                            sink.consume(SensorValueDecoder.decode(uuid: uuid, value: value))
                            progress.consumed(at: stamp ? MonotonicClock.now() : 0)
                            n += 1
                        }
                        if n >= expected { break }
                    }
                }
            }
        }
        let result = await Task.detached { collect(server, progress) }.value
        central.endStreams()
        await consumed
        await central.close(timeout: HostDuration.milliseconds(500))
        server.join()
        return result
    } catch {
        print("async: \(error)")
        return nil
    }
}

func reportThroughput(_ label: String, _ runs: [PipelineResult]) {
    var wall: [Double] = []
    var cpu: [Double] = []
    for (i, r) in runs.enumerated() {
        let w = Double(r.delivered) / Double(max(1, r.wallNanos)) * 1e9
        let c = Double(r.delivered) / Double(max(1, r.hostCPUNanos)) * 1e9
        wall.append(w)
        cpu.append(c)
        print("\(label) run \(i + 1): \(r.delivered) notifications in \(fmt(Double(r.wallNanos) / 1e6, 1)) ms wall, \(fmt(Double(r.hostCPUNanos) / 1e6, 1)) ms host CPU: "
              + "\(fmt(w, 0))/s wall (\(fmt(1e9 / w, 1)) ns each), \(fmt(c, 0))/s per host CPU second (\(fmt(1e9 / c, 1)) ns each)")
    }
    print("\(label): median \(fmt(median(wall), 0)) notifications/s wall (\(fmt(1e9 / median(wall), 1)) ns each), \(fmt(median(cpu), 0))/s per host CPU second (\(fmt(1e9 / median(cpu), 1)) ns each); best \(fmt(wall.max() ?? 0, 0))/s wall")
}

func reportLatency(_ label: String, _ r: PipelineResult, rate: Int) {
    let s = r.latencies.sorted()
    print("\(label) latency, \(s.count) samples at \(rate)/s (lost \(r.lost)): p50 \(fmt(percentile(s, 50) / 1000, 1)) µs, p90 \(fmt(percentile(s, 90) / 1000, 1)) µs, "
          + "p99 \(fmt(percentile(s, 99) / 1000, 1)) µs, p99.9 \(fmt(percentile(s, 99.9) / 1000, 1)) µs, max \(fmt((s.last ?? 0) / 1000, 1)) µs, min \(fmt((s.first ?? 0) / 1000, 1)) µs")
}
