import Wire

/// Creating several links at once with the Filter Accept List (Core Spec v5.4 Vol 4, Part E,
/// §7.8.12, §7.8.14–16; Docs/host-core.md, "Controller states"). With more than one link
/// waiting, their addresses go on the list and LE (Extended) Create Connection uses it
/// (Initiator_Filter_Policy 1): the controller connects whichever peer it hears first, and the
/// create goes again for the others. The list may not change while a create uses it, so a link
/// that joins, and one that leaves, end the create first (LE Create Connection Cancel,
/// `Initiator.CancelReason.regroup`). Scans use filter policy 0, so they never use the list.
extension HCIHost {
    /// Entries one create may put on the list: none without the commands, or once the
    /// controller refused one of them (links then go one at a time).
    var usableAcceptListSize: Int {
        guard !initiator.acceptListRefused, let info = controllerInfo,
              controllerSupports(LEClearFilterAcceptList.opcode),
              controllerSupports(LEAddDeviceToFilterAcceptList.opcode) else { return 0 }
        return info.filterAcceptListSize
    }

    /// The connect deadline a link keeps from a create that ended to regroup; nil for a link
    /// that starts afresh (one taken from the queue).
    func carriedDeadline(_ record: LinkRecord) -> HostTime? {
        guard record.phase.attempt == .controllerTurn else { return nil }
        return initiator.carriedDeadlines[record.id]
    }

    /// Fills the list with the first waiting links (those that wait for a bonded peer's
    /// address aside) and creates with it. The list is only written here, while no create is
    /// pending, so it never changes under one.
    func startAcceptListAttempt(at now: HostTime) {
        let size = usableAcceptListSize
        var members: [Initiator.Member] = []
        var carried: [LinkID: HostTime] = [:]
        for record in linkTable.inLine where members.count < size {
            if waitsForAddress(record.id, record, at: now) { continue }
            let deadline = carriedDeadline(record)
            if let d = deadline { carried[record.id] = d }
            // A bonded peer the controller resolves is listed by its identity (the controller
            // matches its RPAs through the resolving list), else by the address it was seen with.
            members.append(Initiator.Member(link: record.id, peer: connectionTarget(record.peer), deadline: deadline))
        }
        // Fewer than two left (the others wait for their address): the schedule asks again and
        // a create to one address follows.
        guard members.count >= 2, let lead = members.first else { return }
        initiator.carriedDeadlines = carried
        send(LEClearFilterAcceptList(), purpose: .acceptList)
        for m in members { send(LEAddDeviceToFilterAcceptList(m.peer), purpose: .acceptList) }
        initiator.pending = Initiator.Attempt(link: lead.link, peer: DeviceAddress(.zero, type: .publicDevice),
                                              phase: .awaitingStatus, deadline: nil, cancelOnStatus: nil,
                                              acceptList: members)
        for m in members { linkTable.attemptStarted(m.link, at: now) }
        sendCreateConnection(to: DeviceAddress(.zero, type: .publicDevice), link: lead.link,
                             filterPolicy: .filterAcceptList)
    }

    /// A waiting link can join the pending create: it is cancelled, and its LE Connection
    /// Complete (0x02) sends the links back to the head of the queue.
    func regroupPendingCreate(at now: HostTime) {
        guard var attempt = initiator.pending, attempt.phase == .awaitingComplete else { return }
        cancel(&attempt, toRegroupAt: now)
        initiator.pending = attempt
    }

    /// LE Create Connection Cancel to regroup; the links' connect deadlines are kept for the
    /// create that follows (the cancel guard takes the attempt's deadline).
    func cancel(_ attempt: inout Initiator.Attempt, toRegroupAt now: HostTime) {
        if let members = attempt.acceptList {
            for m in members { if let d = m.deadline { initiator.carriedDeadlines[m.link] = d } }
        } else if let id = attempt.link, let d = attempt.deadline {
            initiator.carriedDeadlines[id] = d
        }
        sendCancel(&attempt, reason: .regroup, at: now)
    }

    /// The links of an ended create go back to the head of the queue, before every queued link.
    func requeue(_ ids: [LinkID], at now: HostTime) {
        for id in ids { linkTable.attemptStarted(id, waitingFor: .controllerTurn, at: now) }
    }

    /// Answers of LE Clear Filter Accept List and LE Add Device To Filter Accept List. A refusal
    /// (a controller without the list, or one that says it is in use) ends the use of the list:
    /// the create that was to use it does not go, or is cancelled, and links go one at a time.
    func acceptListAnswered(_ answer: CommandAnswer, at now: HostTime) {
        guard !answer.status.isSuccess, !initiator.acceptListRefused else { return }
        initiator.acceptListRefused = true
        warn("\(answer.command.opcode.name) failed: \(answer.status); creating connections one at a time")
        guard var attempt = initiator.pending, let members = attempt.acceptList else { return }
        switch attempt.phase {
        case .awaitingStatus:
            if let id = attempt.link, !commands.removeWaiting(where: { $0 == .createConnection(id) }).isEmpty {
                // Never sent: nothing to cancel at the controller.
                commands.removeWaiting { $0 == .acceptList }
                initiator.pending = nil
                requeue(members.map(\.link), at: now)
                runSchedule(at: now)
                return
            }
            attempt.cancelOnStatus = .regroup
        case .awaitingComplete:
            cancel(&attempt, toRegroupAt: now)
        case .cancelling:
            break
        }
        initiator.pending = attempt
    }

    /// Command Status of a create with the list. Each member's connect timeout starts with
    /// its first create.
    func acceptListCreateAnswered(_ attempt: Initiator.Attempt, status: HCIStatus, opcode: HCIOpcode, at now: HostTime) {
        var attempt = attempt
        let members = attempt.acceptList ?? []
        if status.isSuccess {
            attempt.acceptList = members.map { m in
                var m = m
                if m.deadline == nil {
                    m.deadline = now &+ (linkTable.record(m.link)?.plan.connectTimeout ?? LinkPlan().connectTimeout)
                }
                return m
            }
            attempt.phase = .awaitingComplete
            attempt.deadline = attempt.earliestMemberDeadline
            if attempt.cancelOnStatus != nil || attempt.acceptList?.isEmpty == true {
                attempt.cancelOnStatus = nil
                cancel(&attempt, toRegroupAt: now)
            }
            initiator.pending = attempt
            runSchedule(at: now)
            return
        }
        initiator.pending = nil
        if status == .commandDisallowed, !scanner.isQuiet, !initiator.scanConflictLearned {
            // As for a create to one address: the scan stops first, then the create goes again.
            initiator.scanConflictLearned = true
        } else if attempt.cancelOnStatus == nil {
            initiator.acceptListRefused = true
            warn("\(opcode.name) with the Filter Accept List failed: \(status); creating connections one at a time")
        }
        requeue(members.map(\.link), at: now)
        runSchedule(at: now)
    }

    /// Connect timeouts of members: each leaves the list with `connectTimeout`, and the create
    /// is cancelled to go again for the others.
    func acceptListTimer(_ attempt: Initiator.Attempt, at now: HostTime) {
        var attempt = attempt
        let members = attempt.acceptList ?? []
        let expired = members.filter { ($0.deadline ?? .max) <= now }
        attempt.acceptList = members.filter { ($0.deadline ?? .max) > now }
        for m in expired {
            initiator.carriedDeadlines[m.link] = nil
            attemptTimedOut(m.link)
            linkTable.attemptFailed(m.link, error: .connectTimeout(m.peer), at: now)
        }
        cancel(&attempt, toRegroupAt: now)
        initiator.pending = attempt
    }

    /// The application gave up a member: it leaves at once; the create is cancelled (or will
    /// be, once acknowledged) to go again for the others.
    func cancelMember(_ id: LinkID, of attempt: Initiator.Attempt, at now: HostTime) {
        var attempt = attempt
        attempt.acceptList?.removeAll { $0.link == id }
        initiator.carriedDeadlines[id] = nil
        linkTable.attemptCancelled(id, at: now)
        switch attempt.phase {
        case .awaitingStatus: attempt.cancelOnStatus = .regroup
        case .awaitingComplete: cancel(&attempt, toRegroupAt: now)
        case .cancelling: break
        }
        initiator.pending = attempt
        runSchedule(at: now)
    }

    /// LE Connection Complete while a create with the list is pending: a member connected (its
    /// link is returned; the others go back to the head of the queue), or the create ended
    /// (a regroup's 0x02; any other failure fails the members). Nil when the event is not
    /// about a member.
    func acceptListConnectionComplete(_ e: LEConnectionCompleteEvent, attempt: Initiator.Attempt,
                                      at now: HostTime) -> LinkID? {
        var attempt = attempt
        var members = attempt.acceptList ?? []
        if !e.status.isSuccess {
            initiator.pending = nil
            if case .cancelling = attempt.phase {
                requeue(members.map(\.link), at: now)
            } else {
                for m in members { linkTable.attemptFailed(m.link, error: .connectionFailed(e.status), at: now) }
            }
            return nil
        }
        guard let i = members.firstIndex(where: { $0.peer.address == e.peerAddress }) else { return nil }
        let member = members.remove(at: i)
        initiator.carriedDeadlines[member.link] = nil
        if attempt.phase == .awaitingStatus {
            // A completion follows its Command Status (§7.8.12): this connection is an earlier
            // create's. This one still goes; once acknowledged it is cancelled for the others.
            attempt.acceptList = members
            attempt.cancelOnStatus = .regroup
            initiator.pending = attempt
        } else {
            // The controller stopped initiating with this connection.
            initiator.pending = nil
            for m in members { if let d = m.deadline { initiator.carriedDeadlines[m.link] = d } }
            requeue(members.map(\.link), at: now)
        }
        return member.link
    }
}
