import Wire

/// Where a link's GATT client sends its output: the link table, which queues the PDUs for the
/// connector and the events for the application, and moves the link when the client fails.
protocol GATTClientOutput: AnyObject {
    /// An ATT PDU for the peer (the HCI host wraps it in L2CAP on CID 0x0004, the kernel host
    /// writes it to the link's socket).
    func sendATT(_ pdu: [UInt8], on link: LinkID)
    func deliver(_ event: HostEvent)
    /// The plan moved on (`state` changed): the link's public state may have changed.
    func clientStateChanged(_ link: LinkID)
    /// The client can no longer take the link to `.ready`: the ATT bearer timed out (Core
    /// Spec v5.4 Vol 3, Part F, §3.3.3 requires a new bearer, i.e. a new connection) or the
    /// plan's discovery failed. The link should be closed; a warning has been delivered.
    func clientFailed(_ link: LinkID, error: HostError, at now: HostTime)
    /// The peer refused a request with an ATT security error (Insufficient Authentication,
    /// Insufficient Encryption, Encryption Key Size Too Short): the client holds it until
    /// `GATTClient.securityFinished` says whether security was raised (send it again) or not
    /// (it fails with the peer's error). BlueZ's client does the same ("auto" security).
    func securityNeeded(_ link: LinkID, error: ATTErrorCode)
}

/// The GATT client of one connected link: its ATT bearer, the procedures asked of it, and the
/// link's plan from "connected" to "ready" (MTU, discovery or cache, subscriptions).
///
/// Sans-I/O and single-threaded: every input carries its time; outputs go synchronously to
/// `output`. One ATT request is in flight at a time (Vol 3, Part F, §3.3.2): the plan's steps
/// go first, then the application's operations in the order they were asked for. Commands
/// (Write Without Response) need no response, so they go out at once, also while a request
/// waits (as BlueZ's bearer does). Notification registrations are counted per value handle:
/// the CCCD is written when the first registration comes and written back to 0 when the last
/// one goes.
///
/// The warm-cache path keeps requests before streaming to two per sensor: the Database Hash
/// read and the CCCD write. With a cache, Exchange MTU is therefore done after the
/// subscriptions (states `subscribing` → `mtu` → `ready`); without one it comes first, where
/// the larger MTU shortens discovery. An MTU of 23 or less in the plan skips the exchange.
final class GATTClient {
    let link: LinkID
    private(set) var plan: LinkPlan
    /// The link's state as far as GATT is concerned: `connected` → `mtu` → `discovering` →
    /// `subscribing` → `ready` (each change is told to `output.clientStateChanged`, and the
    /// link table reports the link's public state). `linkDown` sets `disconnected`.
    var state: LinkState = .connected
    /// Current ATT_MTU of the bearer.
    var mtu: UInt16 { bearer.mtu }
    var database: GATTDatabase?
    /// Why the plan stopped short of `ready` (ATT timeout, failed discovery); nil otherwise.
    var failure: HostError?
    /// ATT requests sent on this link so far.
    var requestsSent: Int { bearer.requestsSent }
    /// False once the bearer timed out or the link went down: every new operation fails at once.
    var isBearerOpen: Bool { bearer.isOpen }
    /// The link is encrypted (set by whoever learns of Encryption Change): a signed write goes
    /// as Write Without Response then (Vol 3, Part G, §4.9.2).
    var linkEncrypted = false
    /// The notice that signed writes go unsigned on this encrypted link was given.
    private var unsignedWriteNoticed = false

    unowned let output: GATTClientOutput
    var bearer = ATTBearer()
    var progress = GATTPlanProgress()
    /// The procedure whose request is in flight.
    var current: GATTJob?
    /// The last request sent, kept to send it again once security is raised.
    private var lastRequest: ATTPDU?
    /// The request of `current` refused for lack of security, and the refusal, while security
    /// is being raised.
    private var heldForSecurity: (request: ATTPDU, refusal: ATTPDU)?
    /// Where the client is in its connection's life. The link's phase holds the client only
    /// while the link is up or closing; this is what the phase cannot say: whether the plan has
    /// been let run yet (`LinkTable.releasePlan`, after security), and that the connection has
    /// ended for a caller that still holds the client (operations then fail with the reason).
    @exclusivity(unchecked) private(set) var life: Life = .waiting

    enum Life: Equatable {
        /// Connected; the plan waits (for the connection's security, or its first transition).
        case waiting
        case running
        case ended(HCIStatus)
    }
    /// Notification registrations per value handle (`subscribe` / `unsubscribe`, and the plan's
    /// subscriptions): the CCCD is written on the first and written back to 0 after the last.
    private var registrations: [UInt16: Int] = [:]
    /// Operations waiting for the bearer; `queueHead` is the next one.
    private var queue: [(id: OperationID, operation: GATTOperation)] = []
    private var queueHead = 0

    init(link: LinkID, plan: LinkPlan, output: GATTClientOutput) {
        self.link = link
        self.plan = plan
        self.output = output
    }

    /// The link is up: start the plan.
    func linkUp(at now: HostTime) {
        guard life == .waiting else { return }
        life = .running
        progress.started = true
        pump(at: now)
    }

    /// A complete ATT PDU received on CID 0x0004 (a slice of the received packet).
    func receive(_ pdu: ArraySlice<UInt8>, at now: HostTime) {
        if case .ended = life { return }
        // Hot path: a Handle Value Notification goes out as a slice of the input, with nothing
        // decoded beyond its handle and nothing allocated.
        let i = pdu.startIndex
        if pdu.count >= 3, pdu[i] == ATTOpcode.handleValueNotification.rawValue {
            output.deliver(.notification(link, attributeHandle: UInt16(pdu[i + 1]) | UInt16(pdu[i + 2]) << 8,
                                         value: pdu[(i + 3)...]))
            return
        }
        switch bearer.classify(pdu) {
        case let .notification(handle, value):
            output.deliver(.notification(link, attributeHandle: handle, value: value))
        case let .response(response):
            complete(with: response, at: now)
        case let .malformedResponse(opcode, error):
            warn("malformed \(opcode.name) dropped: \(error)", pdu)
            settleCurrent(.failed(.protocolViolation("\(opcode.name): \(error)")), at: now)
        case let .indication(handle, value):
            // Confirm first (§3.4.7.2): the peer sends no other indication until then.
            output.sendATT(ATTBearer.confirmation, on: link)
            output.deliver(.indication(link, attributeHandle: handle, value: value))
            serviceChangedIndicated(handle: handle, at: now)
        case let .multipleNotification(parameters):
            deliverMultipleNotification(parameters, pdu)
        case let .peerRequest(opcode, parameters):
            answerPeerRequest(opcode, parameters)
        case .peerCommand:
            break
        case let .unexpected(message):
            warn(message + "; dropped", pdu)
        }
    }

    /// Queues `operation` behind the plan and the operations asked before it. It completes
    /// through `HostEvent.operationCompleted(id, …)`: during this call already when it needs no
    /// request or cannot run (bearer closed, link down, nothing to subscribe to).
    func perform(_ operation: GATTOperation, id: OperationID, at now: HostTime) {
        if case let .ended(reason) = life {
            output.deliver(.operationCompleted(id, .failure(.disconnected(reason))))
            return
        }
        if let error = bearer.closedError {
            output.deliver(.operationCompleted(id, .failure(error)))
            return
        }
        if case let .writeWithoutResponse(handle, value) = operation, life == .running {
            // A command needs no response, so it does not wait behind the request in flight
            // (Vol 3, Part F, §3.3.2 limits requests, not commands).
            let procedure = WriteProcedure(handle: handle, value: value, withoutResponse: true)
            settle(GATTJob(procedure: procedure, owner: .user(id)), procedure.start(mtu: bearer.mtu), at: now)
            return
        }
        queue.append((id, operation))
        pump(at: now)
    }

    /// When the request in flight times out (sent + 30 s); nil when none is in flight.
    var nextDeadline: HostTime? { bearer.deadline }

    /// Fires the ATT transaction timeout once `now` has reached `nextDeadline`: the bearer
    /// closes for good, everything pending fails with `.attTimeout`, a warning is delivered
    /// and `GATTClientOutput.clientFailed` asks the host to disconnect.
    func advanceTime(to now: HostTime) {
        guard let request = bearer.expire(at: now), let error = bearer.closedError else { return }
        warn("\(request.name) got no response within 30 s (Core Spec v5.4 Vol 3, Part F, §3.3.3): the ATT bearer is closed; disconnect and reconnect to use this peer again")
        failure = error
        failAll(error)
        output.clientFailed(link, error: error, at: now)
    }

    /// The link went away: every pending operation fails with `.disconnected(reason)`.
    func linkDown(reason: HCIStatus) {
        if case .ended = life { return }
        life = .ended(reason)
        let error = HostError.disconnected(reason)
        bearer.close(error)
        failAll(error)
        state = .disconnected
    }

    // MARK: - Running procedures

    /// Starts the next procedure while the bearer is free: the plan first, then the queue.
    func pump(at now: HostTime) {
        while life == .running, bearer.isIdle, current == nil {
            guard let job = nextPlanJob() ?? nextQueuedJob() else { return }
            settle(job, job.procedure.start(mtu: bearer.mtu), at: now)
        }
    }

    private func complete(with response: ATTPDU, at now: HostTime) {
        guard let job = current else { return }
        current = nil
        if case .plan = job.owner, progress.staleJob {
            // The peer changed its database while this plan step ran: its answers are stale
            // and the plan has started over.
            progress.staleJob = false
            pump(at: now)
            return
        }
        if case let .errorResponse(e) = response, e.errorCode.isSecurityError, !job.retriedForSecurity,
           let request = lastRequest {
            // Held (the bearer stays busy for it) until security is raised; sent again once.
            var held = job
            held.retriedForSecurity = true
            current = held
            heldForSecurity = (request, response)
            output.securityNeeded(link, error: e.errorCode)
            return
        }
        settle(job, job.procedure.receive(response, mtu: bearer.mtu), at: now)
        pump(at: now)
    }

    /// The answer to `GATTClientOutput.securityNeeded`: the held request goes again (once), or
    /// its procedure gets the peer's refusal.
    func securityFinished(raised: Bool, at now: HostTime) {
        guard let (request, refusal) = heldForSecurity, let job = current else { return }
        heldForSecurity = nil
        if raised, bearer.isOpen, life == .running || life == .waiting {
            bearer.requestSent(request.opcode, at: now)
            output.sendATT(request.encoded, on: link)
            return
        }
        current = nil
        settle(job, job.procedure.receive(refusal, mtu: bearer.mtu), at: now)
        pump(at: now)
    }

    /// The plan's cached database is not to be trusted (its bond did not hold): discover.
    func forgetCachedDatabase() {
        plan.cachedDatabase = nil
    }

    /// Ends the request in flight with `step` (a broken response ends the transaction too).
    private func settleCurrent(_ step: GATTStep, at now: HostTime) {
        guard let job = current else { return }
        current = nil
        if case .plan = job.owner, progress.staleJob {
            progress.staleJob = false
        } else {
            settle(job, step, at: now)
        }
        pump(at: now)
    }

    private func settle(_ job: GATTJob, _ step: GATTStep, at now: HostTime) {
        switch step {
        case let .request(pdu):
            bearer.requestSent(pdu.opcode, at: now)
            current = job
            lastRequest = pdu
            output.sendATT(pdu.encoded, on: link)
        case let .command(pdu):
            output.sendATT(pdu.encoded, on: link)
            finish(job, .success(job.procedure.result), at: now)
        case .done:
            finish(job, .success(job.procedure.result), at: now)
        case let .failed(error):
            finish(job, .failure(error), at: now)
        }
    }

    private func finish(_ job: GATTJob, _ result: Result<GATTResult, HostError>, at now: HostTime) {
        if case .failure = result, let handle = job.registration { unregister(handle) }
        switch job.owner {
        case let .user(id):
            if case let .success(value) = result {
                switch value {
                case let .mtu(m): updateMTU(m)
                case let .database(db):
                    database = db
                    output.deliver(.databaseReady(link, db, fromCache: false))
                default: break
                }
            }
            output.deliver(.operationCompleted(id, result))
        case let .plan(task):
            planTaskFinished(task, result, at: now)
        }
    }

    /// The next queued operation as a procedure; operations that end without a request
    /// (nothing to ask, or refused) complete here.
    private func nextQueuedJob() -> GATTJob? {
        while queueHead < queue.count {
            let (id, operation) = queue[queueHead]
            queueHead += 1
            if queueHead == queue.count {
                queue.removeAll(keepingCapacity: true)
                queueHead = 0
            }
            switch makeProcedure(operation) {
            case let .success(procedure):
                return GATTJob(procedure: procedure, owner: .user(id), registration: operation.registeredHandle)
            case let .failure(outcome):
                output.deliver(.operationCompleted(id, outcome.result))
            }
        }
        return nil
    }

    /// A finished-at-once outcome, carried as an Error so `Result` can hold it.
    private struct Immediate: Error {
        var result: Result<GATTResult, HostError>
    }

    private func makeProcedure(_ operation: GATTOperation) -> Result<GATTProcedure, Immediate> {
        switch operation {
        case let .exchangeMTU(rx):
            // The client sends Exchange MTU once per connection (Vol 3, Part F, §3.4.2.1).
            if bearer.exchangedMTU { return .failure(Immediate(result: .success(.mtu(bearer.mtu)))) }
            return .success(ExchangeMTUProcedure(clientRxMTU: rx))
        case .discoverAll:
            return .success(DiscoverAllProcedure())
        case let .discoverPrimaryServices(uuid):
            return .success(DiscoverPrimaryServicesProcedure(uuid: uuid))
        case let .read(handle):
            return .success(ReadProcedure(handle: handle, long: false))
        case let .readLong(handle):
            return .success(ReadProcedure(handle: handle, long: true))
        case let .readByType(type, range):
            return .success(ReadUsingCharacteristicUUIDProcedure(type: type, range: range))
        case let .write(handle, value):
            return .success(WriteProcedure(handle: handle, value: value))
        case let .writeWithoutResponse(handle, value):
            return .success(WriteProcedure(handle: handle, value: value, withoutResponse: true))
        case let .writeLong(handle, value):
            return .success(LongWriteProcedure(handle: handle, value: value))
        case let .signedWrite(write) where linkEncrypted:
            // Vol 3, Part G, §4.9.2: on a link already encrypted a Write Without Response
            // *shall* be used instead (the link authenticates the peer); BlueZ's client does the
            // same (unit/test-gatt.c, /TP/GAW/CL/BV-02-C/seclevel). Said once per link.
            if !unsignedWriteNoticed {
                unsignedWriteNoticed = true
                warn("the link is encrypted, so signed writes go as Write Without Response (Core Spec v5.4 Vol 3, Part G, §4.9.2)")
            }
            return .success(WriteProcedure(handle: write.handle, value: Array(write.value), withoutResponse: true))
        case .findIncludedServices, .discoverCharacteristics, .discoverDescriptors, .readMultiple, .readMultipleVariable,
             .reliableWrite, .signedWrite:
            return operation.standaloneProcedure().mapError { Immediate(result: .failure($0)) }
        case let .subscribe(valueHandle, mode):
            let characteristic: GATTCharacteristic
            switch knownCharacteristic(valueHandle) {
            case let .success(c): characteristic = c
            case let .failure(e): return .failure(Immediate(result: .failure(e)))
            }
            let count = registrations[valueHandle, default: 0]
            registrations[valueHandle] = count + 1
            // Already on for another registration: nothing to write.
            if count > 0 { return .failure(Immediate(result: .success(.done))) }
            switch cccdWrite(characteristic, mode) {
            case let .success(p): return .success(p)
            case let .failure(e):
                unregister(valueHandle)
                return .failure(Immediate(result: .failure(e)))
            }
        case let .unsubscribe(valueHandle):
            let count = registrations[valueHandle, default: 0]
            guard count > 0 else {
                return .failure(Immediate(result: .failure(.invalidState("no subscription to value handle \(HandleWalk.text(valueHandle)) on \(link)"))))
            }
            unregister(valueHandle)
            // Others still listen: the CCCD stays on.
            if count > 1 { return .failure(Immediate(result: .success(.done))) }
            switch knownCharacteristic(valueHandle).flatMap({ cccdWrite($0, .off) }) {
            case let .success(p): return .success(p)
            case let .failure(e): return .failure(Immediate(result: .failure(e)))
            }
        }
    }

    /// The characteristic of a value handle in the known database.
    private func knownCharacteristic(_ valueHandle: UInt16) -> Result<GATTCharacteristic, HostError> {
        guard let db = database else {
            return .failure(.notFound("the database of \(link) is not known yet; discover it first (discoverAll) or plan a cache"))
        }
        guard let characteristic = db.characteristic(valueHandle: valueHandle) else {
            return .failure(.notFound("no characteristic with value handle \(HandleWalk.text(valueHandle)) on \(link)"))
        }
        return .success(characteristic)
    }

    func register(_ valueHandle: UInt16) {
        registrations[valueHandle, default: 0] += 1
    }

    private func unregister(_ valueHandle: UInt16) {
        let count = registrations[valueHandle, default: 0]
        registrations[valueHandle] = count > 1 ? count - 1 : nil
    }

    /// How many registrations hold the CCCD of this value handle on.
    func registrationCount(_ valueHandle: UInt16) -> Int { registrations[valueHandle, default: 0] }

    /// The CCCD write that sets `mode` for `characteristic` (Vol 3, Part G, §4.10, §4.11).
    func cccdWrite(_ characteristic: GATTCharacteristic, _ mode: SubscriptionMode) -> Result<WriteProcedure, HostError> {
        guard let cccd = characteristic.cccdHandle else {
            return .failure(.notFound("characteristic \(characteristic.uuid) (value handle \(HandleWalk.text(characteristic.valueHandle))) has no Client Characteristic Configuration descriptor (0x2902)"))
        }
        let bits: ClientCharacteristicConfiguration
        switch mode {
        case .off: bits = []
        case .notify: bits = .notification
        case .indicate: bits = .indication
        case .automatic: bits = characteristic.canNotify ? .notification : .indication
        }
        return .success(WriteProcedure(handle: cccd, value: bits.encoded))
    }

    /// The bearer is gone: the request in flight and everything queued fail with `error`.
    private func failAll(_ error: HostError) {
        heldForSecurity = nil
        if let job = current {
            current = nil
            if case let .user(id) = job.owner {
                output.deliver(.operationCompleted(id, .failure(error)))
            }
        }
        if progress.started, progress.phase != .ready {
            progress.phase = .failed
        }
        progress.staleJob = false
        while queueHead < queue.count {
            let id = queue[queueHead].id
            queueHead += 1
            output.deliver(.operationCompleted(id, .failure(error)))
        }
        queue.removeAll()
        queueHead = 0
    }

    // MARK: - Inbound PDUs other than responses

    func updateMTU(_ value: UInt16) {
        if bearer.setMTU(value) {
            output.deliver(.mtuChanged(link, bearer.mtu))
        }
    }

    /// Our receive MTU, as told to a peer: the plan's, at least 23.
    private var ourRxMTU: UInt16 { max(ATTBearer.defaultMTU, plan.mtu ?? ATTBearer.defaultMTU) }

    /// This host is a GATT client only, so it answers every request with Request Not Supported
    /// and Attribute Handle 0x0000 (Vol 3, Part F, §3.4.1.1) and the peer is not left waiting
    /// 30 s. Exchange MTU is the exception: it is about the bearer, not a server database, so
    /// it gets its answer (§3.4.2.2).
    private func answerPeerRequest(_ opcode: ATTOpcode, _ parameters: ArraySlice<UInt8>) {
        guard bearer.isOpen else { return }
        if opcode == .exchangeMTURequest, parameters.count == 2 {
            let i = parameters.startIndex
            let clientRx = UInt16(parameters[i]) | UInt16(parameters[i + 1]) << 8
            output.sendATT(ATTPDU.exchangeMTUResponse(serverRxMTU: ourRxMTU).encoded, on: link)
            updateMTU(ATTBearer.negotiatedMTU(clientRx, ourRxMTU))
            return
        }
        let code: ATTErrorCode = opcode == .exchangeMTURequest ? .invalidPDU : .requestNotSupported
        let answer = ATTPDU.errorResponse(ATTErrorResponse(requestOpcodeInError: opcode, attributeHandleInError: 0, errorCode: code))
        output.sendATT(answer.encoded, on: link)
    }

    /// Multiple Handle Value Notification (§3.4.7.4): checked whole first, so a broken list is
    /// reported once and delivers nothing; then each value goes out as a slice.
    private func deliverMultipleNotification(_ parameters: ArraySlice<UInt8>, _ pdu: ArraySlice<UInt8>) {
        var check = ByteReader(parameters)
        var count = 0
        while !check.isAtEnd {
            guard (try? check.u16()) != nil, let length = try? check.u16(),
                  (try? check.bytes(Int(length))) != nil else {
                warn("Multiple Handle Value Notification with a broken Handle Length Value Tuple List; dropped", pdu)
                return
            }
            count += 1
        }
        guard count > 0 else {
            warn("Multiple Handle Value Notification without any value; dropped", pdu)
            return
        }
        var r = ByteReader(parameters)
        while !r.isAtEnd {
            guard let handle = try? r.u16(), let length = try? r.u16(), let value = try? r.bytes(Int(length)) else { return }
            output.deliver(.notification(link, attributeHandle: handle, value: value))
        }
    }

    func warn(_ message: String, _ bytes: ArraySlice<UInt8> = []) {
        output.deliver(.warning(HostWarning("\(link): " + message, bytes: Array(bytes))))
    }
}

/// A procedure and whom it runs for.
struct GATTJob {
    enum Owner {
        case user(OperationID)
        case plan(GATTPlanTask)
    }

    let procedure: GATTProcedure
    let owner: Owner
    /// The value handle whose registration this job adds (a subscription): taken back if the
    /// CCCD write fails.
    var registration: UInt16? = nil
    /// Its request was refused for lack of security once already: a second refusal stands.
    var retriedForSecurity = false
}
