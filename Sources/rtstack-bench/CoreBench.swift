import Glibc
import HostCore
import Sensors
import Wire

/// (a) through the core alone, sans-I/O: H4 bytes in 64 KiB reads → `H4Framer` →
/// `HCIHost.receive` → `.notification` pulled → `SensorValueDecoder` → a consumer. What the event
/// loop does per read, without the loop and the socket of `AdapterDriver`.
final class CoreBench {
    let host: HCIHost
    private let controller = ScriptedController()
    @exclusivity(unchecked) private var framer = H4Framer(configuration: .controllerToHost)
    /// By link number: the subscribed value handle and its characteristic, filled as links
    /// subscribe (what an application keeps to know what a notification holds).
    @exclusivity(unchecked) private var routes: [(valueHandle: UInt16, uuid: BluetoothUUID)?] = Array(repeating: nil, count: 8)
    @exclusivity(unchecked) private(set) var consumer = MeasurementSink()
    private var subscribed = 0

    init() {
        host = HCIHost(configuration: HostConfiguration(ownAddress: .randomStatic(BDAddress(string: "C4:11:22:33:44:55") ?? .zero)))
    }

    /// Bring-up, three connections, three CCCD writes; returns the connection handles in
    /// `BenchWorkload.sensors` order.
    func setUp() -> [UInt16]? {
        host.start(at: 0)
        settle(at: 0)
        pump()
        guard host.isReady else {
            print("core: the host did not come up")
            return nil
        }
        for s in BenchWorkload.sensors {
            host.connect(to: s.address, plan: s.plan(subscribe: true), at: 1)
            settle(at: 1)
            pump()
        }
        guard subscribed == BenchWorkload.sensors.count else {
            print("core: \(subscribed) links subscribed; links: \(host.links)")
            return nil
        }
        return BenchWorkload.sensors.map { controller.handles[$0.address] ?? 0 }
    }

    /// Feeds the controller's answers until both sides are quiet.
    private func pump() {
        var turns = 0
        while !controller.outbox.isEmpty, turns < 10_000 {
            turns += 1
            let bytes = controller.outbox
            controller.outbox.removeAll()
            feed(bytes[...], at: 1)
        }
    }

    /// One "read": what the loop hands the driver.
    @inline(__always)
    func feed(_ bytes: some Collection<UInt8>, at now: HostTime) {
        framer.feed(bytes)
        while framer.withNext({ output in
            if case .packet(let p) = output {
                host.receive(p, at: now)
                settle(at: now)
            }
            return true
        }) != nil {}
    }

    /// What the driver does after every input: the host's packets to the controller, its
    /// events to the application.
    @inline(__always)
    private func settle(at now: HostTime) {
        while let p = host.pollTransmit(at: now) { controller.handle(p) }
        while let e = host.pollEvent() { deliver(e) }
    }

    /// Runs `stream` through in reads of `readSize` bytes (not inlined, so callgrind can count
    /// this function alone: `--toggle-collect=*CoreBench*3run*`).
    @inline(never)
    func run(_ stream: [UInt8], readSize: Int = 64 * 1024) {
        stream.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let end = min(offset + readSize, raw.count)
                feed(UnsafeRawBufferPointer(rebasing: raw[offset..<end]), at: 2)
                offset = end
            }
        }
    }

    func deliver(_ event: HostEvent) {
        switch event {
        case let .notification(link, handle, value):
            let i = Int(link.rawValue)
            guard i < routes.count, let r = routes[i], r.valueHandle == handle else { return }
            consumer.consume(SensorValueDecoder.decode(uuid: r.uuid, value: value))
        case let .subscribed(link, characteristic, valueHandle):
            let i = Int(link.rawValue)
            if i < routes.count { routes[i] = (valueHandle, characteristic) }
            subscribed += 1
        case let .warning(w):
            print("core: host warning: \(w)")
        default:
            break
        }
    }
}

enum Clock {
    static func monotonic() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// CPU time of the whole process (all threads), ns.
    static func processCPU() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    static func threadCPU() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }
}

/// Runs the core benchmark `repeats` times on `count` notifications; prints one line per run
/// and the median.
func runCoreBench(count: Int, repeats: Int) {
    let bench = CoreBench()
    guard let handles = bench.setUp() else {
        print("core: set-up failed")
        return
    }
    let stream = BenchWorkload.notificationStream(count: count, handles: handles)
    var wallRates: [Double] = []
    var cpuRates: [Double] = []
    for r in 0..<repeats {
        let before = bench.consumer.count
        let w0 = Clock.monotonic(), c0 = Clock.threadCPU()
        bench.run(stream)
        let c1 = Clock.threadCPU(), w1 = Clock.monotonic()
        let delivered = bench.consumer.count - before
        let wall = Double(w1 - w0), cpu = Double(c1 - c0)
        wallRates.append(Double(delivered) / wall * 1e9)
        cpuRates.append(Double(delivered) / cpu * 1e9)
        print("core run \(r + 1): \(delivered) notifications (\(stream.count) bytes) in \(fmt(wall / 1e6, 1)) ms wall, \(fmt(cpu / 1e6, 1)) ms CPU: "
              + "\(fmt(wallRates.last ?? 0, 0))/s wall, \(fmt(cpuRates.last ?? 0, 0))/s CPU, \(fmt(wall / Double(delivered), 1)) ns/notification wall, \(fmt(cpu / Double(delivered), 1)) ns CPU")
    }
    let mw = median(wallRates), mc = median(cpuRates)
    print("core: median \(fmt(mw, 0)) notifications/s wall (\(fmt(1e9 / mw, 1)) ns each), \(fmt(mc, 0))/s on-CPU (\(fmt(1e9 / mc, 1)) ns each); "
          + "best \(fmt(wallRates.max() ?? 0, 0))/s wall; malformed \(bench.consumer.malformed), checksum \(fmt(bench.consumer.checksum, 1))")
}

func median(_ v: [Double]) -> Double {
    guard !v.isEmpty else { return 0 }
    let s = v.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    let i = min(sorted.count - 1, max(0, Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1))
    return sorted[i]
}

func fmt(_ x: Double, _ digits: Int) -> String {
    guard x.isFinite else { return "\(x)" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let r = (x * scale).rounded() / scale
    if digits == 0 { return String(Int64(r)) }
    let whole = Int64(r.rounded(.towardZero))
    let frac = Int64((abs(r - Double(whole)) * scale).rounded())
    var f = String(frac)
    while f.count < digits { f = "0" + f }
    return (r < 0 && whole == 0 ? "-" : "") + "\(whole).\(f)"
}
