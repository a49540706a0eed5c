import Glibc

/// rtstack-bench: the host-pipeline and latency benchmarks of issue 6 (Docs/performance.md).
/// Prints figures, asserts nothing.
///
///     rtstack-bench core [COUNT] [REPEATS]      (a) sans-I/O core: Host + decoders
///     rtstack-bench loop [COUNT] [REPEATS]      (a) EventLoop + HostDriver over TCP loopback
///     rtstack-bench async [COUNT] [REPEATS]     (a) Central/Peripheral AsyncStream over TCP loopback
///     rtstack-bench latency [SAMPLES] [RATE]    (e) fd arrival → consumer, loop and async paths
let arguments = CommandLine.arguments
let mode = arguments.count > 1 ? arguments[1] : "core"
func intArgument(_ i: Int, _ fallback: Int) -> Int {
    arguments.count > i ? Int(arguments[i]) ?? fallback : fallback
}

switch mode {
case "core":
    runCoreBench(count: intArgument(2, 1_000_000), repeats: intArgument(3, 5))
default:
    print("usage: rtstack-bench core|loop|async|latency [COUNT] [REPEATS|RATE]")
    exit(2)
}
