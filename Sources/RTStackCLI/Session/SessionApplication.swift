import HostCore
import RunTracker
import Runtime
import Wire

/// The run session on the adapter's loop thread, on either backend: waits for the controller,
/// runs the `SessionController`, prints the live view or JSON Lines, honours `--duration` and
/// Ctrl-C, and ends the loop once every link is cleanly down.
final class SessionApplication: HostApplication {
    let configuration: SessionController.Configuration
    let json: Bool
    let duration: UInt64?
    let console: Console
    let logLevel: AdapterOptions.LogLevel
    let cacheFiles: FileGATTCache?
    let result: ResultBox
    let agent: any PairingAgent
    private weak var driver: AdapterDriver?
    /// Each link's peer, for the agent and messages.
    private var peers: [LinkID: DeviceAddress] = [:]
    private var prompts = PairingPromptTasks()
    private var session: SessionController?
    private var view: LiveView?
    private var startedAt: HostTime = 0
    private var endAt: HostTime?
    private var done = false

    init(configuration: SessionController.Configuration, json: Bool, duration: UInt64?, console: Console,
         logLevel: AdapterOptions.LogLevel, cacheFiles: FileGATTCache?, result: ResultBox, agent: any PairingAgent) {
        self.configuration = configuration
        self.json = json
        self.duration = duration
        self.console = console
        self.logLevel = logLevel
        self.cacheFiles = cacheFiles
        self.result = result
        self.agent = agent
    }

    func attach(_ driver: AdapterDriver, at now: HostTime) {
        self.driver = driver
        startedAt = now
    }

    func hostEvent(_ event: HostEvent, at now: HostTime) {
        switch event {
        case .controllerReady:
            guard session == nil, let host = driver?.host else { break }
            let s = SessionController(configuration: configuration, host: host, cache: cacheFiles.map(CacheBridge.init))
            session = s
            if !json { view = LiveView(roles: configuration.roles, out: console.out) }
            startedAt = now
            if let d = duration { endAt = now &+ d }
            s.start(at: now)
            takeSessionEvents()
            return
        case .controllerFailed(let error):
            guard let host = driver?.host else { break }
            switch ControllerFailure(of: host, wasReady: session != nil) {
            case .neverReady:
                console.err.line("rtstack: the controller did not come up: \(AdapterAdvice.text(for: error))")
                finish(.adapter)
                return
            case .lost:
                console.err.line("rtstack: the controller failed and could not be brought up again: \(AdapterAdvice.text(for: error))")
                finish(.adapter)
                return
            case .resetting:
                log(.warn, "controller: \(error.description)")
            }
        case .warning(let w):
            log(.warn, w.description)
        case .connected(let link, let info):
            peers[link] = info.peer
        case .disconnected(let link, _, _):
            prompts.cancel(link)
        case .security(let link, let e):
            security(e, on: link)
        default:
            break
        }
        session?.handle(event, at: now)
        takeSessionEvents()
        if session?.isFinished == true { finish(.success) }
    }

    var nextDeadline: HostTime? {
        let a = session?.nextDeadline
        switch (a, done ? nil : endAt) {
        case let (x?, y?): return min(x, y)
        case let (x?, nil): return x
        case let (nil, y?): return y
        case (nil, nil): return nil
        }
    }

    func deadlineReached(at now: HostTime) {
        if let e = endAt, now >= e {
            endAt = nil
            if let s = session {
                s.stop(at: now)
                takeSessionEvents()
            } else {
                console.err.line("rtstack: the controller was not ready before --duration ran out; check that it answers "
                    + "(rtstack info with the same --adapter), or give a longer --duration")
                finish(.adapter)
            }
        }
        session?.advanceTime(to: now)
        takeSessionEvents()
        if session?.isFinished == true { finish(.success) }
    }

    func adapterClosed(_ error: TransportError) {
        guard !done else { return }
        console.err.line("rtstack: \(AdapterAdvice.text(for: error))")
        done = true
        prompts.cancelAll()
        result.set(.adapter)
    }

    func shutdownRequested(at now: HostTime) -> Bool {
        guard let s = session, !s.isFinished else { return true }
        s.stop(at: now)
        takeSessionEvents()
        if s.isFinished { finish(.success) }
        return false
    }

    /// Prompts go to the agent (its answer comes back as a job on the loop); what happened is
    /// said as a notice (keys never: pairing results describe themselves redacted).
    private func security(_ e: SecurityEvent, on link: LinkID) {
        let peer = peers[link] ?? DeviceAddress(.zero, type: .publicDevice)
        switch e {
        case .prompt(let prompt):
            guard let loop = driver?.loop else { return }
            prompts.ask(agent, prompt, peer: peer, link: link, loop: loop)
        case .pairingStarted(let need):
            log(.info, "pairing with \(peer) (\(need))")
        case .paired(let r):
            output(.notice(r.description))
        case .encrypted(let level, let keySize, let withBond):
            log(.info, "\(peer) encrypted\(withBond ? " with its bond" : ""): security \(level.name), key size \(keySize)")
        case .bondRemoved(let address):
            output(.notice("the bond with \(address) was removed (the peer lost it)"))
        case .failed(let f):
            output(.notice("security with \(peer): \(f.explanation)"))
        case .bondStored:
            break
        }
    }

    private func finish(_ code: ExitCode) {
        guard !done else { return }
        done = true
        prompts.cancelAll()
        result.set(code)
        console.out.flush()
        driver?.stop()
    }

    /// Everything the session has to say after a call into it, in order.
    private func takeSessionEvents() {
        while let e = session?.pollEvent() { output(e) }
    }

    private func output(_ event: SessionEvent) {
        let t = Double((driver?.currentTime ?? startedAt) &- startedAt) / 1e9
        if json {
            if let line = SessionJSON.render(event, secondsSinceStart: t) {
                console.out.line(line)
                console.out.flush()
            }
        } else if case .summary(let s) = event {
            console.out.line("")
            console.out.line(LiveView.summaryText(s))
            console.out.flush()
        } else {
            view?.apply(event, secondsSinceStart: t)
        }
    }

    private func log(_ level: AdapterOptions.LogLevel, _ message: String) {
        guard level <= logLevel else { return }
        console.err.line("rtstack: " + message)
        console.err.flush()
    }
}

/// Adapts the file cache to the session's cache protocol; a failed write is not fatal.
final class CacheBridge: GATTCacheStore {
    let files: FileGATTCache
    init(_ files: FileGATTCache) { self.files = files }
    func database(for peer: DeviceAddress) -> GATTDatabase? { files.database(for: peer) }
    func store(_ database: GATTDatabase, for peer: DeviceAddress) { try? files.store(database, for: peer) }
    func remove(for peer: DeviceAddress) { files.remove(for: peer) }
}
