#if canImport(Glibc)
import Glibc
#endif
import ESPHomeAPI
import Gateway
import HostCore
import MQTT
import Runtime
import Service

/// `rtstack gateway` on one event loop thread: one `AdapterPump` per adapter (either backend,
/// any transport), the MQTT client's socket, the control socket and its clients, SIGHUP, the
/// watchdog — all served by the same `poll`. It does the I/O and decides nothing: the
/// `GatewayRuntime` (Gateway target) says when an adapter is opened again, what a reload
/// changes and when the broker connection ends; its `GatewayController` what happens to every
/// device. Why one thread and not one per adapter: Docs/gateway.md, "Adapters and connection
/// slots".
///
/// After every input everything is settled: each pump hands its host's packets out and its
/// events to the controller (which may call into any adapter's host), until no pump has more;
/// then the controller's messages go to the broker and its lines to the control clients.
final class GatewayDriver: EventLoopDriver {
    /// An adapter of the configuration: how to open it and, while it is open, its pump.
    final class AdapterRuntime: HostEventSink {
        let index: Int
        let spec: AdapterSpec
        let backend: AdapterBackend
        let hostConfiguration: HostConfiguration
        let sinks: [any PacketSinkFactory]
        /// Where the bonds its host makes are kept; nil when it does not pair.
        let bondStore: FileBondStore?
        var pump: AdapterPump?
        weak var controller: GatewayController?

        init(index: Int, spec: AdapterSpec, backend: AdapterBackend, hostConfiguration: HostConfiguration,
             sinks: [any PacketSinkFactory], bondStore: FileBondStore? = nil) {
            self.index = index
            self.spec = spec
            self.backend = backend
            self.hostConfiguration = hostConfiguration
            self.sinks = sinks
            self.bondStore = bondStore
        }

        var name: String { spec.description }

        func hostEvent(_ event: HostEvent, at now: HostTime) {
            controller?.hostEvent(event, adapter: index, at: now)
        }
    }

    /// Who a watched descriptor belongs to.
    private enum Owner {
        case adapter(Int, token: Int)
        case mqtt(fd: Int32)
        case controlListener
        case controlClient(Int)
        case esphomeListener
        case esphomeClient(Int)
        case hangup
    }

    /// A TCP adapter being reopened gets this long to connect (the loop waits meanwhile).
    static let reopenConnectTimeout = HostDuration.milliseconds(500)

    private let context: EventLoopContext<GatewayDriver>
    let runtime: GatewayRuntime
    private var controller: GatewayController { runtime.controller }
    /// nil: no broker (a gateway that is only a Bluetooth proxy).
    private let mqtt: MQTTClient?
    private var adapters: [AdapterRuntime]
    private let control: ControlServer?
    private let esphome: ESPHomeServer?
    private let announcer: ESPHomeAnnouncer?
    private let hangup: HangupWatcher?
    private let notifier: ServiceNotifier?
    private var watchdog: WatchdogSchedule?
    private let log: GatewayLog
    private let reloader: () -> Result<GatewayConfiguration, GatewayProblem>
    private let makeAdapter: (String, Int) -> AdapterRuntime?
    private let result: ResultBox
    private var owners: [Owner] = []
    /// One adapter's descriptors while they are collected, kept between turns (no allocation per turn).
    private var scratch: [WatchedDescriptor] = []
    private var lastStatus: (GatewayStatusCounts, brokerConnected: Bool)?

    struct Parts {
        var controller: GatewayController
        var mqtt: MQTTClient?
        var adapters: [AdapterRuntime]
        /// Adapters opened before the loop started (so that errors reached the user at once).
        var opened: [Int: any AdapterIO]
        var control: ControlServer?
        /// ESPHome's native API for Home Assistant's Bluetooth proxy clients.
        var esphome: ESPHomeServer? = nil
        /// Publishes the API over mDNS while the gateway runs (not for a loopback address).
        var announcer: ESPHomeAnnouncer? = nil
        var hangup: HangupWatcher?
        var notifier: ServiceNotifier?
        var log: GatewayLog
        /// Reads the configuration again (SIGHUP).
        var reloader: () -> Result<GatewayConfiguration, GatewayProblem>
        /// An adapter added by a reload: its runtime at this index.
        var makeAdapter: (String, Int) -> AdapterRuntime?
        var result: ResultBox
    }

    init(context: EventLoopContext<GatewayDriver>, parts: Parts, at now: HostTime) {
        self.context = context
        runtime = GatewayRuntime(controller: parts.controller, adapters: parts.adapters.map { (name: $0.name, backend: $0.backend) })
        mqtt = parts.mqtt
        adapters = parts.adapters
        control = parts.control
        esphome = parts.esphome
        announcer = parts.announcer
        hangup = parts.hangup
        notifier = parts.notifier
        log = parts.log
        reloader = parts.reloader
        makeAdapter = parts.makeAdapter
        result = parts.result
        watchdog = WatchdogSchedule.fromEnvironment(now: now)
        for a in adapters {
            a.controller = parts.controller
            if let io = parts.opened[a.index] {
                start(a, io: io, at: now)
            } else {
                runtime.adapterLost(a.index, reason: "could not be opened", at: now)
            }
        }
        if let mqtt {
            for f in controller.subscriptionFilters {
                do { try mqtt.subscribe(f) } catch { log.write(.error, "MQTT: cannot subscribe to \(f): \(error)") }
            }
            mqtt.start(at: now)
        }
        drain(at: now)
        notify { try $0.ready(status: controllerStatus()) }
        log.write(.notice, "gateway \(controller.statusLine); control socket \(control?.path ?? "off")")
        if let esphome {
            log.write(.notice, "esphome: serving Home Assistant's Bluetooth proxy API on \(esphome.address.text) as '\(esphome.identity.name)'")
            if let notice = esphome.unencryptedNotice { log.write(.warning, "esphome: " + notice) }
            if let announcer { log.write(.notice, "esphome: " + announcer.start()) }
        }
    }

    private func start(_ a: AdapterRuntime, io: any AdapterIO, at now: HostTime) {
        let pump = AdapterPump(io: io, sink: a, bondStore: a.bondStore, at: now)
        a.pump = pump
        runtime.adapterOpened(a.index, host: pump.host, at: now)
        pump.start(at: now)
    }

    // MARK: Settling

    /// Hands on everything the last input caused, on every adapter, to the broker and to the
    /// control clients, until nothing moves.
    private func drain(at now: HostTime) {
        var rounds = 0
        repeat {
            var again = false
            for a in adapters {
                if let p = a.pump, p.settle() { again = true }
            }
            closeFailedAdapters(at: now)
            let messages = controller.takeMessages()
            if let mqtt {
                for m in messages {
                    do { try mqtt.publish(m) } catch { log.write(.error, "MQTT: not published to \(m.topic): \(error)") }
                }
                // The round's messages in one write; the broker's acknowledgements read on this turn.
                mqtt.flush(at: now)
                // What the turn's reads and this flush brought, after the flush: the
                // acknowledgements it read are taken in this round, not in one more.
                controller.mqttStatistics = mqtt.statistics
                while let e = mqtt.nextEvent() {
                    // A delivery changes nothing else (2.7 a notification): no other round for it.
                    if case .delivered = e { continue }
                    again = true
                    runtime.brokerEvent(e, broker: "\(mqtt.configuration.broker)", held: mqtt.statistics.queued,
                                        limit: mqtt.configuration.queueLimit, at: now)
                }
            }
            for (client, line) in controller.takeControlOutput() {
                if control?.send(client, line) == false { controller.controlClosed(client: client, at: now) }
            }
            if let esphome {
                for (client, message) in controller.takeProxyOutput() where !esphome.send(message, to: client) {
                    controller.proxyClientClosed(client: client, at: now)
                    again = true
                }
                for (level, text) in esphome.takeLog() { log.write(level, "esphome: " + text) }
            }
            for (level, text) in control?.takeLog() ?? [] { log.write(level, text) }
            for (level, text) in controller.takeLog() { log.write(level, text) }
            rounds += 1
            if !again { break }
        } while rounds < 64
        if runtime.shouldStopBroker(connected: mqtt?.state == .connected, queued: mqtt?.statistics.queued ?? 0, at: now) {
            mqtt?.stop(at: now)
        }
        if runtime.shouldEndLoop(brokerStopped: mqtt.map { $0.state == .stopped } ?? true, at: now) { context.stop() }
        // The text only when its figures changed: this runs after every loop turn.
        let status = (controller.statusCounts, brokerConnected: mqtt?.state == .connected)
        if lastStatus.map({ $0.0 != status.0 || $0.brokerConnected != status.brokerConnected }) ?? true {
            lastStatus = status
            notify { try $0.status(controllerStatus()) }
        }
    }

    private func controllerStatus() -> String {
        controller.statusLine + (mqtt.map { ", broker " + ($0.state == .connected ? "connected" : "away") } ?? "")
    }

    /// Adapters that were lost (transport ended) or whose controller could not be brought up
    /// are closed; the runtime moves their links and says when to open them again.
    private func closeFailedAdapters(at now: HostTime) {
        for a in adapters {
            guard let p = a.pump else { continue }
            let reason: String
            if let failure = p.failure {
                reason = p.close(after: failure).description
            } else if p.host.hasFailed {
                _ = p.close(after: nil)
                reason = "the controller could not be brought up"
            } else {
                continue
            }
            a.pump = nil
            runtime.adapterLost(a.index, reason: reason, at: now)
        }
    }

    /// Opens an adapter again. Opening blocks (a TCP adapter for up to `reopenConnectTimeout`),
    /// so what follows happens at the time it returned: the one clock this driver reads itself.
    private func reopen(_ a: AdapterRuntime) {
        let opened: Result<any AdapterIO, AdapterOpenError>
        do throws(AdapterOpenError) {
            opened = .success(try a.spec.open(backend: a.backend, configuration: a.hostConfiguration, sinks: a.sinks,
                                              connectTimeout: Self.reopenConnectTimeout))
        } catch {
            opened = .failure(error)
        }
        let now = MonotonicClock.now()
        switch opened {
        case .success(let io): start(a, io: io, at: now)
        case .failure(let error): runtime.reopenFailed(a.index, reason: AdapterAdvice.text(for: error), at: now)
        }
    }

    // MARK: EventLoopDriver

    func collectDescriptors(into list: inout [WatchedDescriptor]) {
        owners.removeAll(keepingCapacity: true)
        for a in adapters {
            guard let p = a.pump else { continue }
            scratch.removeAll(keepingCapacity: true)
            p.collectDescriptors(into: &scratch)
            for w in scratch { add(w.fd, w.events, .adapter(a.index, token: w.token), to: &list) }
        }
        if let mqtt, let fd = mqtt.fileDescriptor {
            add(fd, mqtt.pollEvents, .mqtt(fd: fd), to: &list)
        }
        if let esphome {
            for d in esphome.descriptors() {
                add(d.fd, d.events, d.client.map { .esphomeClient($0) } ?? .esphomeListener, to: &list)
            }
        }
        if let control {
            for d in control.descriptors() {
                add(d.fd, d.events, d.client.map { .controlClient($0) } ?? .controlListener, to: &list)
            }
        }
        if let hangup { add(hangup.fd, Int16(POLLIN), .hangup, to: &list) }
    }

    private func add(_ fd: Int32, _ events: Int16, _ owner: Owner, to list: inout [WatchedDescriptor]) {
        list.append(WatchedDescriptor(fd: fd, events: events, token: owners.count))
        owners.append(owner)
    }

    func descriptorReady(_ token: Int, events: Int16, at now: HostTime) {
        guard owners.indices.contains(token) else { return }
        switch owners[token] {
        case let .adapter(index, inner):
            adapters.first { $0.index == index }?.pump?.descriptorReady(inner, events: events, at: now)
        case .mqtt(let fd):
            // The client may have reconnected on another descriptor during this turn.
            guard let mqtt, mqtt.fileDescriptor == fd else { break }
            if events & Int16(POLLIN | POLLHUP | POLLERR) != 0 { mqtt.handleReadable(at: now) }
            if events & Int16(POLLOUT) != 0, mqtt.fileDescriptor == fd { mqtt.handleWritable(at: now) }
        case .controlListener:
            control?.accept(at: now)
        case .controlClient(let id):
            guard let control else { break }
            let (lines, closed) = control.read(id, events: events)
            for line in lines { controller.controlRequest(line, client: id, at: now) }
            if closed { controller.controlClosed(client: id, at: now) }
        case .esphomeListener:
            esphome?.accept(at: now)
        case .esphomeClient(let id):
            guard let esphome else { break }
            let (requests, closed) = esphome.read(id, events: events, at: now)
            for r in requests { controller.proxyRequest(r, client: id, shortUUIDs: esphome.acceptsShortUUIDs(id), at: now) }
            if closed { controller.proxyClientClosed(client: id, at: now) }
        case .hangup:
            if hangup?.takeRequest() == true { reload(at: now) }
        }
        drain(at: now)
    }

    var nextDeadline: HostTime? {
        var d = EarliestDeadline(runtime.nextDeadline)
        for a in adapters { d.consider(a.pump?.nextDeadline) }
        d.consider(mqtt?.nextDeadline)
        d.consider(esphome?.nextDeadline)
        d.consider(control?.nextDeadline)
        d.consider(watchdog?.nextPingAt)
        return d.time
    }

    func deadlineReached(at now: HostTime) {
        for a in adapters {
            if let p = a.pump, let d = p.nextDeadline, d <= now { p.deadlineReached(at: now) }
        }
        for i in runtime.adaptersToOpen(at: now) {
            if let a = adapters.first(where: { $0.index == i }) { reopen(a) }
        }
        if let d = controller.nextDeadline, d <= now { controller.advanceTime(to: now) }
        if let mqtt, let m = mqtt.nextDeadline, now >= m { mqtt.handleTimeout(at: now) }
        if let control, let c = control.nextDeadline, c <= now { control.advanceTime(to: now) }
        if let esphome, let e = esphome.nextDeadline, e <= now {
            for id in esphome.advanceTime(to: now) { controller.proxyClientClosed(client: id, at: now) }
        }
        if var w = watchdog, w.isDue(at: now) {
            notify { try $0.watchdog() }
            w.pinged(at: now)
            watchdog = w
        }
        drain(at: now)
    }

    func shutdownRequested(at now: HostTime) -> Bool {
        log.write(.notice, "stopping: disconnecting \(controller.linkCount) link(s)")
        notify { try $0.stopping() }
        if let esphome {
            // Home Assistant's clients are told the proxy goes (ESPHome's DisconnectRequest); their
            // links end with the gateway's own.
            for id in esphome.clients.keys.sorted() { controller.proxyClientClosed(client: id, at: now) }
            esphome.closeAll(because: "the gateway is stopping")
        }
        controller.beginShutdown(at: now)
        drain(at: now)
        return false
    }

    func loopEnding(_ outcome: EventLoopOutcome) {
        for a in adapters { if let p = a.pump { _ = p.close(after: nil) } }
        control?.close()
        esphome?.closeAll(because: "the gateway stopped")
        announcer?.stop()
        if case .interrupted = outcome { result.set(.success) }
        if case .pollFailed(let code) = outcome {
            log.write(.error, "poll failed: \(String(cString: strerror(code)))")
            result.set(.failure)
        }
    }

    // MARK: Reload

    /// SIGHUP: reads the configuration again; unchanged devices keep their links.
    private func reload(at now: HostTime) {
        notify { try $0.reloading(monotonicMicroseconds: now / 1000) }
        switch reloader() {
        case .failure(let problem):
            log.write(.error, "reload: the configuration has problems; keeping the running one:\n" + problem.text)
        case .success(let new):
            let outcome = runtime.reload(new, at: now)
            for n in outcome.needsRestart { log.write(.warning, "reload: \(n) changed; restart the gateway to apply it") }
            for i in outcome.retired {
                if let a = adapters.first(where: { $0.index == i }), let p = a.pump {
                    _ = p.close(after: nil)
                    a.pump = nil
                }
            }
            for name in outcome.added {
                guard let a = makeAdapter(name, adapters.count) else { continue }
                adapters.append(a)
                a.controller = controller
                runtime.addAdapter(name: a.name, backend: a.backend, at: now)
            }
        }
        notify { try $0.ready(status: controllerStatus()) }
    }

    private func notify(_ body: (ServiceNotifier) throws -> Void) {
        guard let notifier else { return }
        do { try body(notifier) } catch { log.write(.debug, "sd_notify: \(error)") }
    }
}

/// Something that keeps the gateway from starting or a configuration from loading, said the
/// way a user reads it.
struct GatewayProblem: Error {
    let text: String
}

/// The gateway's log: journald lines under systemd (priority prefixes), `rtstack: …` on a
/// terminal; messages below the chosen level are left out.
struct GatewayLog {
    let line: LogLine
    let threshold: LogLine.Level
    let err: OutputStream

    func write(_ level: LogLine.Level, _ message: String) {
        guard level <= threshold else { return }
        err.write(line.format(level, message))
        err.flush()
    }
}
