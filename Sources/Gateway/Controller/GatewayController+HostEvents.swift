import HostCore

/// Each adapter's host events, handed to what they are about.
extension GatewayController {
    public func hostEvent(_ event: HostEvent, adapter index: Int, at now: HostTime) {
        guard adapters.indices.contains(index), let host = adapters[index].host else { return }
        let a = adapters[index]
        if proxyHostEvent(event, adapter: index, at: now) {
            if isShuttingDown { finishShutdownIfDone(at: now) }
            return
        }
        switch event {
        case .controllerReady(let info):
            controllerReady(a, info: info, at: now)
        case .controllerFailed(let error):
            // A host that has failed is closed by the driver and opened again later; one that
            // has not is resetting its controller (before or after it was first ready).
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
            guard let d = linkOwners[index, link] else { return }
            linkStateChanged(d, state, adapter: a, at: now)
        case .connectFailed(let link, let error, let willRetry):
            guard let d = linkOwners[index, link] else { return }
            connectFailed(d, link: link, error: error, willRetry: willRetry, adapter: a, at: now)
        case .disconnected(let link, let reason, let willReconnect):
            guard let d = linkOwners[index, link] else { return }
            disconnected(d, link: link, reason: reason, willReconnect: willReconnect, adapter: a, at: now)
        case .databaseReady(let link, let db, let fromCache):
            guard let d = linkOwners[index, link] else { return }
            databaseReady(d, db, fromCache: fromCache, link: link, host: host, at: now)
        case .databaseChanged(let link):
            if let d = linkOwners[index, link], let address = d.address { options.cache?.remove(for: address) }
        case .subscribed(let link, let characteristic, let valueHandle):
            linkOwners[index, link]?.remember(characteristic, valueHandle: valueHandle)
        case .notification(let link, let handle, let value), .indication(let link, let handle, let value):
            guard let d = linkOwners[index, link] else { return }
            notification(d, handle: handle, value: value, at: now)
        case .operationCompleted(let op, let result):
            guard let p = pending.complete(op, on: index) else { return }
            operationCompleted(p, result, at: now)
        case .warning(let w):
            note(.debug, "\(a.name): \(w.description)")
        case .security(let link, let event):
            // The gateway asks no pairing for its own devices (its hosts pair only when the
            // proxy serves, Just Works); what a peer's Security Request or an ATT security error
            // starts is reported (never the keys), and a prompt goes unanswered.
            let who = linkOwners[index, link]?.id ?? a.name
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
}
