import HostCore

extension GatewayController {
    /// Ends cleanly: scanning stops, every link is disconnected; once they are down (or the wait
    /// runs out) their states are published and `isShutDown` is set — then stop the MQTT client
    /// (which publishes the gateway offline).
    public func beginShutdown(at now: HostTime) {
        guard shutdown.request(at: now, timeout: options.shutdownTimeout) else { return }
        for d in devices {
            d.retiring = true
            if d.placement != .passive { d.reason = "the gateway stopped" }
        }
        for a in adapters where a.scanning {
            a.host?.stopScan(at: now)
            a.scanning = false
        }
        for d in devices {
            if let a = d.adapter, let link = d.link { adapters[a].host?.disconnect(link, at: now) }
        }
        proxy?.releaseAll(in: proxyEnvironment, at: now)
        finishShutdownIfDone(at: now)
    }

    func finishShutdownIfDone(at now: HostTime) {
        guard isShuttingDown, !isShutDown else { return }
        if devices.allSatisfy({ $0.adapter == nil }) { finishShutdown(at: now) }
    }

    func finishShutdown(at now: HostTime) {
        shutdown.finish()
        for d in devices where d.placement != .passive {
            d.placement = .unplaced
            d.linkState = .disconnected
            d.reason = "the gateway stopped"
            publishState(d, at: now)
        }
        publishGatewayStatus(at: now)
    }
}
