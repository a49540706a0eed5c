import HostCore
import MQTT

/// The gateway's policy around its controller, sans I/O like it: which adapter is opened when
/// (`AdapterRoster`), what a reload changes in the adapter list, what the broker's events mean
/// to the controller, and how the broker connection ends (`BrokerStopSequence`). A driver owns
/// the descriptors — it opens adapters when `adaptersToOpen` says, reports what happened, feeds
/// the broker's events and asks `nextDeadline` — and decides nothing itself; the tests drive
/// this with scripted hosts and no clock.
public final class GatewayRuntime {
    public let controller: GatewayController
    public private(set) var roster = AdapterRoster()
    private var brokerStop = BrokerStopSequence()

    /// The configuration's adapters, in its order, being opened by the driver (which says how
    /// that went: `adapterOpened`, `adapterLost`).
    public init(controller: GatewayController, adapters: [(name: String, backend: AdapterBackend)]) {
        self.controller = controller
        for a in adapters { roster.add(name: a.name, backend: a.backend) }
        controller.setAdapters(adapters)
    }

    // MARK: Adapters

    /// Adapters to open now. None while the gateway is stopping: their wait resumes if it does
    /// not stop after all.
    public func adaptersToOpen(at now: HostTime) -> [Int] {
        controller.isShuttingDown ? [] : roster.takeDue(at: now)
    }

    /// An adapter was opened (at start, or again): its host is handed to the controller.
    public func adapterOpened(_ index: Int, host: any Host, at now: HostTime) {
        guard roster.entries.indices.contains(index) else { return }
        if roster.hasFailed(index) { controller.note(.notice, "\(roster.entries[index].name): back") }
        roster.opened(index)
        controller.adapterOpened(index, host: host, at: now)
    }

    /// An adapter could not be opened at start, or was lost (transport ended, controller could
    /// not be brought up): its links move to the other adapters; it is opened again later.
    public func adapterLost(_ index: Int, reason: String, at now: HostTime) {
        guard roster.entries.indices.contains(index) else { return }
        roster.failed(index, at: now)
        controller.adapterClosed(index, reason: reason, at: now)
    }

    /// Opening an adapter again failed: the controller knows it is down already; the next try
    /// waits longer.
    public func reopenFailed(_ index: Int, reason: String, at now: HostTime) {
        guard roster.entries.indices.contains(index) else { return }
        controller.note(.debug, "\(roster.entries[index].name): still gone (\(reason))")
        roster.failed(index, at: now)
    }

    // MARK: Reload

    public struct ReloadOutcome: Sendable, Equatable {
        /// Settings that changed and need a restart.
        public var needsRestart: [String]
        /// Adapters the new configuration no longer names: the driver closes them.
        public var retired: [Int]
        /// Adapters it names for the first time: the driver makes each and `addAdapter`s it.
        public var added: [String]
    }

    /// A new configuration (SIGHUP): the controller takes its devices (unchanged ones keep their
    /// links), removed adapters are retired, new ones are named for the driver to add.
    public func reload(_ new: GatewayConfiguration, at now: HostTime) -> ReloadOutcome {
        let notes = controller.reload(new, at: now)
        let (retire, add) = roster.changes(for: new.adapters)
        for i in retire {
            roster.retire(i)
            controller.adapterClosed(i, reason: "removed from the configuration", at: now)
        }
        return ReloadOutcome(needsRestart: notes, retired: retire, added: add)
    }

    /// An adapter a reload added: opened at once (`adaptersToOpen`). Returns its index.
    @discardableResult
    public func addAdapter(name: String, backend: AdapterBackend, at now: HostTime) -> Int {
        let index = roster.add(name: name, backend: backend, dueAt: now)
        controller.addAdapter(name: name, backend: backend)
        controller.adapterClosed(index, reason: "not opened yet", at: now)
        return index
    }

    // MARK: The broker

    /// One event of the broker client: what it means to the controller, and the log line.
    /// `held` and `limit` are the client's queue figures, for the line of a lost connection.
    public func brokerEvent(_ e: MQTTEvent, broker: @autoclosure () -> String, held: Int, limit: Int, at now: HostTime) {
        switch e {
        case .connected:
            controller.note(.notice, "MQTT: connected to \(broker())")
            controller.mqttConnected(at: now)
        case .connectFailed(let reason, let retryAt), .connectionLost(let reason, let retryAt):
            controller.note(.warning, "MQTT: \(reason); next attempt in \(Self.secondsUntil(retryAt, from: now)) s "
                            + "(\(held) message(s) held, at most \(limit))")
            controller.mqttDisconnected()
        case .dropped(let count):
            controller.mqttDropped(count, at: now)
        case .message(let m):
            controller.mqttMessage(m, at: now)
        case .subscribed(let f):
            controller.note(.debug, "MQTT: subscribed to \(f)")
        case .subscriptionRefused(let f):
            controller.note(.warning, "MQTT: the broker refused the subscription to \(f): commands on it will not arrive; "
                            + "allow this user to read it in the broker's ACL (mosquitto: acl_file)")
        case .rejected(_, let reason):
            controller.note(.error, "MQTT: \(reason)")
        case .stopped:
            controller.note(.info, "MQTT: disconnected")
        case .delivered:
            break
        }
    }

    /// Whether to stop the broker client now (`BrokerStopSequence`): only once the controller
    /// has shut down.
    public func shouldStopBroker(connected: Bool, queued: Int, at now: HostTime) -> Bool {
        controller.isShutDown && brokerStop.shouldStopClient(connected: connected, queued: queued, at: now)
    }

    /// Whether the loop may end: the controller has shut down and the broker client stopped (or
    /// was given its time).
    public func shouldEndLoop(brokerStopped: Bool, at now: HostTime) -> Bool {
        controller.isShutDown && brokerStop.shouldEndLoop(clientStopped: brokerStopped, at: now)
    }

    // MARK: Time

    /// Whole seconds until a retry the broker client announced, rounded up, for the log.
    static func secondsUntil(_ retryAt: HostTime, from now: HostTime) -> UInt64 {
        retryAt > now ? (retryAt - now + 999_999_999) / 1_000_000_000 : 0
    }

    /// The controller's deadline, the next adapter reopening (not while stopping) and the
    /// broker's stop sequence.
    public var nextDeadline: HostTime? {
        var d = EarliestDeadline(controller.nextDeadline)
        if !controller.isShuttingDown { d.consider(roster.nextDeadline) }
        if controller.isShutDown { d.consider(brokerStop.deadline) }
        return d.time
    }
}
