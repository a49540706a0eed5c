import Glibc
import HostCore
import RunTracker
import Runtime
import Sensors
import Synchronization
import Wire

/// (d) memory per link: the real runtime (TCP transport, event loop, `HostDriver`, `Host`)
/// against the Bumble world, connecting `perRole` sensors of each of the three roles as the
/// run session does for one (scan, connect on the first advertisement, Exchange MTU 247, full
/// discovery, the measurement subscribed), then streaming. The resident set is read from
/// /proc/self/status once every link streams and again after `seconds` of streaming.
final class LinksApplication: HostApplication {
    private weak var driver: AdapterDriver?
    private let perRole: Int
    private let report: LinksReport
    private var assigned: [SensorRole: Int] = [:]
    private var seen: Set<BDAddress> = []
    private var roleOf: [LinkID: SensorRole] = [:]
    private var streaming: Set<LinkID> = []
    private var scanning = false

    init(perRole: Int, report: LinksReport) {
        self.perRole = perRole
        self.report = report
    }

    func attach(_ driver: AdapterDriver, at now: HostTime) { self.driver = driver }

    func hostEvent(_ event: HostEvent, at now: HostTime) {
        guard let host = driver?.host else { return }
        switch event {
        case .controllerReady:
            host.startScan(at: now)
            scanning = true
        case .advertisement(let r):
            guard r.connectable, !r.isScanResponse, !seen.contains(r.address.address) else { return }
            let ad = AdvertisingData(r.data)
            for role in SensorRole.allCases where ad.advertisesService(role.advertisedService) && assigned[role, default: 0] < perRole {
                seen.insert(r.address.address)
                assigned[role, default: 0] += 1
                var plan = LinkPlan()
                plan.mtu = 247
                plan.discover = true
                plan.subscriptions = [Subscription(service: role.measurementService, characteristic: role.measurementCharacteristic)]
                let link = host.connect(to: r.address, plan: plan, at: now)
                roleOf[link] = role
                if scanning, SensorRole.allCases.allSatisfy({ assigned[$0, default: 0] >= perRole }) {
                    host.stopScan(at: now)
                    scanning = false
                }
                break
            }
        case let .notification(link, _, _):
            if roleOf[link] != nil, !streaming.contains(link) {
                streaming.insert(link)
                if streaming.count == perRole * SensorRole.allCases.count { report.allStreaming(at: now) }
            }
            report.notifications.add(1, ordering: .relaxed)
        default:
            break
        }
    }

    var nextDeadline: HostTime? { nil }
    func deadlineReached(at now: HostTime) {}
    func adapterClosed(_ error: TransportError) {}
    func shutdownRequested(at now: HostTime) -> Bool { true }
}



final class LinksReport: Sendable {
    let streamingAt = Atomic<UInt64>(0)
    let notifications = Atomic<Int>(0)
    func allStreaming(at now: UInt64) { streamingAt.store(now, ordering: .releasing) }
}

/// kB values of /proc/self/status lines (VmRSS, VmHWM, RssAnon, …).
func procStatus(_ keys: [String]) -> [String: Int] {
    var out: [String: Int] = [:]
    guard let f = fopen("/proc/self/status", "r") else { return out }
    defer { fclose(f) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), f) != nil {
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        for k in keys where text.hasPrefix(k + ":") {
            let digits = text.dropFirst(k.count + 1).filter { $0.isNumber }
            out[k] = Int(String(digits)) ?? 0
        }
    }
    return out
}

func runLinksBench(port: UInt16, perRole: Int, seconds: Int) {
    let report = LinksReport()
    let keys = ["VmRSS", "VmHWM", "RssAnon", "RssFile"]
    let before = procStatus(keys)
    let start = MonotonicClock.now()
    let loop: EventLoop<AdapterDriver>
    do {
        let transport = try TCPTransport(host: "127.0.0.1", port: port)
        let io = HCITransportIO(transport: transport, configuration: benchConfiguration,
                                tap: PacketTap(wallClockMicros: 0, monotonicNanos: 0))
        loop = try EventLoop<AdapterDriver>.start(name: "bench-links") { context in
            AdapterDriver(context: context, io: io, application: LinksApplication(perRole: perRole, report: report),
                          at: MonotonicClock.now())
        }
    } catch {
        print("links: \(error)")
        return
    }
    let deadline = start + 30_000_000_000
    while report.streamingAt.load(ordering: .acquiring) == 0, MonotonicClock.now() < deadline { usleep(5000) }
    let links = perRole * SensorRole.allCases.count
    guard report.streamingAt.load(ordering: .acquiring) != 0 else {
        print("links: not all \(links) links streaming within 30 s")
        loop.stop()
        return
    }
    let streaming = procStatus(keys)
    sleep(UInt32(max(0, seconds)))
    let after = procStatus(keys)
    let n = report.notifications.load(ordering: .relaxed)
    loop.stop()
    func kb(_ d: [String: Int]) -> String { keys.map { "\($0) \(d[$0] ?? 0)" }.joined(separator: " ") }
    print("links \(links): streaming after \(fmt(Double(report.streamingAt.load(ordering: .acquiring) - start) / 1e6, 0)) ms; \(n) notifications")
    print("links \(links) kB before: \(kb(before))")
    print("links \(links) kB streaming: \(kb(streaming))")
    print("links \(links) kB after \(seconds) s: \(kb(after))")
}
