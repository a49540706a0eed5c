import Wire

extension HCIHost {
    // MARK: The initiator (what goes to the controller when: HCIHost+Schedule)

    var ownAddressType: LEOwnAddressType {
        (controllerInfo?.ownAddress.type.isRandom ?? false) ? .randomDevice : .publicDevice
    }

    /// Legacy or extended commands, decided by the first scan or connection after a reset
    /// (a controller may refuse a mix, Vol 4, Part E, §3.1.1).
    func usesExtendedCommands(preferred: Bool) -> Bool {
        if let decided = initiator.usesExtendedCommands { return decided }
        let extended = preferred && controllerHasExtendedCommands
        initiator.usesExtendedCommands = extended
        return extended
    }

    private var controllerHasExtendedCommands: Bool {
        guard let info = controllerInfo, info.supportsExtendedAdvertising else { return false }
        guard info.supportedCommands.count >= HCISupportedCommands.length else { return true }
        let bitmap = HCISupportedCommands(octets: info.supportedCommands)
        return bitmap.supports(HCIOpcode.leSetExtendedScanParameters) == true
            && bitmap.supports(HCIOpcode.leSetExtendedScanEnable) == true
            && bitmap.supports(HCIOpcode.leExtendedCreateConnection) == true
    }

    func sendCreateConnection(to peer: DeviceAddress, link id: LinkID,
                              filterPolicy: LEInitiatorFilterPolicy = .peerAddress) {
        let p = configuration.connectionParameters
        if usesExtendedCommands(preferred: configuration.scan.preferExtended) {
            let phy = LEExtendedCreateConnection.PHYParameters(
                phy: .le1M, scanInterval: configuration.initiatorScanInterval,
                scanWindow: configuration.initiatorScanWindow,
                connectionIntervalMin: p.intervalMin, connectionIntervalMax: p.intervalMax, maxLatency: p.latency,
                supervisionTimeout: p.supervisionTimeout, minCELength: p.minCELength, maxCELength: p.maxCELength)
            send(LEExtendedCreateConnection(initiatorFilterPolicy: filterPolicy, ownAddressType: ownAddressType,
                                            peerAddressType: peer.type, peerAddress: peer.address, phys: [phy]),
                 purpose: .createConnection(id))
        } else {
            send(LECreateConnection(scanInterval: configuration.initiatorScanInterval,
                                    scanWindow: configuration.initiatorScanWindow,
                                    initiatorFilterPolicy: filterPolicy, peerAddressType: peer.type,
                                    peerAddress: peer.address, ownAddressType: ownAddressType,
                                    connectionIntervalMin: p.intervalMin, connectionIntervalMax: p.intervalMax,
                                    maxLatency: p.latency, supervisionTimeout: p.supervisionTimeout,
                                    minCELength: p.minCELength, maxCELength: p.maxCELength),
                 purpose: .createConnection(id))
        }
    }

    func sendCancel(_ attempt: inout Initiator.Attempt, reason: Initiator.CancelReason, at now: HostTime) {
        attempt.phase = .cancelling(reason)
        attempt.deadline = now &+ configuration.createConnectionCancelTimeout
        send(LECreateConnectionCancel(), purpose: .createConnectionCancel)
    }

    /// Command Status of LE (Extended) Create Connection.
    func createConnectionAnswered(link id: LinkID, status: HCIStatus, opcode: HCIOpcode, at now: HostTime) {
        guard var attempt = initiator.pending, attempt.link == id || attempt.link == nil,
              attempt.phase == .awaitingStatus else {
            warn("Command Status \(status) for \(opcode.name) of \(id), which is not the pending attempt")
            return
        }
        if attempt.acceptList != nil {
            acceptListCreateAnswered(attempt, status: status, opcode: opcode, at: now)
            return
        }
        if status.isSuccess {
            if let reason = attempt.cancelOnStatus {
                sendCancel(&attempt, reason: reason, at: now)
            } else {
                attempt.phase = .awaitingComplete
                // A link that regrouped keeps the timeout of its first create.
                let timeout = linkTable.record(id)?.plan.connectTimeout ?? LinkPlan().connectTimeout
                attempt.deadline = initiator.carriedDeadlines[id] ?? now &+ timeout
            }
            initiator.pending = attempt
            // Links queued meanwhile may join it now (`ControllerSchedule.canJoin`).
            runSchedule(at: now)
            return
        }
        initiator.pending = nil
        guard attempt.link != nil else {
            runSchedule(at: now)
            return
        }
        if attempt.cancelOnStatus == .user {
            linkTable.attemptCancelled(id, at: now)
        } else if status == .commandDisallowed, !scanner.isQuiet, !initiator.scanConflictLearned {
            // This controller cannot initiate while scanning: the scan stops (`ControllerSchedule`)
            // and the create goes again once it has. For the link table the attempt goes on.
            initiator.scanConflictLearned = true
            linkTable.attemptStarted(id, waitingFor: .controllerTurn, at: now)
        } else {
            linkTable.attemptFailed(id, error: .commandFailed(opcode, status), at: now)
        }
        runSchedule(at: now)
    }

    /// Connect timeout (→ LE Create Connection Cancel) and the cancel guard (a controller that
    /// never reports the cancelled attempt).
    func initiatorTimer(at now: HostTime) {
        guard var attempt = initiator.pending, let deadline = attempt.deadline, deadline <= now else { return }
        switch attempt.phase {
        case .awaitingComplete where attempt.acceptList != nil:
            acceptListTimer(attempt, at: now)
        case .awaitingComplete:
            if let id = attempt.link { attemptTimedOut(id) }
            sendCancel(&attempt, reason: .timeout, at: now)
            initiator.pending = attempt
        case let .cancelling(reason):
            if commands.isWaiting(where: { $0 == .createConnectionCancel })
                || commands.isInFlight(where: { $0 == .createConnectionCancel }) {
                // The guard runs from the controller's answer: while the cancel is not sent or
                // not answered, the controller may still be initiating, and giving up now would
                // let the next LE Create Connection meet the old one.
                attempt.deadline = now &+ configuration.createConnectionCancelTimeout
                initiator.pending = attempt
                return
            }
            initiator.pending = nil
            if let members = attempt.acceptList {
                warn("no LE Connection Complete after LE Create Connection Cancel of the create with the Filter Accept List; taking it as ended")
                requeue(members.map(\.link), at: now)
            } else {
                warn("no LE Connection Complete after LE Create Connection Cancel for \(attempt.peer); taking the attempt as ended")
            }
            if let id = attempt.link, attempt.acceptList == nil {
                switch reason {
                case .timeout: linkTable.attemptFailed(id, error: .connectTimeout(attempt.peer), at: now)
                case .user: linkTable.attemptCancelled(id, at: now)
                case .regroup: requeue([id], at: now)
                }
            }
            runSchedule(at: now)
        case .awaitingStatus:
            attempt.deadline = nil
            initiator.pending = attempt
        }
    }

    /// LE Connection Complete, or either Enhanced version (the controller picks; Bumble sends
    /// the legacy one even after LE Extended Create Connection).
    func connectionComplete(_ e: LEConnectionCompleteEvent, peerRPA: BDAddress? = nil, at now: HostTime) {
        if !e.status.isSuccess {
            guard let attempt = initiator.pending else {
                warn("LE Connection Complete with status \(e.status) and no connection pending")
                return
            }
            guard attempt.phase != .awaitingStatus else {
                // The controller reports an attempt only after its Command Status (§7.8.12), so
                // this one is stale (an earlier attempt's cancel, say). Taking it as the end of
                // the current attempt would leave its LE Create Connection queued or pending at
                // the controller while the host starts another one.
                warn("LE Connection Complete with status \(e.status) before the Command Status of the pending LE Create Connection, ignored")
                return
            }
            if attempt.acceptList != nil {
                _ = acceptListConnectionComplete(e, attempt: attempt, at: now)
                runSchedule(at: now)
                return
            }
            initiator.pending = nil
            if let id = attempt.link {
                switch attempt.phase {
                case .cancelling(.user):
                    linkTable.attemptCancelled(id, at: now)
                case .cancelling(.regroup) where e.status == .unknownConnectionIdentifier:
                    // Ended to let waiting links join: it goes again with them.
                    requeue([id], at: now)
                case .cancelling(.timeout) where e.status == .unknownConnectionIdentifier:
                    linkTable.attemptFailed(id, error: .connectTimeout(attempt.peer), at: now)
                default:
                    if attempt.cancelOnStatus == .user {
                        linkTable.attemptCancelled(id, at: now)
                    } else {
                        linkTable.attemptFailed(id, error: .connectionFailed(e.status), at: now)
                    }
                }
            }
            runSchedule(at: now)
            return
        }

        let handle = e.connectionHandle
        guard connections[handle] == nil else {
            // A controller fault; disconnecting the handle would take down the link that has it.
            warn("LE Connection Complete for handle \(Hex.number(handle, width: 4)), which is already connected, ignored")
            return
        }
        guard e.role == .central else {
            // This host never advertises: nobody should have connected to it.
            warn("connection \(Hex.number(handle, width: 4)) from \(e.peer) as peripheral; disconnecting it")
            dropStray(handle)
            return
        }
        var link: LinkID?
        var userGaveUp = false
        if let attempt = initiator.pending, attempt.acceptList != nil,
           let member = acceptListConnectionComplete(e, attempt: attempt, at: now) {
            link = member
        } else if let attempt = initiator.pending, attempt.acceptList == nil, attempt.peer.address == e.peerAddress,
           attempt.link != nil || attempt.phase != .awaitingStatus {
            // Ours; if a cancel raced with the connection, the connection wins (unless the
            // application itself gave up on it).
            initiator.pending = nil
            link = attempt.link
            if let id = attempt.link { initiator.carriedDeadlines[id] = nil }
            userGaveUp = attempt.phase == .cancelling(.user) || attempt.cancelOnStatus == .user
            if attempt.phase == .awaitingStatus, let id = attempt.link {
                // A completion only follows its Command Status (§7.8.12), so this connection is an
                // earlier attempt's (one the cancel guard gave up on). This attempt's LE Create
                // Connection must not start another one: dropped if not sent yet, else kept
                // pending without a link and cancelled once the controller acknowledges it.
                if commands.removeWaiting(where: { $0 == .createConnection(id) }).isEmpty {
                    initiator.pending = Initiator.Attempt(link: nil, peer: attempt.peer, phase: .awaitingStatus,
                                                          deadline: nil, cancelOnStatus: .user)
                }
            }
        } else if let r = linkTable.list.first(where: { r in
            guard r.peer.address == e.peerAddress else { return false }
            switch r.phase {
            case .queued, .backoff: return true
            default: return false
            }
        }) {
            // An attempt given up by the cancel guard that connected after all.
            link = r.id
        }
        guard let id = link else {
            warn("unexpected connection \(Hex.number(handle, width: 4)) with \(e.peer); disconnecting it")
            dropStray(handle)
            return
        }
        if userGaveUp {
            dropStray(handle)
            linkTable.attemptCancelled(id, at: now)
            runSchedule(at: now)
            return
        }
        let info = ConnectionInfo(handle: handle, peer: e.peer, interval: e.connectionInterval,
                                  latency: e.peripheralLatency, supervisionTimeout: e.supervisionTimeout)
        // The handle is known to the data path and ACL before the client's first PDU is queued.
        acl.open(handle)
        let linkPeer = linkTable.record(id)?.peer ?? e.peer
        // Pairing uses the address on the air: the peer's RPA when the controller resolved it.
        let onAir = peerRPA.flatMap { $0 == .zero ? nil : DeviceAddress($0, type: .randomDevice) }
            ?? DeviceAddress(e.peer.address, type: e.peer.type.isRandom ? .randomDevice : .publicDevice)
        let (security, holdPlan) = securityForNewConnection(peer: onAir, linkPeer: linkPeer, at: now)
        if let connection = linkTable.connected(id, info: info, holdPlan: holdPlan, at: now) {
            connections[handle] = connection
            connection.security = security
            exchangeFeaturesBeforeEncrypting(connection)
            serviceSecurity(connection, at: now)
        } else {
            acl.close(handle)
            dropStray(handle)
        }
        runSchedule(at: now)
    }

    private func dropStray(_ handle: UInt16) {
        strayHandles.insert(handle)
        // A controller that repeats the completion must not grow the command queue: one
        // Disconnect per handle waiting to be sent is enough.
        guard !commands.isWaiting(where: { $0 == .disconnectStray(handle: handle) }) else { return }
        send(Disconnect(connectionHandle: handle, reason: .remoteUserTerminatedConnection),
             purpose: .disconnectStray(handle: handle))
    }

    // MARK: Link life

    /// The connection is gone (Disconnection Complete, or the controller lost it): the link's
    /// ACL credits come back, its queued packets and commands are dropped (the handle may be
    /// reused), and the link table decides what follows.
    func connectionDown(_ connection: Connection, reason: HCIStatus, at now: HostTime, requeueAtOnce: Bool) {
        let handle = connection.handle
        let id = connection.link
        connections[handle] = nil
        acl.close(handle)
        connection.security?.linkDown()
        commands.removeWaiting { $0 == .disconnect(id) || $0 == .connectionUpdate(id) || $0 == .enableEncryption(id)
            || $0 == .readEncryptionKeySize(id) || $0 == .readRemoteFeatures(id) }
        linkTable.connectionEnded(id, reason: reason, requeueAtOnce: requeueAtOnce, at: now)
    }

    /// The link table gave up an attempt: a queued link has left the queue already (the table
    /// has ended it), an attempt that waits for its turn or its peer's address ends now, and the
    /// pending LE Create Connection is cancelled (`attemptCancelled` follows).
    func cancelAttempt(_ id: LinkID, at now: HostTime) {
        switch linkTable.record(id)?.phase.attempt {
        case .controllerTurn?, .address?:
            linkTable.attemptCancelled(id, at: now)
            runSchedule(at: now)
            return
        case .controller?:
            break
        case .socket?, nil:
            return
        }
        if let attempt = initiator.pending, let members = attempt.acceptList {
            if members.contains(where: { $0.link == id }) { cancelMember(id, of: attempt, at: now) }
            return
        }
        guard var attempt = initiator.pending, attempt.link == id else { return }
        switch attempt.phase {
        case .awaitingStatus:
            if !commands.removeWaiting(where: { $0 == .createConnection(id) }).isEmpty {
                // Never sent: nothing to cancel at the controller.
                initiator.pending = nil
                linkTable.attemptCancelled(id, at: now)
                runSchedule(at: now)
            } else {
                attempt.cancelOnStatus = .user
                initiator.pending = attempt
            }
        case .awaitingComplete:
            sendCancel(&attempt, reason: .user, at: now)
            initiator.pending = attempt
        case .cancelling:
            attempt.phase = .cancelling(.user)
            initiator.pending = attempt
        }
    }

    /// The link table asks for the connection to end: Disconnect (Remote User Terminated
    /// Connection, 0x13); its Disconnection Complete ends it. The table asks once per entry
    /// into `.closing` (a refusal takes the link back to `.up`), so whether Disconnect was sent
    /// is the link's phase; the command queue only guards against a second one meanwhile.
    func closeConnection(_ id: LinkID) {
        guard let c = connection(of: id), !commands.isWaiting(where: { $0 == .disconnect(id) }),
              !commands.isInFlight(where: { $0 == .disconnect(id) }) else { return }
        send(Disconnect(connectionHandle: c.handle, reason: .remoteUserTerminatedConnection), purpose: .disconnect(id))
    }
}
