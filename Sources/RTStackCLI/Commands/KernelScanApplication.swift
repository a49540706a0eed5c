import HostCore
import Runtime
import Wire

/// `rtstack scan --backend kernel`: the kernel's discovery (management channel), printed as
/// the user-channel scan prints it.
final class KernelScanApplication: KernelApplication {
    let console: Console
    let json: Bool
    let duration: UInt64?
    let result: ResultBox
    private var results: ScanResults
    private var clock: () -> UInt64 = { 0 }
    private var stopLoop: () -> Void = {}
    private weak var host: KernelHost?
    private var endAt: HostTime?
    private var done = false

    init(filter: ScanFilter, duration: UInt64?, json: Bool, console: Console, result: ResultBox) {
        results = ScanResults(filter: filter)
        self.duration = duration
        self.json = json
        self.console = console
        self.result = result
    }

    static func run(index: UInt16, options: AdapterOptions, filter: ScanFilter, duration: Double?, json: Bool,
                    console: Console) -> ExitCode {
        let result = ResultBox()
        let sinks: [any PacketSinkFactory]
        do {
            sinks = try options.sinks(console: console)
        } catch {
            console.err.line("rtstack: \(error.message)")
            return .usage
        }
        KernelRunner.run(index: index, options: options, sinks: sinks, console: console, result: result) {
            KernelScanApplication(filter: filter, duration: duration.map { UInt64($0 * 1e9) }, json: json,
                                  console: console, result: result)
        }
        return result.value
    }

    func attach(_ driver: KernelDriver, at now: HostTime) {
        clock = { [weak driver] in driver?.currentTime ?? 0 }
        stopLoop = { [weak driver] in driver?.stop() }
        host = driver.host
    }

    func hostEvent(_ event: HostEvent, at now: HostTime) {
        switch event {
        case .controllerReady:
            if let d = duration { endAt = now &+ d }
            host?.startScan(at: now)
        case .controllerFailed(let error):
            console.err.line("rtstack: \(error.description)")
            finish(.adapter)
        case .warning(let w):
            console.err.line("rtstack: " + w.description)
        case .advertisement(let report):
            let change = results.add(report, at: now)
            guard change == .new || change == .updated, let d = results.devices[report.address] else { return }
            console.out.line(json ? ScanCommand.deviceJSON(d) : ScanCommand.deviceLine(d))
            console.out.flush()
        default:
            break
        }
    }

    var nextDeadline: HostTime? { done ? nil : endAt }

    func deadlineReached(at now: HostTime) {
        guard let e = endAt, now >= e else { return }
        host?.stopScan(at: now)
        finish(.success)
    }

    func backendFailed(_ message: String) {
        console.err.line("rtstack: \(message)")
        finish(.adapter)
    }

    func shutdownRequested(at now: HostTime) -> Bool {
        host?.stopScan(at: now)
        finish(.success)
        return true
    }

    private func finish(_ code: ExitCode) {
        guard !done else { return }
        done = true
        result.set(code)
        if code == .success, !json {
            console.out.line("\n\(results.sorted.count) device(s):")
            for d in results.sorted { console.out.line(ScanCommand.deviceLine(d)) }
        }
        console.out.flush()
        stopLoop()
    }
}
