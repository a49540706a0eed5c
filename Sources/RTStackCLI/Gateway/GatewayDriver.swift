#if canImport(Glibc)
import Glibc
#endif
import Gateway
import HostCore
import MQTT
import Runtime
import Service

/// `rtstack gateway` on one event loop thread: one `AdapterPump` per adapter (either backend,
/// any transport), the MQTT client's socket, the control socket and its clients, SIGHUP, the
/// watchdog — all served by the same `poll`, with the `GatewayController` deciding what happens.
/// Why one thread and not one per adapter: Docs/gateway.md, "Adapters and connection slots".
///
/// After every input everything is settled: each pump hands its host's packets out and its
/// events to the controller (which may call into any adapter's host), until no pump has more;
/// then the controller's messages go to the broker and its lines to the control clients.
final class GatewayDriver: EventLoopDriver {
    /// An adapter of the configuration and, while it is open, its pump.
    final class AdapterRuntime: HostEventSink {
        let index: Int
        let spec: AdapterSpec
        let backend: AdapterBackend
        let hostConfiguration: HostConfiguration
        let sinks: [any PacketSinkFactory]
        var pump: AdapterPump?
        var reopenAt: UInt64?
        var reopenDelay: UInt64 = GatewayDriver.reopenFirst
        /// Removed from the configuration by a reload: closed, never opened again.
        var retired = false
        weak var controller: GatewayController?

        init(index: Int, spec: AdapterSpec, backend: AdapterBackend, hostConfiguration: HostConfiguration,
             sinks: [any PacketSinkFactory]) {
            self.index = index
            self.spec = spec
            self.backend = backend
            self.hostConfiguration = hostConfiguration
            self.sinks = sinks
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
        case hangup
    }

    static let reopenFirst = HostDuration.seconds(1)
    static let reopenMost = HostDuration.seconds(30)
    /// A TCP adapter being reopened gets this long to connect (the loop waits meanwhile).
    static let reopenConnectTimeout = HostDuration.milliseconds(500)

    private let context: EventLoopContext<GatewayDriver>
    let controller: GatewayController
    private let mqtt: MQTTClient
    private var adapters: [AdapterRuntime]
    private let control: ControlServer?
    private let hangup: HangupWatcher?
    private let notifier: ServiceNotifier?
    private var watchdog: WatchdogSchedule?
    private let log: GatewayLog
    private let reloader: () -> Result<GatewayConfiguration, GatewayProblem>
    private let makeAdapter: (String, Int) -> AdapterRuntime?
    private let result: ResultBox
    private var owners: [Owner] = []
    private var mqttStopDeadline: UInt64?
    private var mqttStopSent = false
    private var lastStatusText = ""

    struct Parts {
        var controller: GatewayController
        var mqtt: MQTTClient
        var adapters: [AdapterRuntime]
        /// Adapters opened before the loop started (so that errors reached the user at once).
        var opened: [Int: any AdapterIO]
        var control: ControlServer?
        var hangup: HangupWatcher?
        var notifier: ServiceNotifier?
        var log: GatewayLog
        /// Reads the configuration again (SIGHUP).
        var reloader: () -> Result<GatewayConfiguration, GatewayProblem>
        /// An adapter added by a reload: its runtime at this index.
        var makeAdapter: (String, Int) -> AdapterRuntime?
        var result: ResultBox
    }

    init(context: EventLoopContext<GatewayDriver>, parts: Parts) {
        self.context = context
        controller = parts.controller
        mqtt = parts.mqtt
        adapters = parts.adapters
        control = parts.control
        hangup = parts.hangup
        notifier = parts.notifier
        log = parts.log
        reloader = parts.reloader
        makeAdapter = parts.makeAdapter
        result = parts.result
        let now = MonotonicClock.now()
        watchdog = WatchdogSchedule.fromEnvironment(now: Self.seconds(now))
        controller.setAdapters(adapters.map { (name: $0.name, backend: $0.backend.rawValue) })
        for a in adapters {
            a.controller = controller
            if let io = parts.opened[a.index] {
                start(a, io: io, at: now)
            } else {
                controller.adapterClosed(a.index, reason: "could not be opened", at: now)
                a.reopenAt = now &+ a.reopenDelay
            }
        }
        for f in controller.subscriptionFilters {
            do { try mqtt.subscribe(f) } catch { log.write(.error, "MQTT: cannot subscribe to \(f): \(error)") }
        }
        mqtt.start(at: Self.seconds(now))
        drain(at: now)
        notify { try $0.ready(status: controllerStatus()) }
        log.write(.notice, "gateway \(controller.statusLine); control socket \(control?.path ?? "off")")
    }

    static func seconds(_ ns: UInt64) -> Double { Double(ns) / 1e9 }

    private func start(_ a: AdapterRuntime, io: any AdapterIO, at now: UInt64) {
        let pump = AdapterPump(io: io, sink: a, at: now)
        a.pump = pump
        a.reopenAt = nil
        controller.adapterOpened(a.index, host: pump.host, at: now)
        pump.start(at: now)
    }

    // MARK: Settling

    /// Hands on everything the last input caused, on every adapter, to the broker and to the
    /// control clients, until nothing moves.
    private func drain(at now: UInt64) {
        var rounds = 0
        repeat {
            var again = false
            for a in adapters {
                if let p = a.pump, p.settle() { again = true }
            }
            checkAdapters(at: now)
            controller.mqttStatistics = mqtt.statistics
            while let e = mqtt.nextEvent() {
                again = true
                mqttEvent(e, at: now)
            }
            let messages = controller.takeMessages()
            for m in messages {
                do { try mqtt.publish(m) } catch { log.write(.error, "MQTT: not published to \(m.topic): \(error)") }
            }
            if !messages.isEmpty { again = true }
            for (client, line) in controller.takeControlOutput() {
                if control?.send(client, line) == false { controller.controlClosed(client: client, at: now) }
            }
            for (level, text) in controller.takeLog() { log.write(level, text) }
            rounds += 1
            if !again { break }
        } while rounds < 64
        finishIfStopped(at: now)
        let status = controllerStatus()
        if status != lastStatusText {
            lastStatusText = status
            notify { try $0.status(status) }
        }
    }

    private func controllerStatus() -> String {
        controller.statusLine + ", broker " + (mqtt.state == .connected ? "connected" : "away")
    }

    /// Adapters that were lost (transport ended) or whose controller could not be brought up
    /// are closed; the controller moves their links; they are opened again later.
    private func checkAdapters(at now: UInt64) {
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
            controller.adapterClosed(a.index, reason: reason, at: now)
            if !a.retired { a.reopenAt = now &+ a.reopenDelay }
        }
    }

    private func reopen(_ a: AdapterRuntime, at now: UInt64) {
        do {
            let io = try a.spec.open(backend: a.backend, configuration: a.hostConfiguration, sinks: a.sinks,
                                     connectTimeout: Self.reopenConnectTimeout)
            log.write(.notice, "\(a.name): back")
            a.reopenDelay = Self.reopenFirst
            start(a, io: io, at: MonotonicClock.now())
        } catch {
            log.write(.debug, "\(a.name): still gone (\(AdapterAdvice.text(for: error)))")
            a.reopenDelay = min(a.reopenDelay &* 2, Self.reopenMost)
            a.reopenAt = MonotonicClock.now() &+ a.reopenDelay
        }
    }

    // MARK: MQTT

    private func mqttEvent(_ e: MQTTEvent, at now: UInt64) {
        switch e {
        case .connected:
            log.write(.notice, "MQTT: connected to \(mqtt.configuration.broker)")
            controller.mqttConnected(at: now)
        case .connectFailed(let reason, let retryAt), .connectionLost(let reason, let retryAt):
            log.write(.warning, "MQTT: \(reason); next attempt in \(Int((retryAt - Self.seconds(now)).rounded(.up))) s "
                      + "(\(mqtt.statistics.queued) message(s) held, at most \(mqtt.configuration.queueLimit))")
            controller.mqttDisconnected()
        case .dropped(let count):
            controller.mqttDropped(count, at: now)
        case .message(let m):
            controller.mqttMessage(m, at: now)
        case .subscribed(let f):
            log.write(.debug, "MQTT: subscribed to \(f)")
        case .subscriptionRefused(let f):
            log.write(.warning, "MQTT: the broker refused the subscription to \(f): commands on it will not arrive; "
                      + "allow this user to read it in the broker's ACL (mosquitto: acl_file)")
        case .rejected(_, let reason):
            log.write(.error, "MQTT: \(reason)")
        case .stopped:
            log.write(.info, "MQTT: disconnected")
        case .delivered:
            break
        }
    }

    /// Once the controller has shut down (links closed, last states queued): the broker gets
    /// what is queued (acknowledged, within a bound), then the client stops — publishing the
    /// gateway offline — and the loop ends.
    private func finishIfStopped(at now: UInt64) {
        guard controller.isShutDown else { return }
        let deadline = mqttStopDeadline ?? now &+ HostDuration.seconds(3)
        mqttStopDeadline = deadline
        if !mqttStopSent, mqtt.state != .connected || mqtt.statistics.queued == 0 || now >= deadline {
            mqttStopSent = true
            mqtt.stop(at: Self.seconds(now))
            mqttStopDeadline = now &+ HostDuration.seconds(2)
        }
        if mqtt.state == .stopped || (mqttStopSent && now >= mqttStopDeadline ?? now) {
            context.stop()
        }
    }

    // MARK: EventLoopDriver

    func collectDescriptors(into list: inout [WatchedDescriptor]) {
        owners.removeAll(keepingCapacity: true)
        var scratch: [WatchedDescriptor] = []
        for a in adapters {
            guard let p = a.pump else { continue }
            scratch.removeAll(keepingCapacity: true)
            p.collectDescriptors(into: &scratch)
            for w in scratch { add(w.fd, w.events, .adapter(a.index, token: w.token), to: &list) }
        }
        if let fd = mqtt.fileDescriptor {
            add(fd, Int16(POLLIN) | (mqtt.wantsWrite ? Int16(POLLOUT) : 0), .mqtt(fd: fd), to: &list)
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

    func descriptorReady(_ token: Int, events: Int16, at now: UInt64) {
        guard owners.indices.contains(token) else { return }
        switch owners[token] {
        case let .adapter(index, inner):
            adapters.first { $0.index == index }?.pump?.descriptorReady(inner, events: events, at: now)
        case .mqtt(let fd):
            // The client may have reconnected on another descriptor during this turn.
            guard mqtt.fileDescriptor == fd else { break }
            if events & Int16(POLLIN | POLLHUP | POLLERR) != 0 { mqtt.handleReadable(at: Self.seconds(now)) }
            if events & Int16(POLLOUT) != 0, mqtt.fileDescriptor == fd { mqtt.handleWritable(at: Self.seconds(now)) }
        case .controlListener:
            control?.accept()
        case .controlClient(let id):
            guard let control else { break }
            let (lines, closed) = control.read(id, events: events)
            for line in lines { controller.controlRequest(line, client: id, at: now) }
            if closed { controller.controlClosed(client: id, at: now) }
        case .hangup:
            if hangup?.takeRequest() == true { reload(at: now) }
        }
        drain(at: now)
    }

    var nextDeadline: UInt64? {
        var d: UInt64? = controller.nextDeadline
        func consider(_ t: UInt64?) { if let t { d = min(d ?? t, t) } }
        for a in adapters {
            consider(a.pump?.nextDeadline)
            consider(a.reopenAt)
        }
        if let m = mqtt.nextDeadline { consider(UInt64(max(0, m) * 1e9)) }
        if let w = watchdog { consider(UInt64(max(0, w.nextPingAt) * 1e9)) }
        consider(mqttStopDeadline)
        return d
    }

    func deadlineReached(at now: UInt64) {
        for a in adapters {
            if let p = a.pump, let d = p.nextDeadline, d <= now { p.deadlineReached(at: now) }
            if let r = a.reopenAt, r <= now, !a.retired, !controller.isShuttingDown {
                a.reopenAt = nil
                reopen(a, at: now)
            }
        }
        if let d = controller.nextDeadline, d <= now { controller.advanceTime(to: now) }
        if let m = mqtt.nextDeadline, Self.seconds(now) >= m { mqtt.handleTimeout(at: Self.seconds(now)) }
        if var w = watchdog, w.isDue(at: Self.seconds(now)) {
            notify { try $0.watchdog() }
            w.pinged(at: Self.seconds(now))
            watchdog = w
        }
        drain(at: now)
    }

    func shutdownRequested(at now: UInt64) -> Bool {
        log.write(.notice, "stopping: disconnecting \(controller.linkCount) link(s)")
        notify { try $0.stopping() }
        controller.beginShutdown(at: now)
        drain(at: now)
        return false
    }

    func loopEnding(_ outcome: EventLoopOutcome) {
        for a in adapters { if let p = a.pump { _ = p.close(after: nil) } }
        control?.close()
        if case .interrupted = outcome { result.set(.success) }
        if case .pollFailed(let code) = outcome {
            log.write(.error, "poll failed: \(String(cString: strerror(code)))")
            result.set(.failure)
        }
    }

    // MARK: Reload

    /// SIGHUP: reads the configuration again; unchanged devices keep their links.
    private func reload(at now: UInt64) {
        notify { try $0.reloading(monotonicMicroseconds: now / 1000) }
        switch reloader() {
        case .failure(let problem):
            log.write(.error, "reload: the configuration has problems; keeping the running one:\n" + problem.text)
        case .success(let new):
            let notes = controller.reload(new, at: now)
            for n in notes { log.write(.warning, "reload: \(n) changed; restart the gateway to apply it") }
            reconcileAdapters(new.adapters, at: now)
        }
        notify { try $0.ready(status: controllerStatus()) }
    }

    private func reconcileAdapters(_ names: [String], at now: UInt64) {
        for a in adapters where !a.retired && !names.contains(a.name) {
            a.retired = true
            a.reopenAt = nil
            if let p = a.pump {
                _ = p.close(after: nil)
                a.pump = nil
            }
            controller.adapterClosed(a.index, reason: "removed from the configuration", at: now)
        }
        for name in names where !adapters.contains(where: { $0.name == name && !$0.retired }) {
            guard let a = makeAdapter(name, adapters.count) else { continue }
            adapters.append(a)
            a.controller = controller
            controller.addAdapter(name: a.name, backend: a.backend.rawValue)
            controller.adapterClosed(a.index, reason: "not opened yet", at: now)
            a.reopenAt = now
        }
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
