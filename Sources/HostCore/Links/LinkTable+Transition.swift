import Wire

extension LinkTable {
    /// The link state machine: from (phase, input, time) to the next phase and its effects —
    /// events for the application, requests for the connector. Every change of a link's phase
    /// happens here; the diagram on `LinkPhase` is this function.
    func transition(_ record: LinkRecord, _ input: LinkInput, at now: HostTime) {
        let id = record.id
        switch (record.phase, input) {

        // The application
        case (.gone, .connectRequested(let plan)):
            record.plan = plan
            record.attempts = 0
            enterQueue(record, urgent: false)
        case (_, .connectRequested):
            break
        case (.queued, .disconnectRequested), (.backoff, .disconnectRequested):
            request(.cancel(id))
            end(record, .operationCancelledByHost)
        case (.initiating(let wait, cancelling: false), .disconnectRequested):
            record.phase = .initiating(wait, cancelling: true)
            request(.cancel(id))
        case (.up(let c), .disconnectRequested):
            record.phase = .closing(c, .user)
            request(.close(id))
        case (.closing(let c, .failure), .disconnectRequested):
            // The close is already asked for; only the outcome changes: no reconnection.
            record.phase = .closing(c, .user)
        case (_, .disconnectRequested):
            break

        // The connector
        case (.queued, .attemptStarted(let wait)):
            record.phase = .initiating(wait, cancelling: false)
            reportState(record)
        case (.initiating(_, let cancelling), .attemptStarted(let wait)):
            // The attempt goes on, waiting for something else (the HCI host: a create the
            // controller refused while scanning goes again; a peer's address was seen): nothing
            // the application sees changes.
            record.phase = .initiating(wait, cancelling: cancelling)
        case (.initiating(_, cancelling: true), .attemptFailed), (.initiating, .attemptCancelled):
            end(record, .operationCancelledByHost)
        case (.initiating, .attemptFailed(let error, let requeueAtOnce)):
            let willRetry = record.mayRetry
            events.append(.connectFailed(id, error, willRetry: willRetry))
            retryOrEnd(record, willRetry: willRetry, requeueAtOnce: requeueAtOnce, at: now)
        case (.initiating(_, cancelling: false), .connected(let c, let holdPlan)),
             // An attempt the connector gave up (e.g. no completion after a cancel) that
             // connected after all.
             (.queued, .connected(let c, let holdPlan)), (.backoff, .connected(let c, let holdPlan)):
            record.phase = .up(c)
            events.append(.connected(id, c.info))
            reportState(record)
            if !holdPlan { c.client.linkUp(at: now) }
        case (.initiating(_, cancelling: true), .connected(let c, _)):
            // The application gave up while the connection won the race: close it at once.
            record.phase = .closing(c, .user)
            request(.close(id))
        case (.up(let c), .connectionEnded(let reason, let requeueAtOnce)),
             (.closing(let c, .failure), .connectionEnded(let reason, let requeueAtOnce)):
            connectionDown(record, c, reason: reason)
            let willReconnect = record.mayRetry
            events.append(.disconnected(id, reason: reason, willReconnect: willReconnect))
            retryOrEnd(record, willRetry: willReconnect, requeueAtOnce: requeueAtOnce, at: now)
        case (.closing(let c, .user), .connectionEnded(let reason, _)):
            connectionDown(record, c, reason: reason)
            events.append(.disconnected(id, reason: reason, willReconnect: false))
            record.phase = .gone
            reportState(record)
        case (.closing(let c, _), .closeRefused):
            // The connection stays (e.g. Disconnect got Command Disallowed); a later
            // disconnect asks again.
            record.phase = .up(c)
        case (_, .attemptStarted), (_, .attemptFailed), (_, .attemptCancelled), (_, .connected),
             (_, .connectionEnded), (_, .closeRefused):
            impossible(record, input)

        // The GATT client
        case (.up(let c), .clientFailed(let error)):
            warn("\(id): \(error.description); disconnecting")
            record.phase = .closing(c, .failure(error))
            request(.close(id))
        case (_, .clientFailed):
            break
        case (.up(let c), .securityFailed(let error)):
            warn("\(id): \(error.description); disconnecting")
            record.phase = .closing(c, .failure(error))
            request(.close(id))
        case (_, .securityFailed):
            break
        case (.up, .clientProgressed), (.closing, .clientProgressed):
            // A link that got as far as `ready` starts its backoff count from scratch.
            if publicState(record) == .ready { record.attempts = 0 }
            reportState(record)
        case (_, .clientProgressed):
            break

        // Time
        case (.backoff, .backoffExpired):
            enterQueue(record, urgent: false)
        case (_, .backoffExpired):
            break
        }
    }

    /// An input the connector must never give in this phase: a bug in the connector, not
    /// something a peer or a controller can cause (the connectors check those first). Debug
    /// builds stop here so that tests find it; release builds count it, report it and go on.
    private func impossible(_ record: LinkRecord, _ input: LinkInput) {
        impossibleTransitions += 1
        let text = "\(record.id): \(input.name) while \(record.phase.name), ignored (a connector bug; please report it)"
        warn(text)
        assertionFailure(text)
    }

    private func enterQueue(_ record: LinkRecord, urgent: Bool) {
        record.phase = .queued(turn: nextTurn(urgent: urgent))
        reportState(record)
        request(.start(record.id, urgent: urgent))
    }

    /// The backoff, the queue at once (the controller was lost, the peer did nothing wrong), or
    /// the end.
    private func retryOrEnd(_ record: LinkRecord, willRetry: Bool, requeueAtOnce: Bool, at now: HostTime) {
        guard willRetry, let policy = record.plan.reconnect else {
            record.phase = .gone
            reportState(record)
            return
        }
        if requeueAtOnce {
            enterQueue(record, urgent: true)
            return
        }
        let delay = policy.delay(afterAttempt: record.attempts)
        record.attempts += 1
        record.phase = .backoff(until: now &+ delay)
        reportState(record)
    }

    /// A link the application gave up before it connected.
    private func end(_ record: LinkRecord, _ reason: HCIStatus) {
        events.append(.disconnected(record.id, reason: reason, willReconnect: false))
        record.phase = .gone
        reportState(record)
    }

    /// The connection is gone: the next one starts from what this one learned, and everything
    /// pending on it fails.
    private func connectionDown(_ record: LinkRecord, _ c: Connection, reason: HCIStatus) {
        if let db = c.client.database { record.plan.cachedDatabase = db }
        c.client.linkDown(reason: reason)
    }
}

extension LinkInput {
    var name: String {
        switch self {
        case .connectRequested: return "connect"
        case .disconnectRequested: return "disconnect"
        case .attemptStarted: return "attempt started"
        case .attemptFailed: return "attempt failed"
        case .attemptCancelled: return "attempt cancelled"
        case .connected: return "connected"
        case .connectionEnded: return "connection ended"
        case .closeRefused: return "close refused"
        case .clientFailed: return "GATT client failed"
        case .securityFailed: return "security failed"
        case .clientProgressed: return "GATT client progressed"
        case .backoffExpired: return "backoff expired"
        }
    }
}

extension LinkPhase {
    var name: String {
        switch self {
        case .queued: return "queued"
        case .initiating(_, let cancelling): return cancelling ? "initiating (cancelling)" : "initiating"
        case .up: return "connected"
        case .closing: return "closing"
        case .backoff: return "waiting to reconnect"
        case .gone: return "gone"
        }
    }
}
