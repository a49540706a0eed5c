import ESPHomeAPI
import HostCore
import Service
import Wire

/// The Home Assistant Bluetooth proxy, sans I/O: what ESPHome's `bluetooth_proxy` component does,
/// over the gateway's adapters. The controller feeds it each API client's Bluetooth requests
/// (`request`), the host events of the links it made, and every advertising report; it acts on
/// the adapters' hosts and says what to send to which client (`takeOutput`).
///
/// Links belong to the client that asked for them (a client that goes away releases its links);
/// the advertisement stream has one subscriber at a time, as ESPHome allows; the slots it offers
/// are what the adapters have left after the gateway's own devices (`ProxySlots`).
final class BluetoothProxy {
    /// What this proxy serves, for device info: each flag only for what works. Pairing only when
    /// the adapters' hosts pair; never connection parameters (the host core has no request for
    /// them).
    static func features(pairing: Bool) -> BluetoothProxyFeatures {
        let served: BluetoothProxyFeatures = [.passiveScan, .activeConnections, .remoteCaching, .cacheClearing,
                                              .rawAdvertisements, .stateAndMode]
        return pairing ? served.union(.pairing) : served
    }

    /// Pair and unpair requests are served (`features(pairing:)`).
    let pairs: Bool

    var links: [UInt64: ProxyLink] = [:]
    private var byLink: [Int: [LinkID: UInt64]] = [:]
    var pending: [Int: [OperationID: ProxyPending]] = [:]
    /// The one client that takes the advertisements.
    private(set) var advertisementSubscriber: Int?
    private var connectionsFreeSubscribers: Set<Int> = []
    private var lastSlots: ProxySlots?
    /// The scan mode the gateway runs with unless a client asks for another.
    let configuredMode: BluetoothScannerMode = .active
    /// The scan mode in use (a client's choice stays until it chooses again).
    private(set) var mode: BluetoothScannerMode = .active
    /// Where each address was heard, and how loud, for placing a link (`ProxyPlacement`;
    /// bounded: cleared when full).
    private var heard: [UInt64: [Int: (rssi: Int8, at: HostTime)]] = [:]
    private static let heardLimit = 4096
    private var batch = ProxyAdvertisementBatch()
    private var output: [(client: Int, message: ServerMessage)] = []
    var log: [(LogLine.Level, String)] = []
    /// A proxy link ended: a slot is free for the gateway's own devices too.
    var slotFreed = false
    /// A proxy link was made or ended: the adapters' published slot counts changed.
    var linksChanged = false
    /// The gateway is stopping (`releaseAll`).
    private(set) var stopping = false

    init(pairs: Bool = false) {
        self.pairs = pairs
    }

    // MARK: Outputs

    /// Messages for the clients, in order; the advertisements gathered meanwhile, and the slots
    /// when they changed, go with them.
    func takeOutput(in env: ProxyEnvironment) -> [(client: Int, message: ServerMessage)] {
        flushAdvertisements()
        let slots = slots(in: env)
        if slots != lastSlots {
            lastSlots = slots
            for c in connectionsFreeSubscribers.sorted() { send(c, connectionsFree(slots)) }
        }
        defer { output.removeAll(keepingCapacity: true) }
        return output
    }

    func send(_ client: Int, _ message: ServerMessage) {
        output.append((client, message))
    }

    func note(_ level: LogLine.Level, _ text: String) {
        log.append((level, "esphome: " + text))
    }

    // MARK: Scanning

    /// Whether the adapters should scan for the proxy: while a client takes advertisements.
    var wantsScan: Bool { advertisementSubscriber != nil }

    func subscribeAdvertisements(client: Int) {
        if let holder = advertisementSubscriber, holder != client {
            // ESPHome: "Only one API subscription is allowed at a time".
            note(.warning, "client \(client) asked for advertisements while client \(holder) takes them; only one client may")
            return
        }
        advertisementSubscriber = client
        send(client, .scannerState(.running, mode: mode, configuredMode: configuredMode))
    }

    func unsubscribeAdvertisements(client: Int) {
        guard advertisementSubscriber == client else { return }
        batch.clear()
        advertisementSubscriber = nil
    }

    func setMode(_ new: BluetoothScannerMode, client: Int) {
        mode = new
        if let s = advertisementSubscriber { send(s, .scannerState(.running, mode: mode, configuredMode: configuredMode)) }
        if advertisementSubscriber != client { send(client, .scannerState(.running, mode: mode, configuredMode: configuredMode)) }
    }

    func advertisement(_ report: AdvertisementReport, adapter: Int, at now: HostTime) {
        let number = ProxyAddress.number(report.address.address)
        if heard[number] == nil, heard.count >= Self.heardLimit { heard.removeAll(keepingCapacity: true) }
        heard[number, default: [:]][adapter] = (report.rssi, now)
        guard let subscriber = advertisementSubscriber, let full = batch.add(report) else { return }
        send(subscriber, .rawAdvertisements(full))
    }

    private func flushAdvertisements() {
        guard let subscriber = advertisementSubscriber, let rest = batch.take() else { return }
        send(subscriber, .rawAdvertisements(rest))
    }

    /// The adapter a new link to `address` goes to (`ProxyPlacement`); nil when none has a slot.
    func placement(for address: UInt64, in env: ProxyEnvironment, at now: HostTime) -> Int? {
        let slots = slotAdapters(in: env)
        let sightings = heard[address] ?? [:]
        return ProxyPlacement.choose(slots.indices.compactMap { i in
            guard env.host(i) != nil else { return nil }
            let recent = sightings[i].flatMap { now &- $0.at <= PlacementPolicy.recent ? $0.rssi : nil }
            return ProxyPlacement.Candidate(adapter: i, free: slots[i].free, rssi: recent)
        })
    }

    // MARK: Slots

    func subscribeConnectionsFree(client: Int, in env: ProxyEnvironment) {
        connectionsFreeSubscribers.insert(client)
        send(client, connectionsFree(slots(in: env)))
    }

    func slots(in env: ProxyEnvironment) -> ProxySlots {
        ProxySlots(adapters: slotAdapters(in: env), allocated: links.keys.sorted())
    }

    func slotAdapters(in env: ProxyEnvironment) -> [ProxySlots.Adapter] {
        env.adapters.map { a in
            ProxySlots.Adapter(up: a.isUp, learnedLimit: a.slotLimit, gatewayLinks: env.gatewayLinks(a.index),
                               proxyLinks: byLink[a.index]?.count ?? 0)
        }
    }

    private func connectionsFree(_ slots: ProxySlots) -> ServerMessage {
        .connectionsFree(free: UInt32(slots.free), limit: UInt32(slots.limit), allocated: slots.allocated)
    }

    /// Proxy links on an adapter (they take its slots like the gateway's own).
    func linkCount(on adapter: Int) -> Int { byLink[adapter]?.count ?? 0 }

    // MARK: The link table

    func add(_ l: ProxyLink) {
        links[l.address] = l
        byLink[l.adapter, default: [:]][l.link] = l.address
        linksChanged = true
    }

    func address(of link: LinkID, on adapter: Int) -> UInt64? { byLink[adapter]?[link] }

    /// Forgets a link (the host has ended it, or is ending it for a client that left).
    func remove(_ address: UInt64) {
        guard let l = links.removeValue(forKey: address) else { return }
        byLink[l.adapter]?[l.link] = nil
        slotFreed = true
        linksChanged = true
    }

    // MARK: Clients

    /// A client went away: its links are ended, its subscriptions dropped.
    func clientClosed(_ client: Int, in env: ProxyEnvironment, at now: HostTime) {
        for l in links.values.filter({ $0.client == client && !$0.orphaned }).sorted(by: { $0.address < $1.address }) {
            note(.info, "\(ProxyAddress.address(l.address)): released, its client left")
            release(l.address, in: env, at: now)
        }
        for (adapter, ops) in pending {
            for (op, p) in ops where p.client == client { pending[adapter]?[op] = nil }
        }
        unsubscribeAdvertisements(client: client)
        connectionsFreeSubscribers.remove(client)
        output.removeAll { $0.client == client }
    }

    /// Ends a link nobody waits for any more: kept (orphaned) until the host reports it gone.
    func release(_ address: UInt64, in env: ProxyEnvironment, at now: HostTime) {
        guard var l = links[address] else { return }
        guard let host = env.host(l.adapter) else { return remove(address) }
        l.orphaned = true
        l.disconnecting = true
        l.notifying.removeAll()
        links[address] = l
        host.disconnect(l.link, at: now)
    }

    /// The gateway is stopping: every proxy link is ended, and no new one is made.
    func releaseAll(in env: ProxyEnvironment, at now: HostTime) {
        stopping = true
        for l in links.values.sorted(by: { $0.address < $1.address }) {
            env.host(l.adapter)?.disconnect(l.link, at: now)
            remove(l.address)
        }
        pending.removeAll()
    }

    /// An adapter was lost: the links on it are gone; their clients are told.
    func adapterClosed(_ adapter: Int) {
        pending[adapter] = nil
        // What it heard is gone with it: opened again, it must hear a device anew.
        for address in heard.keys { heard[address]?[adapter] = nil }
        guard let lost = byLink[adapter] else { return }
        for address in lost.values.sorted() {
            guard let l = links[address] else { continue }
            if !l.orphaned { send(l.client, .connection(address: address, connected: false, mtu: 0, error: ProxyErrorCode.localHost)) }
            remove(address)
        }
        byLink[adapter] = nil
    }
}

extension ProxyPending {
    var client: Int {
        switch self {
        case let .read(client, _, _), let .write(client, _, _), let .services(client, _, _): return client
        }
    }
}
