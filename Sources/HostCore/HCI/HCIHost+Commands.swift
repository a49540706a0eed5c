import Wire

extension HCIHost {
    /// Queues a command; `pollTransmit` hands it out when a command credit allows.
    func send<C: HCICommand>(_ command: C, purpose: CommandPurpose) {
        commands.enqueue(PendingCommand(opcode: C.opcode, packet: command.packet,
                                        completesWithStatus: C.completesWithStatus, purpose: purpose,
                                        timeout: configuration.commandTimeout))
    }

    // MARK: Answers

    func commandCompleteReceived(_ e: CommandCompleteEvent, at now: HostTime) {
        commands.grant(e.numHCICommandPackets)
        guard e.commandOpcode.rawValue != 0 else { return }  // NOP: credits only
        guard let command = commands.answered(opcode: e.commandOpcode) else {
            warn("Command Complete for \(e.commandOpcode.name), which is not pending", e.returnParameters)
            return
        }
        commandAnswered(CommandAnswer(command: command, status: e.leadingStatus ?? .success,
                                      returnParameters: e.returnParameters, isCommandStatus: false), at: now)
    }

    func commandStatusReceived(_ e: CommandStatusEvent, at now: HostTime) {
        commands.grant(e.numHCICommandPackets)
        guard e.commandOpcode.rawValue != 0 else { return }
        guard let command = commands.answered(opcode: e.commandOpcode) else {
            warn("Command Status \(e.status) for \(e.commandOpcode.name), which is not pending")
            return
        }
        commandAnswered(CommandAnswer(command: command, status: e.status, returnParameters: [],
                                      isCommandStatus: true), at: now)
    }

    /// Routes an answer to the part that sent the command. For commands that complete with an
    /// event of their own, a successful Command Status only says the controller started.
    func commandAnswered(_ answer: CommandAnswer, at now: HostTime) {
        let status = answer.status
        switch answer.command.purpose {
        case let .bringUp(step):
            bringUpAnswered(step: step, answer: answer, at: now)
        case .scanParameters:
            scanParametersAnswered(status: status, opcode: answer.command.opcode, at: now)
        case let .scanEnable(on):
            scanEnableAnswered(on: on, status: status, opcode: answer.command.opcode, at: now)
        case let .createConnection(link):
            createConnectionAnswered(link: link, status: status, opcode: answer.command.opcode, at: now)
        case .createConnectionCancel:
            // 0x0C means no create was pending any more: its LE Connection Complete is on the
            // way (or came already); the cancel guard covers a controller that never sends it.
            if !status.isSuccess && status != .commandDisallowed {
                warn("LE Create Connection Cancel failed: \(status)")
            }
            if var attempt = initiator.pending, case .cancelling = attempt.phase {
                // The cancel guard runs from this answer (not only from when the cancel was queued).
                attempt.deadline = max(attempt.deadline ?? 0, now &+ configuration.createConnectionCancelTimeout)
                initiator.pending = attempt
            }
        case let .disconnect(id):
            if !status.isSuccess {
                warn("Disconnect of \(id) failed: \(status)")
                if status == .unknownConnectionIdentifier, let c = connection(of: id),
                   answer.command.connectionHandle == c.handle {
                    // The controller no longer knows the handle: the link is gone.
                    connectionDown(c, reason: status, at: now, requeueAtOnce: false)
                } else {
                    // The connection stays (e.g. Command Disallowed); a later Disconnect may be tried.
                    linkTable.closeRefused(id, at: now)
                }
            }
        case let .disconnectStray(handle):
            if !status.isSuccess {
                strayHandles.remove(handle)
                if status != .unknownConnectionIdentifier {
                    warn("Disconnect of unwanted connection \(Hex.number(handle, width: 4)) failed: \(status)")
                }
            }
        case let .enableEncryption(id):
            enableEncryptionAnswered(id, status: status, handle: answer.command.connectionHandle, at: now)
        case let .readEncryptionKeySize(id):
            encryptionKeySizeAnswered(id, answer: answer, at: now)
        case .readRemoteFeatures:
            if !status.isSuccess, let handle = answer.command.connectionHandle { featuresExchanged(handle: handle) }
        case .longTermKeyNegativeReply:
            if !status.isSuccess { warn("LE Long Term Key Request Negative Reply failed: \(status)") }
        case .privacy:
            privacyAnswered(answer, at: now)
        case .acceptList:
            acceptListAnswered(answer, at: now)
        case .ownAddress:
            ownAddressAnswered(status: status, at: now)
        case let .connectionUpdate(id):
            guard !status.isSuccess else { break }
            warn("LE Connection Update on \(id) failed: \(status)")
            if status == .unknownConnectionIdentifier, let c = connection(of: id),
               answer.command.connectionHandle == c.handle {
                // As for Disconnect: the controller no longer knows the handle (checked against
                // the command's, so that a late answer cannot end the link's next connection).
                connectionDown(c, reason: status, at: now, requeueAtOnce: false)
            }
        }
    }

    /// A command that got neither Command Complete nor Command Status in time. During bring-up
    /// the controller has failed (`.controllerFailed` names the command; `start(at:)` tries
    /// again). Once ready, whether the command took effect is unknown — a create may be pending
    /// at the controller, a scan running, a link gone — so nothing the host believes about the
    /// controller can be trusted: it is reset and brought up again, as on a Hardware Error.
    func commandTimedOut(_ command: PendingCommand, at now: HostTime) {
        let error = HostError.commandTimeout(command.opcode)
        if case .bringUp = command.purpose {
            guard case .bringingUp = phase else { return }
            phase = .failed
            deliver(.controllerFailed(error))
            return
        }
        // Several commands may expire at once: the first restart forgets the others.
        guard phase == .ready else { return }
        restartController(error: error, reason: .connectionTerminatedByLocalHost, at: now)
    }

    // MARK: Bring-up

    func beginBringUp(at now: HostTime) {
        commands.reset()
        acl.reset(capacity: 0, dataLength: 27)
        scanner.controllerReset()
        initiator.controllerReset()
        strayHandles.removeAll()
        controllerInfo = nil
        privateAddress?.controllerReset()
        bringUp = ControllerBringUp(configuration: configuration, resolvablePrivateAddress: privateAddress?.makeAddress())
        sendBringUp(ControllerBringUp.firstStep)
    }

    private func sendBringUp(_ step: BringUpStep) {
        phase = .bringingUp(step)
        commands.enqueue(PendingCommand(opcode: ControllerBringUp.opcode(of: step), packet: bringUp.packet(for: step),
                                        completesWithStatus: false, purpose: .bringUp(step),
                                        timeout: step == .reset ? configuration.resetTimeout : configuration.commandTimeout))
    }

    private func bringUpAnswered(step: BringUpStep, answer: CommandAnswer, at now: HostTime) {
        guard phase == .bringingUp(step) else {
            warn("answer to bring-up command \(answer.command.opcode.name) out of turn, ignored")
            return
        }
        let (outcome, warning) = bringUp.handle(step: step, status: answer.status,
                                                returnParameters: answer.returnParameters)
        if let w = warning { deliver(.warning(w)) }
        switch outcome {
        case let .next(next):
            sendBringUp(next)
        case let .ready(info):
            controllerInfo = info
            phase = .ready
            acl.reset(capacity: info.aclPacketCount, dataLength: info.aclDataLength)
            deliver(.controllerReady(info))
            setUpResolvingList()
            privateAddress?.started(at: now)
            runSchedule(at: now)
        case let .failed(error):
            phase = .failed
            deliver(.controllerFailed(error))
        }
    }

    // MARK: Controller loss

    /// The controller lost everything (Hardware Error, or a restart): every connection is
    /// down, the pending create is gone. Links whose plan has a reconnect policy go back to
    /// the queue at once (no backoff: the peer did nothing wrong).
    func controllerLost(reason: HCIStatus, error: HostError, at now: HostTime) {
        for record in linkTable.attempts(where: Self.isAddressWait) {
            linkTable.attemptFailed(record.id, error: error, requeueAtOnce: true, at: now)
        }
        if let attempt = initiator.pending, let members = attempt.acceptList {
            initiator.pending = nil
            for m in members { linkTable.attemptFailed(m.link, error: error, requeueAtOnce: true, at: now) }
        } else if let attempt = initiator.pending, let id = attempt.link {
            initiator.pending = nil
            if attempt.cancelOnStatus == .user || attempt.phase == .cancelling(.user) {
                linkTable.attemptCancelled(id, at: now)
            } else {
                linkTable.attemptFailed(id, error: error, requeueAtOnce: true, at: now)
            }
        }
        for c in linkTable.list.compactMap({ $0.phase.connection }) where connections[c.handle] === c {
            connectionDown(c, reason: reason, at: now, requeueAtOnce: true)
        }
        if scanner.isScanning { deliver(.scanning(false)) }
        scanner.controllerReset()
        initiator.controllerReset()
    }

    /// Hardware Error event (Core Spec v5.4 Vol 4, Part E, §7.7.16): the controller lost its
    /// state, so the host resets it and brings it up again.
    func hardwareError(code: UInt8, at now: HostTime) {
        let error = HostError.controller("Hardware Error event, code \(Hex.number(code, width: 2)); resetting the controller")
        restartController(error: error, reason: .hardwareFailure, at: now)
    }

    /// Reports `error`, takes every link down with `reason` (those with a reconnect policy go
    /// back to the queue), then HCI_Reset and bring-up again; scanning the application asked
    /// for resumes once the controller is ready.
    func restartController(error: HostError, reason: HCIStatus, at now: HostTime) {
        deliver(.controllerFailed(error))
        controllerLost(reason: reason, error: error, at: now)
        beginBringUp(at: now)
    }
}
