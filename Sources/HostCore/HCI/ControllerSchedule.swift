import Wire

/// What the controller is asked next, decided in one place from what the application wants and
/// what is under way at the controller (BTstack's `hci_run` idea; Docs/host-core.md,
/// "Controller states"). Scanning, the initiator and the rotation of rtstack's own address
/// share one radio and forbid each other in ways real link layers enforce (Core Spec v5.4
/// Vol 4, Part E, §7.8.4, §7.8.10–12), so each refusal rule is one line here rather than a guard
/// in each of the files that want something.
///
/// A pure function of two values: the host builds them, asks for the next step, carries it
/// out (which changes the situation) and asks again until the answer is `.nothing`.
enum ControllerSchedule {
    /// What the controller is doing or has been asked to do, as the host knows it.
    struct Situation: Sendable, Equatable {
        /// Bring-up has finished.
        var ready: Bool
        var scanner: Scanner.Phase
        /// The scan on the controller, or whose parameters are being set.
        var scanOnController: ScanConfiguration?
        /// A refused scan command waits for its retry time.
        var scanRetryWaiting: Bool
        /// An LE Create Connection is pending (sent or queued, until its completion).
        var createPending: Bool
        /// Whether this controller takes scan commands while a create is pending (its LE
        /// Supported States, unless a refusal taught the host otherwise), for the wished scan's
        /// type.
        var scansWhileInitiating: Bool
        /// rtstack's own resolvable private address; nil when it has none.
        var rotation: PrivateAddressRotation.Phase?
        /// Entries the host may put on the Filter Accept List for one create: the controller's
        /// size (LE Read Filter Accept List Size), 0 without the commands or once the controller
        /// refused one. Below 2, links are created one at a time.
        var acceptListSize: Int = 0
        /// The links the pending create is for (1 for a create to one address).
        var createLinks: Int = 0
        /// The pending create is acknowledged and no cancel is asked for: cancelling it would
        /// end it with LE Connection Complete (0x02) and let a waiting link join.
        var createJoinable: Bool = false
    }

    /// What the application (or the host on its behalf) wants of the controller.
    struct Wishes: Sendable, Equatable {
        /// The scan to run: the application's, or the host's own while links wait to see a
        /// bonded peer's current address.
        var scan: ScanConfiguration?
        /// Links waiting for the controller (the initiator queue).
        var waitingLinks: Int

        var connect: Bool { waitingLinks > 0 }
    }

    enum Step: Sendable, Equatable {
        case nothing
        case setScanParameters(ScanConfiguration)
        case enableScan(ScanConfiguration)
        case disableScan
        /// LE Set Random Address with a fresh resolvable private address.
        case setRandomAddress
        /// LE (Extended) Create Connection for the first link of the queue.
        case createConnection
        /// LE Clear Filter Accept List, LE Add Device To Filter Accept List for the first links
        /// of the queue (as many as the list holds), and LE (Extended) Create Connection with
        /// Initiator_Filter_Policy 1.
        case createConnectionFromAcceptList
        /// LE Create Connection Cancel, so that the create goes again with the waiting links on
        /// the Filter Accept List (`Initiator.CancelReason.regroup`).
        case cancelCreateToRegroup
    }

    /// The scan the controller should run now: the wish, unless something else needs the
    /// controller not to scan.
    static func scanTarget(_ s: Situation, _ w: Wishes) -> ScanConfiguration? {
        guard let wanted = w.scan else { return nil }
        // LE Set Random Address is disallowed while scanning (§7.8.4): the scan pauses for it,
        // but only once no create is pending (the rotation waits for that first).
        if let r = s.rotation, r != .idle, !s.createPending { return nil }
        // A controller that cannot scan while initiating: the scan waits for the queue to empty.
        if (s.createPending || w.connect) && !s.scansWhileInitiating { return nil }
        return wanted
    }

    /// The next command, or `.nothing` while the controller must be waited for.
    static func next(_ s: Situation, _ w: Wishes) -> Step {
        guard s.ready else { return .nothing }
        let scan = scanStep(s, toward: scanTarget(s, w))
        // The pending create holds the rotation and the next create back until it completes.
        if s.createPending { return scan != .nothing ? scan : (canJoin(s, w) ? .cancelCreateToRegroup : .nothing) }
        switch s.rotation {
        case .due?:
            // The scan stops first (the target is nil); the address goes once it is quiet.
            if scan != .nothing { return scan }
            return isQuiet(s.scanner) ? .setRandomAddress : .nothing
        case .setting?:
            return scan
        case .idle?, nil:
            break
        }
        guard w.connect else { return scan }
        // Towards the target first (a disable the create must wait for, or parameters a
        // controller that scans while initiating takes beside it).
        if scan != .nothing { return scan }
        if !isQuiet(s.scanner) && !s.scansWhileInitiating { return .nothing }
        // One link waiting, or no list to use: a create to one address (filter policy 0).
        return w.waitingLinks >= 2 && s.acceptListSize >= 2 ? .createConnectionFromAcceptList : .createConnection
    }

    /// Whether a waiting link should join the pending create. The Filter Accept List may not
    /// change while a create uses it (§7.8.16), so joining means cancelling: only an
    /// acknowledged create (a cancel before its Command Status has nothing to cancel), and only
    /// while the list has room.
    static func canJoin(_ s: Situation, _ w: Wishes) -> Bool {
        s.createJoinable && w.waitingLinks > 0 && s.acceptListSize >= 2 && s.createLinks < s.acceptListSize
    }

    /// The scan command that brings the controller towards `target`; none while a scan
    /// command is under way or a refused one waits for its retry.
    static func scanStep(_ s: Situation, toward target: ScanConfiguration?) -> Step {
        switch s.scanner {
        case .idle:
            guard !s.scanRetryWaiting, let t = target else { return .nothing }
            return .setScanParameters(t)
        case .parametersSet:
            // Scanning is disabled: the parameters may be set again for another target.
            guard let t = target else { return .nothing }
            return t == s.scanOnController ? .enableScan(t) : .setScanParameters(t)
        case .scanning:
            return target == s.scanOnController ? .nothing : .disableScan
        case .settingParameters, .enabling, .disabling:
            return .nothing
        }
    }

    /// Nothing scan-related on the controller that a create or LE Set Random Address would
    /// meet.
    static func isQuiet(_ phase: Scanner.Phase) -> Bool {
        phase == .idle || phase == .parametersSet
    }
}
