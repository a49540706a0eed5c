import HostCore
import MQTT
import Sensors
import Service
import Wire

/// The gateway as a sans-I/O state machine over any number of adapters: it finds the configured
/// devices in the advertisements of every adapter, places each on an adapter with a free
/// connection slot (the one that hears it best), follows its link, decodes what it sends and
/// what other devices advertise, and says what to publish — measurements, link states, adapter
/// and gateway status, Home Assistant discovery. It answers commands (MQTT topics, the local
/// control socket) with GATT operations on the device's link.
///
/// Inputs: the adapters' hosts and their events (`adapterOpened`, `hostEvent`, `adapterClosed`),
/// the time, the broker's events and messages, control requests; `GatewayRuntime` feeds it and
/// decides what happens around it (adapters reopened, the broker's end). Outputs are pulled:
/// `takeMessages` (MQTT), `takeControlOutput` (lines for control clients), `takeLog`. It reads
/// no clock but the wall clock it is given for the payloads' times, and does no I/O, so the
/// tests drive it with scripted hosts in microseconds.
public final class GatewayController {
    public internal(set) var configuration: GatewayConfiguration
    let options: Options
    let topics: GatewayTopics
    var discovery: HomeAssistantDiscovery
    var entries: [DeviceEntry]
    var adapters: [GatewayAdapter] = []
    var directory = DeviceDirectory()
    var linkOwners = LinkOwners()
    var pending = PendingOperations()
    var controlSubscriptions = ControlSubscriptions()

    var messages: [MQTTMessage] = []
    var controlOutput: [(client: Int, line: String)] = []
    var log: [(LogLine.Level, String)] = []

    var startedAt: HostTime?
    var nextStatusAt: HostTime?
    var broker = BrokerStatus()
    /// The broker client's counters, for the gateway status (the driver keeps them current).
    public var mqttStatistics: MQTTStatistics {
        get { broker.statistics }
        set { broker.statistics = newValue }
    }
    var shutdown = ShutdownProgress()
    /// `beginShutdown` was called.
    public var isShuttingDown: Bool { shutdown.isRequested }
    /// Shutdown is done: every link closed (or the wait ran out) and the last states published.
    public var isShutDown: Bool { shutdown.isDone }

    public init(configuration: GatewayConfiguration, options: Options) {
        self.configuration = configuration
        self.options = options
        topics = GatewayTopics(prefix: configuration.mqtt.topicPrefix, gatewayID: options.gatewayID)
        discovery = HomeAssistantDiscovery(prefix: configuration.mqtt.discoveryPrefix, topics: topics,
                                           softwareVersion: options.version)
        entries = DeviceEntry.entries(of: configuration)
        for (i, e) in entries.enumerated() { addFixedDevice(of: e, entry: i) }
    }

    // MARK: Pulled outputs

    /// Messages to publish, in order.
    public func takeMessages() -> [MQTTMessage] {
        defer { messages.removeAll(keepingCapacity: true) }
        return messages
    }

    public var hasMessages: Bool { !messages.isEmpty }

    /// Lines for control clients (without the line break), in order.
    public func takeControlOutput() -> [(client: Int, line: String)] {
        defer { controlOutput.removeAll(keepingCapacity: true) }
        return controlOutput
    }

    public func takeLog() -> [(LogLine.Level, String)] {
        defer { log.removeAll() }
        return log
    }

    /// What the broker should send the gateway: command topics, Home Assistant's status.
    public var subscriptionFilters: [String] {
        topics.commandFilters + (configuration.mqtt.discovery ? [configuration.mqtt.discoveryPrefix + "/status"] : [])
    }

    public var availabilityTopic: String { topics.availability }

    // MARK: Adapters

    /// Declares the adapters, in the configuration's order (before any is opened).
    public func setAdapters(_ list: [(name: String, backend: AdapterBackend)]) {
        adapters = list.enumerated().map { GatewayAdapter(index: $0.offset, name: $0.element.name, backend: $0.element.backend) }
    }

    /// An adapter added later (a reload), at the end of the list; it is down until opened.
    public func addAdapter(name: String, backend: AdapterBackend) {
        adapters.append(GatewayAdapter(index: adapters.count, name: name, backend: backend))
    }

    /// For logs and `systemctl status`: "3 of 4 devices connected, 2 of 2 adapters up".
    public var statusLine: String {
        let wanted = devices.filter { $0.entry >= 0 && $0.placement != .passive }
        return "\(wanted.filter(\.isUp).count) of \(wanted.count) devices connected, "
            + "\(adapters.filter(\.isUp).count) of \(adapters.count) adapters up"
    }

    /// Links on every adapter (queued, connecting or connected).
    public var linkCount: Int { linkOwners.count }

    /// An adapter was opened: its host is starting (`.controllerReady` follows).
    public func adapterOpened(_ index: Int, host: any Host, at now: HostTime) {
        guard adapters.indices.contains(index) else { return }
        if startedAt == nil { start(at: now) }
        let a = adapters[index]
        a.reset()
        a.host = host
        a.phase = .starting
        publishAdapterStatus(a, at: now)
    }

    /// An adapter could not be opened, or was lost: its links are gone. Devices on it are placed
    /// on the other adapters.
    public func adapterClosed(_ index: Int, reason: String, at now: HostTime) {
        guard adapters.indices.contains(index) else { return }
        if startedAt == nil { start(at: now) }
        let a = adapters[index]
        let wasOpen = a.host != nil
        a.reset()
        a.phase = .down(reason)
        failPending(adapter: index, reason: "\(a.name) was lost: \(reason)", at: now)
        var moved: [GatewayDevice] = []
        for d in devices where d.adapter == index {
            d.placement = .unplaced
            d.linkState = nil
            d.reason = "\(a.name) lost: \(reason)"
            moved.append(d)
        }
        linkOwners.removeAll(on: index)
        if wasOpen { note(.warning, "\(a.name): \(reason)" + (moved.isEmpty ? "" : "; moving \(moved.count) link(s) to the other adapters")) }
        publishAdapterStatus(a, at: now)
        for d in moved {
            publishState(d, at: now)
            place(d, at: now)
        }
        updateScanning(at: now)
    }

    private func start(at now: HostTime) {
        startedAt = now
        nextStatusAt = now
        for d in devices { publishState(d, at: now) }
    }

    // MARK: Host events

    public func hostEvent(_ event: HostEvent, adapter index: Int, at now: HostTime) {
        guard adapters.indices.contains(index), let host = adapters[index].host else { return }
        let a = adapters[index]
        switch event {
        case .controllerReady(let info):
            controllerReady(a, info: info, at: now)
        case .controllerFailed(let error):
            // A host that has failed is closed by the driver and opened again later; one that
            // has not is resetting its controller (before or after it was first ready).
            if host.hasFailed {
                note(.error, "\(a.name): the controller failed: \(error.description)")
                a.phase = .down(error.description)
                publishAdapterStatus(a, at: now)
            } else {
                note(.warning, "\(a.name): \(error.description); resetting it")
            }
        case .advertisement(let report):
            advertisement(report, adapter: a, at: now)
        case .linkState(let link, let state):
            guard let d = linkOwners[index, link] else { return }
            linkStateChanged(d, state, adapter: a, at: now)
        case .connectFailed(let link, let error, let willRetry):
            guard let d = linkOwners[index, link] else { return }
            connectFailed(d, link: link, error: error, willRetry: willRetry, adapter: a, at: now)
        case .disconnected(let link, let reason, let willReconnect):
            guard let d = linkOwners[index, link] else { return }
            disconnected(d, link: link, reason: reason, willReconnect: willReconnect, adapter: a, at: now)
        case .databaseReady(let link, let db, let fromCache):
            guard let d = linkOwners[index, link] else { return }
            databaseReady(d, db, fromCache: fromCache, link: link, host: host, at: now)
        case .databaseChanged(let link):
            if let d = linkOwners[index, link], let address = d.address { options.cache?.remove(for: address) }
        case .subscribed(let link, let characteristic, let valueHandle):
            linkOwners[index, link]?.remember(characteristic, valueHandle: valueHandle)
        case .notification(let link, let handle, let value), .indication(let link, let handle, let value):
            guard let d = linkOwners[index, link] else { return }
            notification(d, handle: handle, value: value, at: now)
        case .operationCompleted(let op, let result):
            guard let p = pending.complete(op, on: index) else { return }
            operationCompleted(p, result, at: now)
        case .warning(let w):
            note(.debug, "\(a.name): \(w.description)")
        case .security(let link, let event):
            // The gateway configures no pairing; what a peer's Security Request or an ATT
            // security error starts is reported (never the keys), and a prompt goes unanswered.
            let who = linkOwners[index, link]?.id ?? a.name
            switch event {
            case .failed(let failure): note(.warning, "\(who): security: \(failure.explanation)")
            case .prompt: note(.warning, "\(who): pairing wants user input; the gateway does not pair interactively")
            case .encrypted(_, let keySize, let withBond): note(.info, "\(who): link encrypted (\(keySize)-octet key\(withBond ? ", bonded" : ""))")
            case .pairingStarted, .paired, .bondStored, .bondRemoved: break
            }
        case .connected, .mtuChanged, .scanning:
            break
        }
        if isShuttingDown { finishShutdownIfDone(at: now) }
    }

    private func controllerReady(_ a: GatewayAdapter, info: ControllerInfo, at now: HostTime) {
        a.phase = .up
        a.info = info
        if let limit = info.centralLinkLimit {
            a.slotLimit = limit
            a.slotReason = "LE Supported States: no initiating while central"
        }
        note(.info, "\(a.name): controller ready (\(info.ownAddress))")
        publishAdapterStatus(a, at: now)
        a.scanning = false
        updateScanning(at: now)
        for d in devices where d.needsPlacement && d.address != nil && d.heardSince == nil {
            place(d, at: now)
        }
    }

    // MARK: Time

    public var nextDeadline: HostTime? {
        var d = EarliestDeadline(nextStatusAt)
        for dev in devices where dev.needsPlacement { d.consider(dev.heardSince.map { $0 &+ options.placementWindow }) }
        d.consider(shutdown.pendingDeadline)
        return d.time
    }

    public func advanceTime(to now: HostTime) {
        if let s = nextStatusAt, now >= s {
            publishGatewayStatus(at: now)
            nextStatusAt = now &+ configuration.statusInterval
        }
        for d in devices where d.needsPlacement {
            if let since = d.heardSince, now >= since &+ options.placementWindow { place(d, at: now) }
        }
        if shutdown.isOverdue(at: now) {
            note(.warning, "some links did not confirm their disconnection within \(Double(options.shutdownTimeout) / 1e9) s")
            finishShutdown(at: now)
        }
    }

    // MARK: Helpers

    /// Every device, in the order found.
    var devices: [GatewayDevice] { directory.all }

    func note(_ level: LogLine.Level, _ message: String) {
        log.append((level, message))
    }

    func wallTime() -> Double { options.wallClock() }

    /// Links placed on an adapter (queued, connecting, connected).
    func linksPlaced(on adapter: Int) -> Int {
        linkOwners.placed(on: adapter)
    }
}
