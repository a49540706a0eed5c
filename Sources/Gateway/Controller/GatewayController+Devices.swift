import HostCore
import Sensors
import Wire

extension GatewayController {
    // MARK: Finding devices

    /// An address entry names its device before it is heard.
    func addFixedDevice(of entry: DeviceEntry, entry index: Int) {
        guard let (address, type) = entry.fixedAddress else { return }
        let id = entry.deviceID(address: address)
        guard directory[id: id] == nil else { return }
        let d = GatewayDevice(id: id, entry: index, address: type.map { DeviceAddress(address, type: $0) }, fixedAddress: address)
        d.placement = entry.connects ? .unplaced : .passive
        add(d)
    }

    func add(_ d: GatewayDevice) {
        directory.add(d)
    }

    func advertisement(_ report: AdvertisementReport, adapter a: GatewayAdapter, at now: HostTime) {
        let address = report.address.address
        let data = AdvertisingData(report.data)
        let name = directory.name(of: address, heard: data.localName)
        var device = directory[address: address]
        if device == nil, !isShuttingDown {
            device = newDevice(for: report, data: data, name: name, at: now)
        }
        if let d = device {
            d.sightings[a.index] = (report.rssi, now)
            if d.advertisedName == nil, let name { d.advertisedName = name }
            if d.address == nil, d.fixedAddress == address { d.address = report.address }
            if d.placement == .passive || !entries[d.entry].connects {
                passive(d, data: data, address: address, at: now)
            } else if d.needsPlacement, report.connectable, !report.isScanResponse, d.address != nil {
                if d.heardSince == nil { d.heardSince = now }
                // Every adapter that is up has heard it: no reason to wait.
                let up = adapters.filter(\.isUp).map(\.index)
                if up.allSatisfy({ d.sightings[$0].map { now &- $0.at < options.placementWindow * 4 } ?? false }) {
                    place(d, at: now)
                }
            }
        }
        if device == nil || device?.placement != .passive, configuration.passive != GatewayConfiguration.PassiveFormats() {
            passiveFormats(report: report, data: data, name: name, at: now)
        }
    }

    /// A device of an entry that takes devices by service, name or role, when this advertiser
    /// matches one with room left.
    private func newDevice(for report: AdvertisementReport, data: AdvertisingData, name: String?, at now: HostTime) -> GatewayDevice? {
        guard report.connectable || !report.isScanResponse else { return nil }
        for (i, e) in entries.enumerated() where e.fixedAddress == nil {
            let (matches, profile) = e.matches(address: report.address.address, type: report.address.type, name: name, data: data)
            guard matches else { continue }
            guard directory.count(ofEntry: i) < e.maxDevices else { continue }
            if e.connects && !report.connectable { continue }
            var id = e.deviceID(address: report.address.address)
            if directory[id: id] != nil { id = TopicLevel.fromAddress(report.address.address.string) }
            guard directory[id: id] == nil else { continue }
            let d = GatewayDevice(id: id, entry: i, address: report.address, fixedAddress: nil)
            d.profile = profile
            d.advertisedName = name
            d.placement = e.connects ? .unplaced : .passive
            add(d)
            note(.info, "found \(id): \(report.address)" + (name.map { " \"\($0)\"" } ?? ""))
            publishState(d, at: now)
            updateScanning(at: now)
            return d
        }
        return nil
    }

    // MARK: Placing links on adapters

    /// Puts the device's link on the best adapter (`PlacementPolicy`), or marks it waiting for
    /// a slot when none has one.
    func place(_ d: GatewayDevice, at now: HostTime) {
        guard d.needsPlacement, let address = d.address, entries.indices.contains(d.entry) else { return }
        let candidates = adapters.map { a in
            PlacementPolicy.Candidate(
                adapter: a.index, up: a.isUp, used: linksPlaced(on: a.index), limit: a.slotLimit,
                rssi: d.sightings[a.index].flatMap { now &- $0.at <= PlacementPolicy.recent ? $0.rssi : nil })
        }
        d.heardSince = nil
        guard let index = PlacementPolicy.choose(candidates, excluding: d.refusedBy)
                ?? (d.refusedBy.isEmpty ? nil : PlacementPolicy.choose(candidates)),
              let host = adapters[index].host else {
            if d.placement != .waitingForSlot {
                d.placement = .waitingForSlot
                let full = adapters.filter { $0.isUp && $0.slotLimit != nil }
                d.reason = adapters.contains(where: \.isUp)
                    ? "no adapter has a free connection slot (" + full.map { "\($0.name): \(linksPlaced(on: $0.index)) of \($0.slotLimit ?? 0)" }.joined(separator: ", ") + ")"
                    : "no adapter is up"
                note(.warning, "\(d.id): \(d.reason ?? "")")
                publishState(d, at: now)
            }
            return
        }
        d.refusedBy.removeAll()
        let entry = entries[d.entry]
        var plan = LinkPlan()
        plan.subscriptions = entry.subscriptions(profile: d.profile)
        plan.cachedDatabase = options.cache?.database(for: address)
        plan.reconnect = .linkReconnect
        let link = host.connect(to: address, plan: plan, at: now)
        d.placement = .linked(adapter: index, link: link)
        d.linkState = host.state(of: link)
        linkOwners[index, link] = d
        note(.info, "\(d.id): placed on \(adapters[index].name)")
        publishState(d, at: now)
        publishAdapterStatus(adapters[index], at: now)
        updateScanning(at: now)
    }

    /// Takes a device's link off its adapter (the link is ended there); the device needs an
    /// adapter again.
    func unplace(_ d: GatewayDevice, at now: HostTime) {
        guard let index = d.adapter, let link = d.link else { return }
        linkOwners[index, link] = nil
        adapters[index].host?.disconnect(link, at: now)
        d.placement = .unplaced
        d.linkState = nil
        d.registered.removeAll()
        d.controlRegistered.removeAll()
        publishAdapterStatus(adapters[index], at: now)
    }

    /// Places the devices waiting for a slot, now that one may be free.
    func placeWaiting(at now: HostTime) {
        for d in devices where d.placement == .waitingForSlot { place(d, at: now) }
    }

    /// Scans on every adapter that is up while a device is missing (an entry with room, a
    /// device without an adapter) or advertisements are published; not while shutting down.
    func updateScanning(at now: HostTime) {
        let wanted = !isShuttingDown && (wantsScan || proxy?.wantsScan == true)
        // Active unless only the proxy wants the scan and its client chose passive.
        var scan = ScanConfiguration()
        if let proxy, proxy.wantsScan, !wantsScan { scan.active = proxy.mode == .active }
        for a in adapters where a.isUp {
            if wanted && (!a.scanning || a.scanActive != scan.active) {
                a.host?.startScan(scan, at: now)
                a.scanning = true
                a.scanActive = scan.active
            } else if !wanted && a.scanning {
                a.host?.stopScan(at: now)
                a.scanning = false
            }
        }
    }

    private var wantsScan: Bool {
        if configuration.passive != GatewayConfiguration.PassiveFormats() { return true }
        for (i, e) in entries.enumerated() {
            if !e.connects { return true }
            if e.fixedAddress == nil && directory.count(ofEntry: i) < e.maxDevices { return true }
        }
        return devices.contains { $0.needsPlacement }
    }

    // MARK: Link events

    func linkStateChanged(_ d: GatewayDevice, _ state: LinkState, adapter a: GatewayAdapter, at now: HostTime) {
        let wasUp = d.isUp
        d.linkState = state
        if state == .ready { d.reason = nil }
        publishState(d, at: now)
        if wasUp != d.isUp { publishAdapterStatus(a, at: now) }
    }

    func connectFailed(_ d: GatewayDevice, link: LinkID, error: HostError, willRetry: Bool, adapter a: GatewayAdapter, at now: HostTime) {
        if error.isConnectionLimit {
            // The controller is full: it holds as many links as are up now. Learned, reported,
            // and the device goes to another adapter.
            let up = linkOwners.up(on: a.index)
            a.slotLimit = up
            a.slotReason = error.description
            d.reason = "\(a.name): \(error.description); \(up) link(s) is its limit"
            note(.warning, "\(d.id): \(d.reason ?? "")")
            d.refusedBy.insert(a.index)
            unplace(d, at: now)
            publishState(d, at: now)
            place(d, at: now)
            return
        }
        d.reason = error.description
        if !willRetry {
            // The host gave the link up: free the slot and look for the device again.
            linkOwners[a.index, link] = nil
            d.placement = .unplaced
            d.linkState = .disconnected
            publishState(d, at: now)
            publishAdapterStatus(a, at: now)
            placeWaiting(at: now)
            updateScanning(at: now)
        }
    }

    func disconnected(_ d: GatewayDevice, link: LinkID, reason: HCIStatus, willReconnect: Bool, adapter a: GatewayAdapter, at now: HostTime) {
        d.registered.removeAll()
        d.controlRegistered.removeAll()
        d.characteristics.removeAll()
        if !d.retiring { d.reason = reason.description }
        guard !willReconnect else { return }
        linkOwners[a.index, link] = nil
        d.placement = .unplaced
        d.linkState = .disconnected
        publishState(d, at: now)
        publishAdapterStatus(a, at: now)
        if !d.retiring {
            placeWaiting(at: now)
            updateScanning(at: now)
        }
    }

    func databaseReady(_ d: GatewayDevice, _ db: GATTDatabase, fromCache: Bool, link: LinkID, host: any Host, at now: HostTime) {
        d.database = db
        if !fromCache, let address = d.address { options.cache?.store(db, for: address) }
        let entry = entries[d.entry]
        if entry.subscribesToAll {
            for s in db.services {
                for c in s.characteristics where (c.canNotify || c.canIndicate) && SensorValueDecoder.canDecode(c.uuid) {
                    register(d, c, host: host, link: link, forControl: false, at: now)
                }
            }
        }
        for handle in controlSubscriptions.handles(of: d.id) {
            if let c = db.characteristic(valueHandle: handle) { register(d, c, host: host, link: link, forControl: true, at: now) }
        }
        for uuid in entry.reads {
            guard let c = db.characteristic(uuid) else {
                note(.warning, "\(d.id): read \(uuid): the device has no such characteristic")
                continue
            }
            let op = host.perform(.read(handle: c.valueHandle), on: link, at: now)
            if let a = d.adapter { pending.add(op, on: a, .configuredRead(device: d.id, characteristic: uuid)) }
        }
    }

    /// One more registration for a characteristic's values on the device's link (the CCCD is
    /// written for the first): for the gateway itself, or for the control clients (one for
    /// all of them).
    func register(_ d: GatewayDevice, _ c: GATTCharacteristic, host: any Host, link: LinkID, forControl: Bool, at now: HostTime) {
        d.remember(c.uuid, valueHandle: c.valueHandle)
        if forControl {
            guard d.controlRegistered.insert(c.valueHandle).inserted else { return }
        } else {
            guard d.registered.insert(c.valueHandle).inserted else { return }
        }
        let op = host.perform(.subscribe(valueHandle: c.valueHandle, mode: .automatic), on: link, at: now)
        if let a = d.adapter { pending.add(op, on: a, .subscription(device: d.id, characteristic: c.uuid)) }
    }
}
