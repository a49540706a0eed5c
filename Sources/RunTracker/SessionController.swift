import HostCore
import Sensors
import Timing
import Wire

/// The run session as a sans-I/O state machine: it scans for one sensor of each role, connects
/// to each as soon as it is seen, subscribes to its measurement, turns notifications into
/// readings, and at the end disconnects everything cleanly and reports a summary.
///
/// It is driven by the host's events and the time, and acts on any `Host` (either backend, a
/// capture replay, a scripted test).
public final class SessionController {
    public struct Configuration: Sendable {
        public var roles: [SensorRole] = SensorRole.allCases
        /// Sensors named on the command line; the address type may be unknown (learned from
        /// the first advertisement of that address).
        public var fixedAddresses: [SensorRole: BDAddress] = [:]
        public var fixedAddressTypes: [SensorRole: LEAddressType] = [:]
        public var scan = ScanConfiguration()
        public var mtu: UInt16? = 247
        public var reconnect = Backoff.linkReconnect
        public var connectTimeout: UInt64 = HostDuration.seconds(10)
        /// How long a clean end waits for Disconnection Complete before giving up.
        public var stopTimeout: UInt64 = HostDuration.seconds(3)

        public init() {}
    }

    struct Slot {
        var role: SensorRole
        var address: DeviceAddress?
        /// Which kind of sensor fills the role; nil until known (a sensor named on the command
        /// line is connected before anything says what it is: the first subscription made wins).
        var profile: SensorProfile?
        var link: LinkID?
        /// The kinds this slot's sensor may be: its profile once known, else all of the role's.
        var candidates: [SensorProfile] { profile.map { [$0] } ?? role.profiles }
        var state: SensorState = .scanning
        var valueHandle: UInt16?
        var everReady = false
        var firstDistance: Double?
        var lastSpeedTime: HostTime?
        var lastSpeed: Double?
    }

    public let configuration: Configuration
    private unowned let host: any Host
    private let cache: GATTCacheStore?
    /// What the session has to say, pulled by its driver after every input (`pollEvent`).
    private var events = PullQueue<SessionEvent>(capacity: 16)
    private var slots: [SensorRole: Slot] = [:]
    private var names: [BDAddress: String] = [:]
    /// Whether the session has asked the host to scan. It is the session's wish, not the
    /// controller's state: the host keeps a wish through refusals and controller resets and
    /// resumes scanning by itself, so `.scanning` events do not change it.
    private var scanning = false
    private var startedAt: HostTime?
    private var stopping = false
    private var stopDeadline: HostTime?
    public private(set) var summary = SessionSummary()
    public private(set) var isFinished = false

    public init(configuration: Configuration, host: any Host, cache: GATTCacheStore?) {
        self.configuration = configuration
        self.host = host
        self.cache = cache
        for r in configuration.roles { slots[r] = Slot(role: r) }
    }

    /// The next event for the view (states, measurements, notices, the summary), in order; the
    /// driver pulls until nil after every call in, as it does with the host.
    public func pollEvent() -> SessionEvent? { events.pop() }

    private func output(_ event: SessionEvent) { events.append(event) }

    /// Begins looking for the sensors; call once the controller is ready.
    public func start(at now: HostTime) {
        startedAt = now
        for role in configuration.roles.sorted() {
            if let a = configuration.fixedAddresses[role], let t = configuration.fixedAddressTypes[role] {
                connect(role, to: DeviceAddress(a, type: t), profile: nil, at: now)
            } else {
                output(.state(role, .scanning, address: nil, name: nil))
            }
        }
        updateScanning(at: now)
    }

    /// Ends the session: stop scanning, disconnect every link, then report the summary.
    public func stop(at now: HostTime) {
        guard !stopping, !isFinished else { return }
        stopping = true
        stopDeadline = now &+ configuration.stopTimeout
        if scanning {
            host.stopScan(at: now)
            scanning = false
        }
        for role in configuration.roles {
            if let link = slots[role]?.link { host.disconnect(link, at: now) }
        }
        finishIfDone(at: now)
    }

    public var nextDeadline: HostTime? { isFinished ? nil : stopDeadline }

    public func advanceTime(to now: HostTime) {
        if let d = stopDeadline, now >= d, !isFinished {
            output(.notice("some links did not confirm their disconnection in time"))
            finish(at: now)
        }
    }

    // MARK: Host events

    public func handle(_ event: HostEvent, at now: HostTime) {
        switch event {
        case .advertisement(let report):
            advertisement(report, at: now)
        case .linkState(let link, let state):
            guard let role = role(of: link) else { return }
            let s = SensorState(state.stage)
            if state == .ready { slots[role]?.everReady = true }
            setState(role, s)
            // The host finishes a link's plan even when a CCCD write fails (it only warns), so
            // without this a sensor would show "ready" and silently never send a reading.
            if state == .ready, let slot = slots[role], slot.valueHandle == nil {
                let wanted = slot.candidates.map(\.measurementCharacteristic.description)
                output(.notice("\(role.rawValue) sensor: the subscription to \(wanted.joined(separator: " or ")) failed; it is connected but sends no measurements"))
            }
        case .connected(let link, _):
            guard let role = role(of: link), let slot = slots[role] else { return }
            if slot.everReady { summary.reconnections[role, default: 0] += 1 }
        case .disconnected(let link, let reason, let willReconnect):
            guard let role = role(of: link) else { return }
            setState(role, .disconnected)
            slots[role]?.valueHandle = nil
            if stopping {
                slots[role]?.link = nil
                finishIfDone(at: now)
            } else if !willReconnect {
                output(.notice("\(role.rawValue) sensor disconnected (\(reason.description)); looking for it again"))
                release(role, at: now)
            }
        case .connectFailed(let link, let error, let willRetry):
            guard let role = role(of: link) else { return }
            if !willRetry && !stopping {
                output(.notice("\(role.rawValue) sensor: \(error.explanation)"))
                release(role, at: now)
            }
        case .subscribed(let link, let characteristic, let valueHandle):
            guard let role = role(of: link), let slot = slots[role],
                  let profile = slot.candidates.first(where: { $0.measurementCharacteristic == characteristic })
            else { return }
            slots[role]?.profile = profile
            slots[role]?.valueHandle = valueHandle
        case .notification(let link, let handle, let value), .indication(let link, let handle, let value):
            guard let role = role(of: link), let slot = slots[role], slot.valueHandle == handle,
                  let address = slot.address else { return }
            measurement(role, value, address: address, at: now)
        case .databaseReady(let link, let db, let fromCache):
            if !fromCache, let role = role(of: link), let peer = slots[role]?.address { cache?.store(db, for: peer) }
        case .databaseChanged(let link):
            if let role = role(of: link), let peer = slots[role]?.address { cache?.remove(for: peer) }
        case .controllerFailed(let error):
            output(.notice("controller: \(error.description)"))
        default:
            break
        }
    }

    // MARK: Internals

    private func role(of link: LinkID) -> SensorRole? {
        for (r, s) in slots where s.link == link { return r }
        return nil
    }

    private func setState(_ role: SensorRole, _ s: SensorState) {
        guard var slot = slots[role], slot.state != s else { return }
        slot.state = s
        slots[role] = slot
        output(.state(role, s, address: slot.address, name: slot.address.flatMap { names[$0.address] }))
    }

    private func advertisement(_ report: AdvertisementReport, at now: HostTime) {
        let ad = AdvertisingData(report.data)
        if let name = ad.localName { names[report.address.address] = name }
        for role in configuration.roles {
            guard let slot = slots[role] else { continue }
            if let a = slot.address, a.address == report.address.address {
                output(.rssi(role, report.rssi))
                continue
            }
            guard slot.address == nil, !stopping, report.connectable, !report.isScanResponse else { continue }
            let profile: SensorProfile?
            if let fixed = configuration.fixedAddresses[role] {
                guard fixed == report.address.address else { continue }
                profile = role.profile(advertisedIn: ad)
            } else {
                guard let p = role.profile(advertisedIn: ad), !isAssigned(report.address.address) else { continue }
                profile = p
            }
            output(.rssi(role, report.rssi))
            connect(role, to: report.address, profile: profile, at: now)
        }
    }

    private func isAssigned(_ a: BDAddress) -> Bool {
        slots.values.contains { $0.address?.address == a }
    }

    /// `profile` nil: the kind of sensor is not known, so the plan subscribes to the
    /// measurement of every kind the role has (those the peer lacks are skipped with a warning).
    private func connect(_ role: SensorRole, to address: DeviceAddress, profile: SensorProfile?, at now: HostTime) {
        slots[role]?.address = address
        slots[role]?.profile = profile
        var plan = LinkPlan()
        plan.mtu = configuration.mtu
        plan.discover = true
        plan.subscriptions = (slots[role]?.candidates ?? []).map {
            Subscription(service: $0.measurementService, characteristic: $0.measurementCharacteristic)
        }
        plan.cachedDatabase = cache?.database(for: address)
        plan.reconnect = configuration.reconnect
        plan.connectTimeout = configuration.connectTimeout
        slots[role]?.link = host.connect(to: address, plan: plan, at: now)
        setState(role, .connecting)
        updateScanning(at: now)
    }

    /// Gives a role up (its sensor is gone for good) and looks for a sensor again.
    private func release(_ role: SensorRole, at now: HostTime) {
        if let link = slots[role]?.link { host.disconnect(link, at: now) }
        slots[role] = Slot(role: role)
        output(.state(role, .scanning, address: nil, name: nil))
        updateScanning(at: now)
    }

    /// Scans exactly while some role still has no sensor.
    private func updateScanning(at now: HostTime) {
        let missing = configuration.roles.contains { slots[$0]?.address == nil }
        if missing, !scanning, !stopping {
            host.startScan(configuration.scan, at: now)
            scanning = true
        } else if !missing, scanning {
            host.stopScan(at: now)
            scanning = false
        }
    }

    /// Decodes a notification of the role's measurement characteristic with the one sensor
    /// decoder (every profile's characteristic is one it knows), adds it to the summary and
    /// reports it. A malformed value is counted and told; an ESS Temperature of 0x8000 (the
    /// sensor has no reading now) is no reading and not malformed.
    private func measurement(_ role: SensorRole, _ value: ArraySlice<UInt8>, address: DeviceAddress, at now: HostTime) {
        let characteristic = (slots[role]?.profile ?? role.profiles[0]).measurementCharacteristic
        guard let decoded = SensorValueDecoder.decode(uuid: characteristic, value: value) else { return }
        switch decoded {
        case .malformed(_, let error):
            summary.malformed += 1
            output(.notice("\(role.rawValue) measurement: \(error)"))
            return
        case .heartRate(let m):
            summary.heartRate.add(Double(m.heartRate))
        case .rsc(let m):
            let mps = m.speedMetersPerSecond
            summary.speed.add(mps)
            if let d = m.totalDistanceMeters {
                if slots[role]?.firstDistance == nil { slots[role]?.firstDistance = d }
                let first = slots[role]?.firstDistance ?? d
                summary.distanceMeters = max(summary.distanceMeters, d - first)
            } else if let t = slots[role]?.lastSpeedTime, let s = slots[role]?.lastSpeed, now > t {
                summary.distanceMeters += s * Double(now - t) / 1e9
            }
            slots[role]?.lastSpeedTime = now
            slots[role]?.lastSpeed = mps
        case .thingyTemperature(let t):
            summary.temperature.add(t.celsius)
        case .temperature(let t):
            guard let celsius = t.celsius else { return }
            summary.temperature.add(celsius)
        default:
            break
        }
        summary.measurements[role, default: 0] += 1
        output(.measurement(role, decoded, address: address, at: now))
    }

    private func finishIfDone(at now: HostTime) {
        guard stopping, !isFinished else { return }
        if configuration.roles.allSatisfy({ slots[$0]?.link == nil }) { finish(at: now) }
    }

    private func finish(at now: HostTime) {
        isFinished = true
        summary.durationSeconds = startedAt.map { Double(now &- $0) / 1e9 } ?? 0
        output(.summary(summary))
    }
}
