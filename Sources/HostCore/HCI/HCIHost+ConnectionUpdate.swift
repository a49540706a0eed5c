import Wire

/// A connection parameter update the application asks for (as central, the host may change
/// them at any time: Vol 6, Part B, §5.1.1); the peer's own requests come over L2CAP
/// (`LESignalingResponder`) and take the same command path.
extension HCIHost {
    /// Queued at once: the command's answer and LE Connection Update Complete arrive later (a
    /// failure is a warning; success updates the link's `ConnectionInfo`).
    public func updateConnection(_ link: LinkID, to parameters: ConnectionParameters, at now: HostTime) throws(ConnectionUpdateRefusal) {
        if let problem = parameters.problem { throw .invalidParameters(problem) }
        guard isReady, let c = connection(of: link) else { throw .notConnected(link) }
        // The newest parameters replace an update not sent yet, as for the peer's requests.
        commands.removeWaiting { $0 == .connectionUpdate(link) }
        send(LEConnectionUpdate(connectionHandle: c.handle, connectionIntervalMin: parameters.intervalMin,
                                connectionIntervalMax: parameters.intervalMax, maxLatency: parameters.latency,
                                supervisionTimeout: parameters.supervisionTimeout, minCELength: parameters.minCELength,
                                maxCELength: parameters.maxCELength),
             purpose: .connectionUpdate(link))
    }
}
