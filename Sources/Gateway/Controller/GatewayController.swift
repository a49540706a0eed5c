import HostCore
import MQTT
import RunTracker
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
/// the time, the broker's events and messages, control requests. Outputs are pulled:
/// `takeMessages` (MQTT), `takeControlOutput` (lines for control clients), `takeLog`. It reads
/// no clock but the wall clock it is given for the payloads' times, and does no I/O, so the
/// tests drive it with scripted hosts in microseconds.
public final class GatewayController {
    public struct Options {
        public var gatewayID: String
        public var version: String
        /// BTHome's AES-CCM (Nettle); nil: encrypted BTHome is reported, not decrypted.
        public var cipher: (any BTHomeCipher)?
        /// Where databases of earlier connections are kept; nil: in memory only.
        public var cache: GATTCacheStore?
        /// Seconds since 1970, for the payloads' times.
        public var wallClock: () -> Double
        /// How long placement waits, after one adapter heard a device, for the others to hear it.
        public var placementWindow: HostTime = HostDuration.milliseconds(500)
        /// How long a clean shutdown waits for the links to close.
        public var shutdownTimeout: HostTime = HostDuration.seconds(3)
        /// An unchanged passive value is published again after this long.
        public var passiveRepeat: HostTime = HostDuration.seconds(60)

        public init(gatewayID: String, version: String, cipher: (any BTHomeCipher)? = nil, cache: GATTCacheStore? = nil,
                    wallClock: @escaping () -> Double) {
            self.gatewayID = gatewayID
            self.version = version
            self.cipher = cipher
            self.cache = cache
            self.wallClock = wallClock
        }
    }

    public internal(set) var configuration: GatewayConfiguration
    let options: Options
    let topics: GatewayTopics
    var discovery: HomeAssistantDiscovery
    var entries: [DeviceEntry]
    var adapters: [GatewayAdapter] = []
    /// Every device, in the order found (deterministic iteration).
    var devices: [GatewayDevice] = []
    var devicesByID: [String: GatewayDevice] = [:]
    var devicesByAddress: [BDAddress: GatewayDevice] = [:]
    /// Per adapter: its links → devices.
    var linkOwners: [Int: [LinkID: GatewayDevice]] = [:]
    /// Advertised names per address (names often come in the scan response only).
    var names: [BDAddress: String] = [:]
    /// Operations in flight per adapter, and whom to answer.
    var pending: [Int: [OperationID: PendingOperation]] = [:]
    /// Control clients' subscriptions: device id → value handle → clients.
    var controlSubscriptions: [String: [UInt16: Set<Int>]] = [:]

    var messages: [MQTTMessage] = []
    var controlOutput: [(client: Int, line: String)] = []
    var log: [(LogLine.Level, String)] = []

    var startedAt: HostTime?
    var nextStatusAt: HostTime?
    var droppedToReport: Int?
    var mqttConnected = false
    /// The broker client's counters, for the gateway status (the driver keeps it current).
    public var mqttStatistics = MQTTStatistics()
    var shutdownDeadline: HostTime?
    public private(set) var isShuttingDown = false
    /// Shutdown is done: every link closed (or the wait ran out) and the last states published.
    public private(set) var isShutDown = false

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
    public func setAdapters(_ list: [(name: String, backend: String)]) {
        adapters = list.enumerated().map { GatewayAdapter(index: $0.offset, name: $0.element.name, backend: $0.element.backend) }
    }

    /// An adapter added later (a reload), at the end of the list; it is down until opened.
    public func addAdapter(name: String, backend: String) {
        adapters.append(GatewayAdapter(index: adapters.count, name: name, backend: backend))
    }

    /// For logs and `systemctl status`: "3 of 4 devices connected, 2 of 2 adapters up".
    public var statusLine: String {
        let wanted = devices.filter { $0.entry >= 0 && $0.placement != .passive }
        return "\(wanted.filter(\.isUp).count) of \(wanted.count) devices connected, "
            + "\(adapters.filter(\.isUp).count) of \(adapters.count) adapters up"
    }

    /// Links on every adapter (queued, connecting or connected).
    public var linkCount: Int { linkOwners.values.reduce(0) { $0 + $1.count } }

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
        linkOwners[index] = nil
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
            if host.hasFailed {
                note(.error, "\(a.name): the controller failed: \(error.explanation)")
                a.phase = .down(error.description)
                publishAdapterStatus(a, at: now)
            } else {
                note(.warning, "\(a.name): \(error.description); resetting it")
            }
        case .advertisement(let report):
            advertisement(report, adapter: a, at: now)
        case .linkState(let link, let state):
            guard let d = linkOwners[index]?[link] else { return }
            linkStateChanged(d, state, adapter: a, at: now)
        case .connectFailed(let link, let error, let willRetry):
            guard let d = linkOwners[index]?[link] else { return }
            connectFailed(d, link: link, error: error, willRetry: willRetry, adapter: a, at: now)
        case .disconnected(let link, let reason, let willReconnect):
            guard let d = linkOwners[index]?[link] else { return }
            disconnected(d, link: link, reason: reason, willReconnect: willReconnect, adapter: a, at: now)
        case .databaseReady(let link, let db, let fromCache):
            guard let d = linkOwners[index]?[link] else { return }
            databaseReady(d, db, fromCache: fromCache, link: link, host: host, at: now)
        case .databaseChanged(let link):
            if let d = linkOwners[index]?[link], let address = d.address { options.cache?.remove(for: address) }
        case .subscribed(let link, let characteristic, let valueHandle):
            linkOwners[index]?[link]?.remember(characteristic, valueHandle: valueHandle)
        case .notification(let link, let handle, let value), .indication(let link, let handle, let value):
            guard let d = linkOwners[index]?[link] else { return }
            notification(d, handle: handle, value: value, at: now)
        case .operationCompleted(let op, let result):
            guard let p = pending[index]?.removeValue(forKey: op) else { return }
            operationCompleted(p, result, at: now)
        case .warning(let w):
            note(.debug, "\(a.name): \(w.description)")
        case .security(let link, let event):
            // The gateway configures no pairing; what a peer's Security Request or an ATT
            // security error starts is reported (never the keys), and a prompt goes unanswered.
            let who = linkOwners[index]?[link]?.id ?? a.name
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
        var d: HostTime? = nextStatusAt
        func consider(_ t: HostTime?) { if let t { d = min(d ?? t, t) } }
        for dev in devices where dev.needsPlacement { consider(dev.heardSince.map { $0 &+ options.placementWindow }) }
        if !isShutDown { consider(shutdownDeadline) }
        return d
    }

    public func advanceTime(to now: HostTime) {
        if let s = nextStatusAt, now >= s {
            publishGatewayStatus(at: now)
            nextStatusAt = now &+ HostTime(configuration.statusInterval * 1e9)
        }
        for d in devices where d.needsPlacement {
            if let since = d.heardSince, now >= since &+ options.placementWindow { place(d, at: now) }
        }
        if let s = shutdownDeadline, now >= s, !isShutDown {
            note(.warning, "some links did not confirm their disconnection within \(Double(options.shutdownTimeout) / 1e9) s")
            finishShutdown(at: now)
        }
    }

    // MARK: Shutdown

    /// Ends cleanly: scanning stops, every link is disconnected; once they are down (or the wait
    /// runs out) their states are published and `isShutDown` is set — then stop the MQTT client
    /// (which publishes the gateway offline).
    public func beginShutdown(at now: HostTime) {
        guard !isShuttingDown else { return }
        isShuttingDown = true
        shutdownDeadline = now &+ options.shutdownTimeout
        for d in devices {
            d.retiring = true
            if d.placement != .passive { d.reason = "the gateway stopped" }
        }
        for a in adapters where a.scanning {
            a.host?.stopScan(at: now)
            a.scanning = false
        }
        for d in devices {
            if let a = d.adapter, let link = d.link { adapters[a].host?.disconnect(link, at: now) }
        }
        finishShutdownIfDone(at: now)
    }

    func finishShutdownIfDone(at now: HostTime) {
        guard isShuttingDown, !isShutDown else { return }
        if devices.allSatisfy({ $0.adapter == nil }) { finishShutdown(at: now) }
    }

    private func finishShutdown(at now: HostTime) {
        isShutDown = true
        for d in devices where d.placement != .passive {
            d.placement = .unplaced
            d.linkState = .disconnected
            d.reason = "the gateway stopped"
            publishState(d, at: now)
        }
        publishGatewayStatus(at: now)
    }

    // MARK: Helpers

    func note(_ level: LogLine.Level, _ message: String) {
        log.append((level, message))
    }

    func wallTime() -> Double { options.wallClock() }

    /// Links placed on an adapter (queued, connecting, connected).
    func linksPlaced(on adapter: Int) -> Int {
        linkOwners[adapter]?.count ?? 0
    }

    /// Links of an adapter whose connection is up.
    func linksUp(on adapter: Int) -> Int {
        linkOwners[adapter]?.values.reduce(0) { $0 + ($1.isUp ? 1 : 0) } ?? 0
    }
}

/// Whom a GATT operation in flight answers.
enum PendingOperation {
    /// A command from MQTT: the reply goes to `<device>/reply`.
    case mqtt(GatewayCommand, device: String, characteristic: BluetoothUUID?)
    /// A control client's request.
    case control(client: Int, request: ControlRequest, device: String, characteristic: BluetoothUUID?)
    /// A read the configuration asks for after each connection (published as measurements).
    case configuredRead(device: String, characteristic: BluetoothUUID)
    /// A registration the gateway made for itself or a control client.
    case subscription(device: String, characteristic: BluetoothUUID)
}
