import ESPHomeAPI
import HostCore
import Service
import Wire

/// The Home Assistant Bluetooth proxy (`BluetoothProxy`) inside the gateway: the ESPHome API
/// clients' requests come in here, the proxy's messages for them go out of `takeProxyOutput`,
/// and its links take the adapters' slots like the gateway's own devices.
extension GatewayController {
    /// What device info says this proxy serves; pairing when the adapters' hosts pair
    /// (`Options.proxyPairs`).
    public static func proxyFeatures(pairing: Bool) -> BluetoothProxyFeatures { BluetoothProxy.features(pairing: pairing) }

    /// One Bluetooth request of ESPHome API client `client` (`APIServerConnection.receive`).
    /// `shortUUIDs`: the client takes short UUIDs in service lists.
    public func proxyRequest(_ message: ClientMessage, client: Int, shortUUIDs: Bool, at now: HostTime) {
        guard let proxy else { return }
        proxy.request(message, client: client, shortUUIDs: shortUUIDs, in: proxyEnvironment, at: now)
        proxySettled(at: now)
    }

    /// An API client went away: its links are released, its subscriptions end.
    public func proxyClientClosed(client: Int, at now: HostTime) {
        guard let proxy else { return }
        proxy.clientClosed(client, in: proxyEnvironment, at: now)
        proxySettled(at: now)
    }

    /// Messages for the API clients, in order (with the advertisements of this turn and the
    /// slots when they changed).
    public func takeProxyOutput() -> [(client: Int, message: ServerMessage)] {
        proxy?.takeOutput(in: proxyEnvironment) ?? []
    }

    var proxyEnvironment: ProxyEnvironment {
        ProxyEnvironment(adapters: adapters, gatewayLinks: { [linkOwners] in linkOwners.placed(on: $0) },
                         gatewayHolds: { [directory] address in directory[address: address]?.link != nil },
                         cache: options.cache, forgetBond: { [weak self] in self?.forgetBond($0) ?? false })
    }

    /// An unpairing: the bond goes from every host (each loaded the state directory's bonds when
    /// it started) and from the state directory. A bond is filed under the identity address the
    /// peer distributed, which may differ from the address the client knows: the hosts' bonds
    /// made with `address` name it.
    func forgetBond(_ address: BDAddress) -> Bool {
        var identities: Set<DeviceAddress> = [DeviceAddress(address, type: .publicDevice), DeviceAddress(address, type: .randomDevice)]
        for a in adapters {
            for b in a.host?.bonds ?? [] where b.address.address == address || b.pairing.peerAddress.address == address {
                identities.insert(b.address)
            }
        }
        var removed = false
        for peer in identities {
            for a in adapters where a.host?.removeBond(peer) == true { removed = true }
            if options.forgetBond?(peer) == true { removed = true }
        }
        return removed
    }

    /// A host event for a proxy link; false when it is about none.
    func proxyHostEvent(_ event: HostEvent, adapter: Int, at now: HostTime) -> Bool {
        guard let proxy else { return false }
        if case .advertisement(let report) = event { proxy.advertisement(report, adapter: adapter, at: now) }
        guard proxy.hostEvent(event, adapter: adapter, in: proxyEnvironment, at: now) else { return false }
        switch event {
        case .notification, .indication: break
        default: proxySettled(at: now)
        }
        return true
    }

    /// After the proxy acted: its log lines, the scan it wants, the adapters' slot counts (MQTT,
    /// the control socket), and a freed slot offered to the gateway's own devices waiting for one.
    func proxySettled(at now: HostTime) {
        guard let proxy else { return }
        log += proxy.log
        proxy.log.removeAll()
        updateScanning(at: now)
        if proxy.linksChanged {
            proxy.linksChanged = false
            for a in adapters { publishAdapterStatus(a, at: now) }
        }
        if proxy.slotFreed {
            proxy.slotFreed = false
            placeWaiting(at: now)
        }
    }
}
