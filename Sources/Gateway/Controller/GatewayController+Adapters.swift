import HostCore

/// The adapters: declared, opened, ready, lost (their devices go to the others).
extension GatewayController {
    /// Declares the adapters, in the configuration's order (before any is opened).
    public func setAdapters(_ list: [(name: String, backend: AdapterBackend)]) {
        adapters = list.enumerated().map { GatewayAdapter(index: $0.offset, name: $0.element.name, backend: $0.element.backend) }
    }

    /// An adapter added later (a reload), at the end of the list; it is down until opened.
    public func addAdapter(name: String, backend: AdapterBackend) {
        adapters.append(GatewayAdapter(index: adapters.count, name: name, backend: backend))
    }

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
        proxy?.adapterClosed(index)
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

    func controllerReady(_ a: GatewayAdapter, info: ControllerInfo, at now: HostTime) {
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
}
