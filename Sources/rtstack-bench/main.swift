import Glibc

/// rtstack-bench: the host-pipeline and latency benchmarks of issue 6 (Docs/performance.md).
/// Prints figures, asserts nothing.
///
///     rtstack-bench core [COUNT] [REPEATS]      (a) sans-I/O core: H4 framer + Host + decoders
///     rtstack-bench loop [COUNT] [REPEATS]      (a) TCP loopback → EventLoop → HostDriver → Host → decoders
///     rtstack-bench async [COUNT] [REPEATS]     (a) TCP loopback → … → Central/Peripheral AsyncStream → decoders
///                                                (consumer on the global pool, then on Central.loopExecutor)
///     rtstack-bench latency [SAMPLES] [RATE] [PATHS]  (e) write to the socket → consumer, loop and async paths
///                                                (async consumers on the pool and on Central.loopExecutor)
///     rtstack-bench corebluetooth [COUNT] [REPEATS] [SAMPLES] [RATE]
///                                                the CoreBluetooth module's didUpdateValueFor beside the
///                                                async Central (throughput, then socket → consumer latency)
///     rtstack-bench links PORT PER_ROLE [SECONDS]  (d) RSS with 3 × PER_ROLE links to the Bumble world
///     rtstack-bench mqtt [COUNT] [QOS] [RATE]     the MQTT client against a local mosquitto: throughput and latency
///     rtstack-bench privacy [REPORTS] [BONDS]     advertising reports with RPAs resolved in software against BONDS IRKs
let arguments = CommandLine.arguments
let mode = arguments.count > 1 ? arguments[1] : "core"
func intArgument(_ i: Int, _ fallback: Int) -> Int {
    arguments.count > i ? Int(arguments[i]) ?? fallback : fallback
}


switch mode {
case "core":
    runCoreBench(count: intArgument(2, 1_000_000), repeats: intArgument(3, 5))
case "loop":
    let count = intArgument(2, 1_000_000)
    var runs: [PipelineResult] = []
    for _ in 0..<intArgument(3, 3) {
        if let r = runLoopPath(.throughput(count: count, window: 30_000)) { runs.append(r) }
    }
    reportThroughput("loop", runs)
case "async":
    let count = intArgument(2, 1_000_000)
    var runs: [PipelineResult] = []
    var batchedRuns: [PipelineResult] = []
    var loopRuns: [PipelineResult] = []
    var loopBatchedRuns: [PipelineResult] = []
    for _ in 0..<intArgument(3, 3) {
        if let r = await runAsyncPath(.throughput(count: count, window: 30_000), batched: false) { runs.append(r) }
        if let r = await runAsyncPath(.throughput(count: count, window: 30_000), batched: true) { batchedRuns.append(r) }
        if let r = await runAsyncPath(.throughput(count: count, window: 30_000), batched: false, onLoop: true) { loopRuns.append(r) }
        if let r = await runAsyncPath(.throughput(count: count, window: 30_000), batched: true, onLoop: true) { loopBatchedRuns.append(r) }
    }
    reportThroughput("async subscribe (AsyncStream<[UInt8]>, one element per value)", runs)
    reportThroughput("async notificationBatches (AsyncStream<NotificationBatch>, one element per read)", batchedRuns)
    reportThroughput("async subscribe, consumer on Central.loopExecutor", loopRuns)
    reportThroughput("async notificationBatches, consumer on Central.loopExecutor", loopBatchedRuns)
case "latency":
    let samples = intArgument(2, 5000)
    let rate = max(1, intArgument(3, 1000))
    let interval = UInt64(1_000_000_000 / rate)
    // Optional fourth argument: which consumers, in which order (comma-separated), e.g.
    // "batches-executor,loop" to check that the order does not favour one.
    let paths = arguments.count > 4 ? arguments[4].split(separator: ",").map(String.init)
        : ["loop", "subscribe", "batches", "subscribe-executor", "batches-executor"]
    for path in paths {
        let workload = ControllerServer.Workload.latency(samples: samples, interval: interval)
        switch path {
        case "loop":
            if let r = runLoopPath(workload) { reportLatency("loop", r, rate: rate) }
        case "subscribe":
            if let r = await runAsyncPath(workload, batched: false) { reportLatency("async subscribe", r, rate: rate) }
        case "batches":
            if let r = await runAsyncPath(workload, batched: true) { reportLatency("async notificationBatches", r, rate: rate) }
        case "subscribe-executor":
            if let r = await runAsyncPath(workload, batched: false, onLoop: true) { reportLatency("async subscribe, loopExecutor", r, rate: rate) }
        case "batches-executor":
            if let r = await runAsyncPath(workload, batched: true, onLoop: true) { reportLatency("async notificationBatches, loopExecutor", r, rate: rate) }
        default:
            print("unknown latency path \(path) (loop, subscribe, batches, subscribe-executor, batches-executor)")
        }
    }
case "corebluetooth":
    let count = intArgument(2, 200_000)
    var asyncRuns: [PipelineResult] = []
    var cbRuns: [PipelineResult] = []
    for _ in 0..<intArgument(3, 3) {
        if let r = await runAsyncPath(.throughput(count: count, window: 30_000), batched: false) { asyncRuns.append(r) }
        if let r = await runCoreBluetoothPath(.throughput(count: count, window: 30_000)) { cbRuns.append(r) }
    }
    reportThroughput("async subscribe (Central, AsyncStream<[UInt8]>)", asyncRuns)
    reportThroughput("CoreBluetooth didUpdateValueFor (delegate on a serial queue)", cbRuns)
    let samples = intArgument(4, 2000)
    let rate = max(1, intArgument(5, 500))
    let workload = ControllerServer.Workload.latency(samples: samples, interval: UInt64(1_000_000_000 / rate))
    if let r = await runAsyncPath(workload, batched: false) { reportLatency("async subscribe", r, rate: rate) }
    if let r = await runCoreBluetoothPath(workload) { reportLatency("CoreBluetooth didUpdateValueFor", r, rate: rate) }
case "mqtt":
    runMQTTBench(count: intArgument(2, 100_000), qos: intArgument(3, 1) == 0 ? .atMostOnce : .atLeastOnce, rate: max(1, intArgument(4, 1000)))
case "privacy":
    runPrivacyBench(reports: intArgument(2, 100_000), bonds: intArgument(3, 8))
case "links":
    runLinksBench(port: UInt16(clamping: intArgument(2, 0)), perRole: max(1, intArgument(3, 1)), seconds: intArgument(4, 3))
default:
    print("usage: rtstack-bench core|loop|async|latency|corebluetooth|links|mqtt|privacy [COUNT|SAMPLES] [REPEATS|RATE]")
    exit(2)
}
