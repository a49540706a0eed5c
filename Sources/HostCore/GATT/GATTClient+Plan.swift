import Wire

/// How far a link's plan has come.
struct GATTPlanProgress {
    enum Phase: Equatable {
        case idle, exchangingMTU, verifyingCache, discovering, subscribing, ready, failed
    }

    var phase: Phase = .idle
    var started = false
    /// The cached database proved stale (hash mismatch, Service Changed): discover instead.
    var cacheRejected = false
    /// Next entry of `plan.subscriptions` to write.
    var subscriptionIndex = 0
    /// Service Changed arrived while a plan request was in flight: drop its answer.
    var staleJob = false
}

/// One step of the plan, run as a procedure like any operation.
enum GATTPlanTask {
    case exchangeMTU
    case verifyCache
    case discover
    case subscribe(Subscription, GATTCharacteristic)

    var isMTUExchange: Bool {
        if case .exchangeMTU = self { return true }
        return false
    }
}

/// The plan runner: from "connected" to "ready" on its own.
///
/// Nothing here stores a sequence of steps: each time the bearer is free the next step is
/// worked out from what is known (database or not, subscriptions written, MTU exchanged), so a
/// Service Changed indication only has to forget the database for discovery and
/// subscriptions to happen again.
///
/// Order without a cache: Exchange MTU → discovery → subscriptions → ready.
/// Order with a cache: Database Hash check (when the cache has a hash; else the cache is
/// trusted) → subscriptions → Exchange MTU → ready; a hash mismatch delivers `databaseChanged`
/// and falls back to the order without a cache.
extension GATTClient {
    /// Whether the plan needs the peer's database: to discover it, to find the CCCDs of its
    /// subscriptions, or because the caller handed in a cache.
    private var needsDatabase: Bool {
        plan.discover || !plan.subscriptions.isEmpty || plan.cachedDatabase != nil
    }

    private var wantsMTUExchange: Bool {
        guard let asked = plan.mtu else { return false }
        return asked > ATTBearer.defaultMTU && !bearer.exchangedMTU
    }

    /// The plan's next procedure, or nil when the plan has nothing to do now.
    func nextPlanJob() -> GATTJob? {
        guard progress.started else { return nil }
        while true {
            switch progress.phase {
            case .failed: return nil
            default: break
            }
            if needsDatabase, database == nil {
                if let cache = plan.cachedDatabase, !progress.cacheRejected {
                    if cache.databaseHash != nil {
                        enter(.verifyingCache)
                        return GATTJob(procedure: ReadDatabaseHashProcedure(), owner: .plan(.verifyCache))
                    }
                    adopt(cache)
                    continue
                }
                if wantsMTUExchange { return mtuJob() }
                enter(.discovering)
                return GATTJob(procedure: DiscoverAllProcedure(), owner: .plan(.discover))
            }
            if progress.subscriptionIndex < plan.subscriptions.count {
                enter(.subscribing)
                let subscription = plan.subscriptions[progress.subscriptionIndex]
                if let job = subscriptionJob(subscription) { return job }
                progress.subscriptionIndex += 1
                continue
            }
            if wantsMTUExchange { return mtuJob() }
            enter(.ready)
            return nil
        }
    }

    private func mtuJob() -> GATTJob {
        enter(.exchangingMTU)
        return GATTJob(procedure: ExchangeMTUProcedure(clientRxMTU: plan.mtu ?? ATTBearer.defaultMTU),
                       owner: .plan(.exchangeMTU))
    }

    /// The CCCD write for one subscription; nil (after a warning) when it cannot be made.
    private func subscriptionJob(_ s: Subscription) -> GATTJob? {
        let name = s.service.map { "characteristic \(s.characteristic) in service \($0)" } ?? "characteristic \(s.characteristic)"
        guard let characteristic = database?.characteristic(s.characteristic, in: s.service) else {
            warn("subscription skipped: \(name) is not in the peer's database")
            return nil
        }
        switch cccdWrite(characteristic, s.mode) {
        case let .success(p):
            return GATTJob(procedure: p, owner: .plan(.subscribe(s, characteristic)))
        case let .failure(e):
            warn("subscription skipped: \(e)")
            return nil
        }
    }

    private func adopt(_ cache: GATTDatabase) {
        database = cache
        output.deliver(.databaseReady(link, cache, fromCache: true))
    }

    private func enter(_ phase: GATTPlanProgress.Phase) {
        progress.phase = phase
        let linkState: LinkState
        switch phase {
        case .exchangingMTU: linkState = .mtu
        case .verifyingCache, .discovering: linkState = .discovering
        case .subscribing: linkState = .subscribing
        case .ready: linkState = .ready
        case .idle, .failed: return
        }
        if linkState != state {
            state = linkState
            output.clientStateChanged(link)
        }
    }

    func planTaskFinished(_ task: GATTPlanTask, _ result: Result<GATTResult, HostError>, at now: HostTime) {
        switch task {
        case .exchangeMTU:
            switch result {
            case let .success(.mtu(m)): updateMTU(m)
            case let .failure(e): warn("Exchange MTU failed, ATT_MTU stays \(mtu): \(e.attDescription)")
            case .success: break
            }
        case .verifyCache:
            if case let .success(.value(hash)) = result, let cache = plan.cachedDatabase, cache.databaseHash == hash {
                adopt(cache)
            } else {
                progress.cacheRejected = true
                output.deliver(.databaseChanged(link))
            }
        case .discover:
            switch result {
            case let .success(.database(db)):
                database = db
                output.deliver(.databaseReady(link, db, fromCache: false))
            case let .failure(e):
                planFailed(e, while: "discovering the database", at: now)
            case .success:
                planFailed(.protocolViolation("discovery ended without a database"), while: "discovering the database", at: now)
            }
        case let .subscribe(s, characteristic):
            progress.subscriptionIndex += 1
            switch result {
            case .success:
                register(characteristic.valueHandle)
                output.deliver(.subscribed(link, characteristic: characteristic.uuid, valueHandle: characteristic.valueHandle))
            case let .failure(e):
                warn("subscription to characteristic \(s.characteristic) (CCCD of value handle \(HandleWalk.text(characteristic.valueHandle))) failed: \(e.attDescription)")
            }
        }
    }

    private func planFailed(_ error: HostError, while doing: String, at now: HostTime) {
        progress.phase = .failed
        failure = error
        warn("the link plan stopped while \(doing): \(error.attDescription)")
        output.clientFailed(link, error: error, at: now)
    }

    /// A Service Changed indication (Vol 3, Part G, §7.1) on the characteristic the database
    /// in use names: forget the database, then discover and subscribe again.
    func serviceChangedIndicated(handle: UInt16, at now: HostTime) {
        let known = database ?? (progress.cacheRejected ? nil : plan.cachedDatabase)
        guard let db = known,
              let sc = db.characteristic(.serviceChanged, in: .genericAttributeService) ?? db.characteristic(.serviceChanged),
              sc.valueHandle == handle else { return }
        output.deliver(.databaseChanged(link))
        database = nil
        progress.cacheRejected = true
        progress.subscriptionIndex = 0
        // A plan step in flight answers about the old database; an MTU exchange does not.
        if case let .plan(task)? = current?.owner, !task.isMTUExchange { progress.staleJob = true }
        if progress.phase == .failed, bearer.isOpen {
            progress.phase = .ready
            failure = nil
        }
        pump(at: now)
    }
}
