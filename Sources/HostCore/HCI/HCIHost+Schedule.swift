import Wire

extension HCIHost {
    /// Sends what the controller should be asked next (`ControllerSchedule`), step by step,
    /// until the schedule says to wait. Called after every change of what is wanted or of what
    /// the controller answered: a scan wished or withdrawn, a link queued, a create sent,
    /// completed or cancelled, an address rotation due or set.
    func runSchedule(at now: HostTime) {
        // Each step changes the situation; the bound only guards against a step that does not.
        for _ in 0..<16 {
            let wishes = scheduleWishes
            switch ControllerSchedule.next(scheduleSituation(for: wishes, at: now), wishes) {
            case .nothing:
                return
            case let .setScanParameters(c):
                scanner.parametersSent(c)
                sendScanParameters(c)
            case let .enableScan(c):
                scanner.enableSent()
                sendScanEnable(true, filterDuplicates: c.filterDuplicates)
            case .disableScan:
                scanner.disableSent()
                sendScanEnable(false, filterDuplicates: false)
            case .setRandomAddress:
                setNewOwnAddress(at: now)
            case .createConnection:
                startNextAttempt(at: now)
            case .createConnectionFromAcceptList:
                startAcceptListAttempt(at: now)
            case .cancelCreateToRegroup:
                regroupPendingCreate(at: now)
            }
        }
        warn("controller schedule did not settle within 16 steps")
    }

    var scheduleWishes: ControllerSchedule.Wishes {
        // Links to a bonded identity wait for its current RPA: the host scans for it itself.
        ControllerSchedule.Wishes(scan: scanner.wanted ?? (waitsForAnyAddress ? configuration.scan : nil),
                                  waitingLinks: linkTable.inLine.count)
    }

    func scheduleSituation(for wishes: ControllerSchedule.Wishes, at now: HostTime) -> ControllerSchedule.Situation {
        // Whether scanning and initiating go together depends on the scan type that would run.
        let active = scanner.current?.active ?? wishes.scan?.active ?? true
        return ControllerSchedule.Situation(
            ready: phase == .ready, scanner: scanner.phase, scanOnController: scanner.current,
            scanRetryWaiting: scanner.isWaitingToRetry(at: now), createPending: initiator.pending != nil,
            scansWhileInitiating: controllerScansWhileInitiating(active: active),
            rotation: privateAddress?.phase, acceptListSize: usableAcceptListSize,
            createLinks: initiator.pending.map { $0.acceptList?.count ?? 1 } ?? 0,
            createJoinable: initiator.pending.map { $0.phase == .awaitingComplete && $0.cancelOnStatus == nil } ?? false)
    }

    /// LE Create Connection for the first queued link; a link to a bonded identity whose
    /// current address is unknown waits for it to advertise instead.
    private func startNextAttempt(at now: HostTime) {
        guard let record = linkTable.nextInLine else { return }
        let id = record.id
        if waitsForAddress(id, record, at: now) { return }
        // A bonded peer's identity goes to the controller as an identity address, or to the
        // RPA it advertised with (HCIHost+Privacy).
        let peer = connectionTarget(record.peer)
        let carried = carriedDeadline(record)
        initiator.carriedDeadlines = carried.map { [id: $0] } ?? [:]
        initiator.pending = Initiator.Attempt(link: id, peer: peer, phase: .awaitingStatus, deadline: nil,
                                              cancelOnStatus: nil)
        linkTable.attemptStarted(id, at: now)
        sendCreateConnection(to: peer, link: id)
    }
}
