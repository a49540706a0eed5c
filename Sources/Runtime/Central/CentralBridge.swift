import HostCore
import Synchronization
import Wire

/// The loop-thread half of `Central`: it turns host events into resumed continuations and
/// stream elements. Every stored property is touched only on the loop thread (jobs submitted
/// through the loop, and the driver's callbacks), which is why the one `@unchecked Sendable`
/// here is sound: the type crosses threads only as a reference to be used from jobs.
final class CentralBridge: HostApplication, @unchecked Sendable {
    weak var driver: AdapterDriver?
    var ready: CheckedContinuation<ControllerInfo, any Error>?
    var info: ControllerInfo?
    var scans: [UInt64: AsyncStream<Advertisement>.Continuation] = [:]
    var nextScanToken: UInt64 = 0
    var connects: [LinkID: CheckedContinuation<(LinkID, ConnectionInfo), any Error>] = [:]
    var connections: [LinkID: ConnectionInfo] = [:]
    var disconnects: [LinkID: [CheckedContinuation<Void, Never>]] = [:]
    /// When a waiting `disconnect()` gives up on the controller's Disconnection Complete.
    var disconnectDeadlines: [LinkID: HostTime] = [:]
    var operations: [OperationID: CheckedContinuation<GATTResult, any Error>] = [:]
    var batchSubscribers: [LinkID: [UInt16: [BatchSubscriber]]] = [:]
    /// Batch subscribers that received a value during the current read.
    var filledBatches: [BatchSubscriber] = []
    var warnings: [HostWarning] = []
    /// `Peripheral.events()` streams per link, and each link's ATT_MTU once exchanged.
    var linkWatchers: [LinkID: [AsyncStream<LinkEvent>.Continuation]] = [:]
    var mtus: [LinkID: UInt16] = [:]
    /// rtstack's user during pairing; nil refuses every prompt at once.
    var agent: (any PairingAgent)?
    /// The agent's answers being awaited, one task per link with a prompt.
    var prompts = PairingPromptTasks()
    /// `Peripheral.secure` calls waiting for their link's encryption.
    var secures: [LinkID: PendingSecure] = [:]
    /// The last security failure of a link that a connect waits for: a link that must be secure
    /// is closed after it, and the connect fails with it rather than with the disconnection.
    var connectSecurityFailures: [LinkID: SecurityFailure] = [:]
    var closed = false
    /// Why the adapter stopped working under the application (transport lost, or the
    /// controller failed for good after a reset); read from any thread once streams end.
    let failure = Mutex<CentralError?>(nil)

    func attach(_ driver: AdapterDriver, at now: HostTime) {
        self.driver = driver
    }

    func hostEvent(_ event: HostEvent, at now: HostTime) {
        switch event {
        case .controllerReady(let i):
            info = i
            ready?.resume(returning: i)
            ready = nil
        case .controllerFailed(let e):
            // Resetting: `.controllerReady` follows. Otherwise nothing more comes from it.
            guard let host = driver?.host, ControllerFailure(of: host, wasReady: info != nil).isFinal else { break }
            if let r = ready {
                ready = nil
                r.resume(throwing: CentralError.host(e))
            } else {
                failAll(CentralError.host(e), record: true)
            }
        case .advertisement(let r):
            guard !scans.isEmpty else { return }
            let a = Advertisement(r)
            for c in scans.values { c.yield(a) }
        case .connected(let link, let info):
            connections[link] = info
        case .linkState(let link, let state):
            if state == .ready, let c = connects.removeValue(forKey: link), let info = connections[link] {
                connectSecurityFailures[link] = nil
                c.resume(returning: (link, info))
            }
        case .connectFailed(let link, let error, let willRetry):
            if !willRetry, let c = connects.removeValue(forKey: link) {
                connectSecurityFailures[link] = nil
                c.resume(throwing: CentralError.host(error))
            }
        case .disconnected(let link, let reason, let willReconnect):
            if let c = connects[link], !willReconnect {
                connects[link] = nil
                let failure = connectSecurityFailures.removeValue(forKey: link)
                c.resume(throwing: CentralError.host(failure.map { .security($0) } ?? .disconnected(reason)))
            } else if willReconnect {
                connectSecurityFailures[link] = nil
            }
            secures.removeValue(forKey: link)?.continuation.resume(throwing: CentralError.host(.disconnected(reason)))
            prompts.cancel(link)
            if !willReconnect {
                connections[link] = nil
                mtus[link] = nil
                for w in linkWatchers.removeValue(forKey: link) ?? [] {
                    w.yield(.disconnected(reason))
                    w.finish()
                }
                for c in disconnects.removeValue(forKey: link) ?? [] { c.resume() }
                disconnectDeadlines[link] = nil
                yieldBatches()
                for list in (batchSubscribers.removeValue(forKey: link) ?? [:]).values { for b in list { b.continuation.finish() } }
            }
        case .operationCompleted(let id, let result):
            unsubscribeAnswered(id)
            guard let c = operations.removeValue(forKey: id) else { return }
            switch result {
            case .success(let r): c.resume(returning: r)
            case .failure(let e): c.resume(throwing: CentralError.host(e))
            }
        case .notification(let link, let handle, let value), .indication(let link, let handle, let value):
            if let batches = batchSubscribers[link]?[handle] {
                for b in batches {
                    if b.pending.isEmpty { filledBatches.append(b) }
                    b.pending.append(value)
                }
            }
        case .mtuChanged(let link, let mtu):
            mtus[link] = mtu
            for w in linkWatchers[link] ?? [] { w.yield(.mtuChanged(mtu)) }
        case .databaseChanged(let link):
            for w in linkWatchers[link] ?? [] { w.yield(.databaseChanged) }
        case .warning(let w):
            if warnings.count < 1000 { warnings.append(w) }
        case .security(let link, let e):
            securityEvent(e, on: link)
        default:
            break
        }
    }

    /// Prompts go to the agent (off the loop thread; its answer comes back as a job), and
    /// `Peripheral.secure` calls learn how their pairing or encryption ended.
    private func securityEvent(_ e: SecurityEvent, on link: LinkID) {
        switch e {
        case .prompt(let prompt):
            guard let loop = driver?.loop else { return }
            guard let agent else {
                // Nobody to ask: refuse at once rather than let the peer wait out the SMP timer.
                switch prompt {
                case .enterPasskey: driver?.host.answerPairing(link, .rejectPasskey, at: driver?.currentTime ?? 0)
                case .confirmNumber: driver?.host.answerPairing(link, .numbersMatch(false), at: driver?.currentTime ?? 0)
                case .displayPasskey: break
                }
                return
            }
            let peer = connections[link]?.peer ?? DeviceAddress(.zero, type: .publicDevice)
            prompts.ask(agent, prompt, peer: peer, link: link, loop: loop)
        case .paired(let result):
            secures[link]?.pairing = result
        case .encrypted(let level, let keySize, let withBond):
            // A new pairing was asked for: a bond's key does not end the call (the kernel's
            // pairing reports no result of its own, only a key not from a bond).
            guard let pending = secures[link], !pending.fresh || pending.pairing != nil || !withBond else { return }
            secures[link] = nil
            pending.continuation.resume(returning: LinkSecurityStatus(level: level, keySize: keySize, pairing: pending.pairing,
                                                                      paired: !withBond))
        case .failed(let failure):
            if connects[link] != nil { connectSecurityFailures[link] = failure }
            secures.removeValue(forKey: link)?.continuation.resume(throwing: CentralError.host(.security(failure)))
        default:
            break
        }
    }

    /// Takes a batch stream out of the routing; true when it was still there (so its
    /// registration at the host is still held).
    func removeBatchSubscriber(_ token: SubscriptionToken, link: LinkID, valueHandle: UInt16) -> Bool {
        guard var list = batchSubscribers[link]?[valueHandle],
              let i = list.firstIndex(where: { $0.token === token }) else { return false }
        list.remove(at: i)
        batchSubscribers[link]?[valueHandle] = list.isEmpty ? nil : list
        if let j = filledBatches.firstIndex(where: { $0.token === token }) { filledBatches.remove(at: j) }
        return true
    }

    func inputProcessed(at now: HostTime) {
        if !filledBatches.isEmpty { yieldBatches() }
    }

    /// Hands each filled batch to its stream and starts an empty one.
    private func yieldBatches() {
        for b in filledBatches {
            let batch = b.pending
            b.pending = NotificationBatch()
            b.continuation.yield(batch)
        }
        filledBatches.removeAll(keepingCapacity: true)
    }

    private func finishBatches() {
        yieldBatches()
        for per in batchSubscribers.values { for list in per.values { for b in list { b.continuation.finish() } } }
        batchSubscribers = [:]
    }

    var nextDeadline: HostTime? {
        var d = EarliestDeadline(unsubscribeWaitEnd)
        for t in disconnectDeadlines.values { d.consider(t) }
        return d.time
    }

    func deadlineReached(at now: HostTime) {
        if let u = unsubscribeWaitEnd, u <= now { resumeUnsubscribeWaiters() }
        for (link, deadline) in disconnectDeadlines where deadline <= now {
            disconnectDeadlines[link] = nil
            for c in disconnects.removeValue(forKey: link) ?? [] { c.resume() }
        }
    }

    func adapterClosed(_ error: TransportError) {
        closed = true
        let e = CentralError.adapter(error)
        ready?.resume(throwing: e)
        ready = nil
        // `.closed` is the loop's own end (stop); anything else was lost under the application.
        if case .closed = error {
            failAll(e, record: false)
        } else {
            failAll(e, record: true)
        }
    }

    /// Fails every pending request with `e` and ends every stream; `record` keeps `e` as the
    /// reason the adapter is unusable (`Central.failure`).
    private func failAll(_ e: CentralError, record: Bool) {
        if record { failure.withLock { if $0 == nil { $0 = e } } }
        prompts.cancelAll()
        for c in connects.values { c.resume(throwing: e) }
        connects = [:]
        for c in operations.values { c.resume(throwing: e) }
        operations = [:]
        for p in secures.values { p.continuation.resume(throwing: e) }
        secures = [:]
        for list in disconnects.values { for c in list { c.resume() } }
        disconnects = [:]
        for c in scans.values { c.finish() }
        scans = [:]
        for list in linkWatchers.values { for w in list { w.finish() } }
        linkWatchers = [:]
        finishBatches()
        resumeUnsubscribeWaiters()
    }

    /// Ends every stream (scans, subscriptions) so that code iterating them moves on to its
    /// clean-up; used for Ctrl-C and for `--duration`.
    func endStreams() {
        for c in scans.values { c.finish() }
        scans = [:]
        // The notification streams end, but stay registered until their end runs on the loop:
        // that takes each registration back at the host (the last one writes the CCCD to 0)
        // while the link is still up.
        yieldBatches()
        for per in batchSubscribers.values { for list in per.values { for b in list { b.continuation.finish() } } }
    }

    // MARK: Unsubscribing before a close

    /// Unsubscribe operations sent when streams ended, not yet answered.
    var unsubscribing: Set<OperationID> = []
    /// `Central.close` waits here until they are answered (or `unsubscribeWaitEnd`).
    var unsubscribeWaiters: [CheckedContinuation<Void, Never>] = []
    var unsubscribeWaitEnd: HostTime?

    func unsubscribeSent(_ op: OperationID) {
        unsubscribing.insert(op)
    }

    func unsubscribeAnswered(_ op: OperationID) {
        guard unsubscribing.remove(op) != nil, unsubscribing.isEmpty else { return }
        resumeUnsubscribeWaiters()
    }

    func resumeUnsubscribeWaiters() {
        unsubscribeWaitEnd = nil
        for c in unsubscribeWaiters { c.resume() }
        unsubscribeWaiters = []
    }

    /// First Ctrl-C: streams end and the command disconnects cleanly; the loop keeps running
    /// until `Central.close()`.
    func shutdownRequested(at now: HostTime) -> Bool {
        endStreams()
        return false
    }
}

/// A `Peripheral.secure` call waiting on the loop thread.
struct PendingSecure {
    var continuation: CheckedContinuation<LinkSecurityStatus, any Error>
    /// A new pairing was asked for: a bond's encryption does not end the call.
    var fresh: Bool
    var pairing: PairingResult?
}

/// How a link is secured, once `Peripheral.secure` returns.
public struct LinkSecurityStatus: Sendable, CustomStringConvertible {
    public var level: SecurityLevel
    public var keySize: UInt8
    /// The pairing that made the key, when rtstack's Security Manager ran one (nil: a bond's
    /// key, or the kernel's pairing).
    public var pairing: PairingResult?
    /// A pairing made the key (not a bond kept from before).
    public var paired: Bool

    public var description: String {
        if let pairing { return pairing.description }
        return (paired ? "paired by the kernel" : "encrypted with the bond's key") + ": security \(level.name), key size \(keySize)"
    }
}
