import ESPHomeAPI
import HostCore
import Wire

/// A client's Bluetooth requests: device requests (connect, disconnect, pair, unpair, clear
/// cache) and GATT requests on its links. Every device request is answered for its address —
/// Home Assistant's client waits for that answer (10 s for an unanswered disconnect).
extension BluetoothProxy {
    func request(_ message: ClientMessage, client: Int, shortUUIDs: Bool, in env: ProxyEnvironment, at now: HostTime) {
        switch message {
        case .subscribeAdvertisements:
            subscribeAdvertisements(client: client)
        case .unsubscribeAdvertisements:
            unsubscribeAdvertisements(client: client)
        case .setScannerMode(let m):
            setMode(m, client: client)
        case .subscribeConnectionsFree:
            subscribeConnectionsFree(client: client, in: env)
        case let .deviceRequest(address, kind, addressType):
            deviceRequest(address, kind, addressType: addressType, client: client, in: env, at: now)
        case .getServices(let address):
            services(address, client: client, shortUUIDs: shortUUIDs, in: env, at: now)
        case let .read(address, handle), let .readDescriptor(address, handle):
            perform(.read(handle: handle), address: address, handle: handle, client: client, in: env, at: now) {
                .read(client: client, address: address, handle: handle)
            }
        case let .write(address, handle, withResponse, data):
            write(address, handle: handle, data: data, withResponse: withResponse, client: client, in: env, at: now)
        case let .writeDescriptor(address, handle, data):
            // The reply echoes the descriptor's handle (Home Assistant's client matches on it).
            write(address, handle: handle, data: data, withResponse: true, client: client, in: env, at: now)
        case let .notify(address, handle, enable):
            notify(address, handle: handle, enable: enable, client: client)
        case let .setConnectionParameters(address, _, _, _, _):
            send(client, .connectionParameters(address: address, error: ProxyErrorCode.notSupported))
        default:
            break
        }
    }

    // MARK: Device requests

    private func deviceRequest(_ address: UInt64, _ kind: BluetoothDeviceRequestKind, addressType: UInt32?, client: Int,
                               in env: ProxyEnvironment, at now: HostTime) {
        switch kind {
        case .connectV3WithCache, .connectV3WithoutCache:
            connect(address, withCache: kind == .connectV3WithCache, addressType: addressType, client: client, in: env, at: now)
        case .connect:
            // The connection API before remote caching, which current clients no longer send.
            note(.warning, "\(ProxyAddress.address(address)): a v1 connect request; only v3 (remote caching) is served")
            send(client, .connection(address: address, connected: false, mtu: 0, error: ProxyErrorCode.notSupported))
        case .disconnect:
            disconnect(address, client: client, in: env, at: now)
        case .pair:
            pair(address, client: client, in: env, at: now)
        case .unpair:
            unpair(address, client: client, in: env, at: now)
        case .clearCache:
            let peer = ProxyAddress.address(address)
            env.cache?.remove(for: DeviceAddress(peer, type: .publicDevice))
            env.cache?.remove(for: DeviceAddress(peer, type: .randomDevice))
            links[address]?.database = nil
            send(client, .clearCache(address: address, success: true, error: 0))
        }
    }

    private func connect(_ address: UInt64, withCache: Bool, addressType: UInt32?, client: Int, in env: ProxyEnvironment, at now: HostTime) {
        let peer = ProxyAddress.address(address)
        if let l = links[address] {
            if l.client != client {
                send(client, .connection(address: address, connected: false, mtu: 0, error: ProxyErrorCode.alreadyOpen))
            } else if l.announced {
                send(client, .connection(address: address, connected: true, mtu: UInt32(l.mtu), error: 0))
            }
            // Still connecting: the answer comes when it is up (ESPHome ignores the repeat too).
            return
        }
        if stopping {
            send(client, .connection(address: address, connected: false, mtu: 0, error: ProxyErrorCode.localHost))
            return
        }
        if env.gatewayHolds(peer) {
            note(.warning, "\(peer): the gateway's own configuration keeps this device connected; a proxy client cannot take it")
            send(client, .connection(address: address, connected: false, mtu: 0, error: ProxyErrorCode.alreadyOpen))
            return
        }
        guard let type = addressType.flatMap(ProxyAddress.type) else {
            send(client, .connection(address: address, connected: false, mtu: 0, error: ProxyErrorCode.gattError))
            note(.warning, "\(peer): a connect request without a valid address type")
            return
        }
        guard let adapter = placement(for: address, in: env, at: now), let host = env.host(adapter) else {
            // ESPHome's answer when every slot is taken: not connected, no error code.
            note(.warning, "\(peer): no connection slot is free on any adapter")
            send(client, .connection(address: address, connected: false, mtu: 0, error: 0))
            return
        }
        var plan = LinkPlan()
        plan.reconnect = nil
        let device = DeviceAddress(peer, type: type)
        if withCache {
            plan.discover = false
        } else {
            plan.cachedDatabase = env.cache?.database(for: device)
        }
        let link = host.connect(to: device, plan: plan, at: now)
        add(ProxyLink(client: client, address: address, peer: device, adapter: adapter, link: link, withCache: withCache))
        note(.info, "\(device): connecting for client \(client) on adapter \(env.adapters[adapter].name)" + (withCache ? " (client has the services)" : ""))
    }

    private func disconnect(_ address: UInt64, client: Int, in env: ProxyEnvironment, at now: HostTime) {
        guard var l = links[address], l.client == client, let host = env.host(l.adapter) else {
            // No link: answered at once, as ESPHome does.
            send(client, .connection(address: address, connected: false, mtu: 0, error: 0))
            return
        }
        // Answered when the host reports the link gone (it always does: `Host.disconnect`).
        l.disconnecting = true
        links[address] = l
        host.disconnect(l.link, at: now)
    }

    // MARK: Pairing

    /// Just Works unless the gateway is configured otherwise (the proxy has no user to show a
    /// passkey to): the link's security is raised to an encrypted one, by the bond's key when
    /// there is one, else by pairing; answered when it is encrypted or security fails.
    private func pair(_ address: UInt64, client: Int, in env: ProxyEnvironment, at now: HostTime) {
        guard pairs else {
            send(client, .pairing(address: address, paired: false, error: ProxyErrorCode.notSupported))
            return
        }
        guard var l = links[address], l.client == client, l.announced, !l.disconnecting, let host = env.host(l.adapter) else {
            send(client, .pairing(address: address, paired: false, error: ProxyErrorCode.notConnected))
            return
        }
        if l.encrypted {
            // ESPHome's answer for a link already secured.
            send(client, .pairing(address: address, paired: true, error: 0))
            return
        }
        // A pairing under way answers this request too, when it ends.
        guard !l.pairing else { return }
        l.pairing = true
        links[address] = l
        note(.info, "\(l.peer): pairing for client \(client)")
        host.secure(l.link, SecurityNeed(level: .medium), at: now)
    }

    /// The bond goes (every adapter's host, the state directory), and the client's link to the
    /// peer with it: it was encrypted with the bond's key, and the next one should pair anew.
    private func unpair(_ address: UInt64, client: Int, in env: ProxyEnvironment, at now: HostTime) {
        guard pairs else {
            send(client, .unpairing(address: address, success: false, error: ProxyErrorCode.notSupported))
            return
        }
        let removed = env.forgetBond(ProxyAddress.address(address))
        note(removed ? .info : .warning, "\(ProxyAddress.address(address)): " + (removed ? "bond removed for client \(client)" : "no bond to remove"))
        send(client, .unpairing(address: address, success: removed, error: removed ? 0 : ProxyErrorCode.notFound))
        if removed, var l = links[address], l.client == client, !l.disconnecting, let host = env.host(l.adapter) {
            // Answered, as every disconnect, when the host reports the link gone.
            l.disconnecting = true
            links[address] = l
            host.disconnect(l.link, at: now)
        }
    }

    // MARK: GATT

    /// The client's own link to `address` that is up, with its host; nil after telling the client
    /// it is not connected.
    private func connectedLink(_ address: UInt64, handle: UInt16, client: Int, in env: ProxyEnvironment) -> (ProxyLink, any Host)? {
        guard let l = links[address], l.client == client, l.announced, !l.disconnecting, let host = env.host(l.adapter) else {
            send(client, .gattError(address: address, handle: handle, error: ProxyErrorCode.notConnected))
            return nil
        }
        return (l, host)
    }

    private func perform(_ operation: GATTOperation, address: UInt64, handle: UInt16, client: Int, in env: ProxyEnvironment,
                         at now: HostTime, answer: () -> ProxyPending?) {
        guard let (l, host) = connectedLink(address, handle: handle, client: client, in: env) else { return }
        let op = host.perform(operation, on: l.link, at: now)
        if let p = answer() { pending[l.adapter, default: [:]][op] = p }
    }

    private func write(_ address: UInt64, handle: UInt16, data: [UInt8], withResponse: Bool, client: Int, in env: ProxyEnvironment, at now: HostTime) {
        guard withResponse else {
            return perform(.writeWithoutResponse(handle: handle, value: data), address: address, handle: handle, client: client,
                           in: env, at: now) { nil }
        }
        let mtu = Int(links[address]?.mtu ?? 23)
        let operation: GATTOperation = data.count > mtu - 3 ? .writeLong(handle: handle, value: data) : .write(handle: handle, value: data)
        perform(operation, address: address, handle: handle, client: client, in: env, at: now) {
            .write(client: client, address: address, handle: handle)
        }
    }

    private func services(_ address: UInt64, client: Int, shortUUIDs: Bool, in env: ProxyEnvironment, at now: HostTime) {
        guard let (l, host) = connectedLink(address, handle: 0, client: client, in: env) else { return }
        if let db = l.database {
            for m in ProxyServiceList.messages(address: address, database: db, shortUUIDs: shortUUIDs) { send(client, m) }
            return
        }
        let op = host.perform(.discoverAll, on: l.link, at: now)
        pending[l.adapter, default: [:]][op] = .services(client: client, address: address, shortUUIDs: shortUUIDs)
    }

    /// With remote caching the client writes the CCCD itself (ESPHome only registers for the
    /// values): the proxy starts or stops forwarding, and writes nothing.
    private func notify(_ address: UInt64, handle: UInt16, enable: Bool, client: Int) {
        guard var l = links[address], l.client == client, l.announced, !l.disconnecting else {
            send(client, .gattError(address: address, handle: handle, error: ProxyErrorCode.notConnected))
            return
        }
        if enable { l.notifying.insert(handle) } else { l.notifying.remove(handle) }
        links[address] = l
        send(client, .notifyResponse(address: address, handle: handle))
    }
}
