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
    /// The Home Assistant Bluetooth proxy, when the gateway serves ESPHome's API.
    var proxy: BluetoothProxy?

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
        if options.servesProxy { proxy = BluetoothProxy(pairs: options.proxyPairs) }
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

    // MARK: Status

    /// For logs and `systemctl status`: "3 of 4 devices connected, 2 of 2 adapters up" (and
    /// ", 1 Bluetooth proxy link" when the gateway is a proxy).
    public var statusLine: String { statusCounts.text }

    /// What `statusLine` says, counted without building it: a driver compares these after every
    /// loop turn and builds the text only when they changed.
    public var statusCounts: GatewayStatusCounts {
        var c = GatewayStatusCounts()
        for d in devices where d.entry >= 0 && d.placement != .passive {
            c.devices += 1
            if d.isUp { c.devicesUp += 1 }
        }
        for a in adapters {
            c.adapters += 1
            if a.isUp { c.adaptersUp += 1 }
        }
        c.proxyLinks = proxy?.links.count
        return c
    }

    /// Links on every adapter (queued, connecting or connected).
    public var linkCount: Int { linkOwners.count }

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
        linkOwners.placed(on: adapter) + (proxy?.linkCount(on: adapter) ?? 0)
    }
}
