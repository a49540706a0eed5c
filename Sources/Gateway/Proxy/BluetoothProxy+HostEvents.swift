import ESPHomeAPI
import HostCore
import Wire

/// The host events of the proxy's links, turned into what the owning client is told.
extension BluetoothProxy {
    /// Returns false when the event is about no proxy link (the controller's, then).
    func hostEvent(_ event: HostEvent, adapter: Int, in env: ProxyEnvironment, at now: HostTime) -> Bool {
        switch event {
        case let .linkState(link, state):
            guard let address = address(of: link, on: adapter), var l = links[address] else { return false }
            if state == .ready, !l.announced, !l.disconnecting {
                l.announced = true
                links[address] = l
                note(.info, "\(l.peer): connected for client \(l.client) (ATT MTU \(l.mtu))")
                send(l.client, .connection(address: address, connected: true, mtu: UInt32(l.mtu), error: 0))
            }
            return true
        case let .mtuChanged(link, mtu):
            guard let address = address(of: link, on: adapter) else { return false }
            links[address]?.mtu = mtu
            return true
        case let .databaseReady(link, db, fromCache):
            guard let address = address(of: link, on: adapter), let l = links[address] else { return false }
            links[address]?.database = db
            if !fromCache { env.cache?.store(db, for: l.peer) }
            return true
        case .databaseChanged(let link):
            guard let address = address(of: link, on: adapter), let l = links[address] else { return false }
            env.cache?.remove(for: l.peer)
            links[address]?.database = nil
            return true
        case let .connectFailed(link, error, willRetry):
            guard let address = address(of: link, on: adapter), let l = links[address] else { return false }
            guard !l.orphaned else {
                if !willRetry { remove(address) }
                return true
            }
            note(.warning, "\(l.peer): connection failed: \(error.description)")
            send(l.client, .connection(address: address, connected: false, mtu: 0, error: ProxyErrorCode.connection(error)))
            if willRetry { release(address, in: env, at: now) } else { remove(address) }
            return true
        case let .disconnected(link, reason, _):
            guard let address = address(of: link, on: adapter), let l = links[address] else { return false }
            if !l.disconnecting { note(.info, "\(l.peer): disconnected (\(reason.description))") }
            if !l.orphaned { send(l.client, .connection(address: address, connected: false, mtu: 0, error: Int32(reason.rawValue))) }
            dropPending(of: address, on: adapter)
            remove(address)
            return true
        case let .notification(link, handle, value), let .indication(link, handle, value):
            guard let address = address(of: link, on: adapter), let l = links[address] else { return false }
            if l.notifying.contains(handle) { send(l.client, .notifyData(address: address, handle: handle, data: Array(value))) }
            return true
        case let .operationCompleted(op, result):
            guard let p = pending[adapter]?.removeValue(forKey: op) else { return false }
            completed(p, result)
            return true
        case let .security(link, event):
            guard let address = address(of: link, on: adapter) else { return false }
            security(event, address: address)
            return true
        case let .subscribed(link, _, _), let .connected(link, _):
            return address(of: link, on: adapter) != nil
        case .controllerReady, .controllerFailed, .scanning, .advertisement, .warning:
            return false
        }
    }

    /// What security says of a proxy link: an encrypted link or a failure answers a pairing the
    /// client asked for; a prompt is not answered (nobody to show it to), so that pairing fails
    /// after the Security Manager's 30 s.
    private func security(_ event: SecurityEvent, address: UInt64) {
        guard var l = links[address] else { return }
        switch event {
        case let .encrypted(level, keySize, withBond):
            l.encrypted = true
            if l.pairing {
                l.pairing = false
                note(.info, "\(l.peer): link encrypted (\(level.name), \(keySize)-octet key\(withBond ? ", bonded" : ""))")
                if !l.orphaned { send(l.client, .pairing(address: address, paired: true, error: 0)) }
            }
        case .failed(let failure):
            note(.warning, "\(l.peer): security: \(failure.explanation)")
            if l.pairing {
                l.pairing = false
                if !l.orphaned { send(l.client, .pairing(address: address, paired: false, error: ProxyErrorCode.pairing(failure))) }
            }
        case .prompt(let prompt):
            note(.warning, "\(l.peer): pairing wants the user to \(prompt.description); the proxy has nobody to ask (IO capability NoInputNoOutput)")
        case .pairingStarted, .paired, .bondStored, .bondRemoved:
            break
        }
        links[address] = l
    }

    private func completed(_ p: ProxyPending, _ result: Result<GATTResult, HostError>) {
        switch (p, result) {
        case let (.read(client, address, handle), .success(r)):
            if case let .value(v) = r {
                send(client, .readResponse(address: address, handle: handle, data: v))
            } else {
                send(client, .readResponse(address: address, handle: handle, data: []))
            }
        case let (.write(client, address, handle), .success):
            send(client, .writeResponse(address: address, handle: handle))
        case let (.services(client, address, shortUUIDs), .success(r)):
            guard case let .database(db) = r else {
                send(client, .servicesDone(address: address))
                return
            }
            links[address]?.database = db
            for m in ProxyServiceList.messages(address: address, database: db, shortUUIDs: shortUUIDs) { send(client, m) }
        case let (.read(client, address, handle), .failure(e)), let (.write(client, address, handle), .failure(e)):
            send(client, .gattError(address: address, handle: handle, error: ProxyErrorCode.gatt(e)))
        case let (.services(client, address, _), .failure(e)):
            send(client, .gattError(address: address, handle: 0, error: ProxyErrorCode.gatt(e)))
        }
    }

    /// A link that ended fails what was in flight on it: the client learns that from the
    /// connection message (its waiters end on it), so nothing more is sent.
    private func dropPending(of address: UInt64, on adapter: Int) {
        guard let ops = pending[adapter] else { return }
        for (op, p) in ops {
            switch p {
            case let .read(_, a, _), let .write(_, a, _), let .services(_, a, _):
                if a == address { pending[adapter]?[op] = nil }
            }
        }
    }
}
