import Testing
@testable import HostCore

/// The controller schedule as a table: (what is under way × what is wanted) → the next command.
/// Each row is one rule of Docs/host-core.md, "Controller states" (Core Spec v5.4 Vol 4, Part E,
/// §7.8.4, §7.8.10–12), named by what it guards against.
@Suite struct ControllerScheduleTests {
    static let scan = ScanConfiguration()
    static let passive: ScanConfiguration = {
        var c = ScanConfiguration()
        c.active = false
        return c
    }()

    typealias Row = ScheduleRow<ControllerSchedule.Situation, ControllerSchedule.Wishes, ControllerSchedule.Step>

    /// A ready controller that scans while initiating, doing nothing, nothing wanted.
    static let quiet = ControllerSchedule.Situation(ready: true, scanner: .idle, scanOnController: nil,
                                                    scanRetryWaiting: false, createPending: false,
                                                    scansWhileInitiating: true, rotation: nil)
    static let none = ControllerSchedule.Wishes(scan: nil, waitingLinks: 0)

    static func row(_ rule: String, _ expected: ControllerSchedule.Step,
                    _ change: (inout ControllerSchedule.Situation, inout ControllerSchedule.Wishes) -> Void) -> Row {
        Row(rule, expected, from: quiet, none, change)
    }

    static let rows: [Row] = [
        row("nothing is sent before bring-up has finished", .nothing) { s, w in
            s.ready = false; w.scan = scan; w.waitingLinks = 1 },
        row("nothing wanted, nothing sent", .nothing) { _, _ in },
        row("a wished scan starts with its parameters", .setScanParameters(scan)) { _, w in w.scan = scan },
        row("one scan command at a time: none while the parameters are being set", .nothing) { s, w in
            s.scanner = .settingParameters; s.scanOnController = scan; w.scan = scan },
        row("one scan command at a time: none while the enable is under way", .nothing) { s, w in
            s.scanner = .enabling; s.scanOnController = scan; w.scan = scan },
        row("one scan command at a time: none while the disable is under way", .nothing) { s, w in
            s.scanner = .disabling; s.scanOnController = scan; w.scan = scan },
        row("scan enable only after its parameters were accepted", .enableScan(scan)) { s, w in
            s.scanner = .parametersSet; s.scanOnController = scan; w.scan = scan },
        row("parameters set for an old wish are set again (scanning is disabled)", .setScanParameters(passive)) { s, w in
            s.scanner = .parametersSet; s.scanOnController = scan; w.scan = passive },
        row("a running scan that is still wanted is left alone", .nothing) { s, w in
            s.scanner = .scanning; s.scanOnController = scan; w.scan = scan },
        row("a withdrawn scan is disabled", .disableScan) { s, _ in
            s.scanner = .scanning; s.scanOnController = scan },
        row("parameters are never changed while scanning (§7.8.10): the scan is disabled first", .disableScan) { s, w in
            s.scanner = .scanning; s.scanOnController = scan; w.scan = passive },
        row("a refused scan command waits for its retry time", .nothing) { s, w in
            s.scanRetryWaiting = true; w.scan = scan },
        row("no scan parameters while a create is pending on a controller that cannot scan while initiating", .nothing) { s, w in
            s.createPending = true; s.scansWhileInitiating = false; w.scan = scan },
        row("a controller that can scan while initiating takes scan parameters beside a pending create", .setScanParameters(scan)) { s, w in
            s.createPending = true; w.scan = scan },
        row("a scan still running when a create was sent on a controller that cannot do both is disabled", .disableScan) { s, w in
            s.createPending = true; s.scansWhileInitiating = false; s.scanner = .scanning; s.scanOnController = scan; w.scan = scan },
        row("one LE Create Connection at a time (§7.8.12): none while one is pending", .nothing) { s, w in
            s.createPending = true; w.waitingLinks = 1 },
        row("a queued link is created at once on a quiet controller", .createConnection) { _, w in w.waitingLinks = 1 },
        row("a queued link stops the scan of a controller that cannot scan while initiating", .disableScan) { s, w in
            s.scansWhileInitiating = false; s.scanner = .scanning; s.scanOnController = scan; w.scan = scan; w.waitingLinks = 1 },
        row("the create waits for the scan disable's answer", .nothing) { s, w in
            s.scansWhileInitiating = false; s.scanner = .disabling; s.scanOnController = scan; w.scan = scan; w.waitingLinks = 1 },
        row("the create goes once the scan is down, and the scan waits for the queue to empty", .createConnection) { s, w in
            s.scansWhileInitiating = false; w.scan = scan; w.waitingLinks = 1 },
        row("parameters accepted but not enabled do not hold a create back", .createConnection) { s, w in
            s.scansWhileInitiating = false; s.scanner = .parametersSet; s.scanOnController = scan; w.scan = scan; w.waitingLinks = 1 },
        row("a controller that scans while initiating gets the scan first, then the create", .setScanParameters(scan)) { _, w in
            w.scan = scan; w.waitingLinks = 1 },
        row("a controller that scans while initiating takes the create while the scan starts", .createConnection) { s, w in
            s.scanner = .settingParameters; s.scanOnController = scan; w.scan = scan; w.waitingLinks = 1 },
        row("a due own address waits for the pending create (§7.8.4)", .nothing) { s, w in
            s.rotation = .due; s.createPending = true; w.waitingLinks = 1 },
        row("the scan goes on beside a pending create while an own address is due", .nothing) { s, w in
            s.rotation = .due; s.createPending = true; s.scanner = .scanning; s.scanOnController = scan; w.scan = scan },
        row("a due own address stops the scan first (§7.8.4)", .disableScan) { s, w in
            s.rotation = .due; s.scanner = .scanning; s.scanOnController = scan; w.scan = scan; w.waitingLinks = 1 },
        row("a due own address waits for the scan disable's answer", .nothing) { s, w in
            s.rotation = .due; s.scanner = .disabling; s.scanOnController = scan; w.scan = scan },
        row("a due own address is set on a quiet controller, before any create", .setRandomAddress) { s, w in
            s.rotation = .due; w.scan = scan; w.waitingLinks = 1 },
        row("no create and no scan while LE Set Random Address is at the controller", .nothing) { s, w in
            s.rotation = .setting(.zero); w.scan = scan; w.waitingLinks = 1 },
        row("with the address set, the create goes first", .createConnection) { s, w in
            s.rotation = .idle; s.scansWhileInitiating = false; w.scan = scan; w.waitingLinks = 1 },
        row("with the address set and nothing queued, the scan resumes", .setScanParameters(scan)) { s, w in
            s.rotation = .idle; w.scan = scan },
        row("two links waiting and a Filter Accept List: one create with the list", .createConnectionFromAcceptList) { s, w in
            s.acceptListSize = 8; w.waitingLinks = 2 },
        row("one link waiting keeps the create to its address (filter policy 0)", .createConnection) { s, w in
            s.acceptListSize = 8; w.waitingLinks = 1 },
        row("a list of one entry creates one link at a time", .createConnection) { s, w in
            s.acceptListSize = 1; w.waitingLinks = 3 },
        row("no list to use (none, or refused) creates one link at a time", .createConnection) { s, w in
            s.acceptListSize = 0; w.waitingLinks = 3 },
        row("the create with the list waits for the scan to stop like any create", .disableScan) { s, w in
            s.acceptListSize = 8; s.scansWhileInitiating = false; s.scanner = .scanning; s.scanOnController = scan
            w.scan = scan; w.waitingLinks = 2 },
        row("the list may not change under a pending create (§7.8.16): a link joins by cancelling it", .cancelCreateToRegroup) { s, w in
            s.acceptListSize = 8; s.createPending = true; s.createLinks = 1; s.createJoinable = true; w.waitingLinks = 1 },
        row("no cancel before the create's Command Status (nothing to cancel yet)", .nothing) { s, w in
            s.acceptListSize = 8; s.createPending = true; s.createLinks = 1; s.createJoinable = false; w.waitingLinks = 1 },
        row("a full list: the waiting link waits for the create to end", .nothing) { s, w in
            s.acceptListSize = 2; s.createPending = true; s.createLinks = 2; s.createJoinable = true; w.waitingLinks = 1 },
        row("without a list to use a pending create is never cancelled for a waiting link", .nothing) { s, w in
            s.acceptListSize = 0; s.createPending = true; s.createLinks = 1; s.createJoinable = true; w.waitingLinks = 1 },
        row("nothing waiting: the pending create is left alone", .nothing) { s, w in
            s.acceptListSize = 8; s.createPending = true; s.createLinks = 2; s.createJoinable = true },
        row("a scan command goes before a cancel to regroup", .setScanParameters(scan)) { s, w in
            s.acceptListSize = 8; s.createPending = true; s.createLinks = 1; s.createJoinable = true
            w.scan = scan; w.waitingLinks = 1 },
    ]

    @Test(arguments: rows)
    func theScheduleSendsOnlyWhatTheControllerStateAllows(_ row: Row) {
        #expect(ControllerSchedule.next(row.situation, row.wishes) == row.expected)
    }

    /// Played forward from a quiet controller, the schedule never asks for two commands that
    /// exclude each other and always reaches the wished end state.
    @Test(arguments: [false, true])
    func aQueuedLinkAndAWishedScanEndWithBothOnAnyController(scansWhileInitiating: Bool) {
        var s = Self.quiet
        s.scansWhileInitiating = scansWhileInitiating
        var w = ControllerSchedule.Wishes(scan: Self.scan, waitingLinks: 1)
        var sent: [ControllerSchedule.Step] = []
        for _ in 0..<12 {
            let step = ControllerSchedule.next(s, w)
            if step == .nothing {
                // Let the controller answer whatever is under way.
                switch s.scanner {
                case .settingParameters: s.scanner = .parametersSet
                case .enabling: s.scanner = .scanning
                case .disabling: s.scanner = .idle; s.scanOnController = nil
                default:
                    guard s.createPending else { break }
                    s.createPending = false
                    continue
                }
                continue
            }
            sent.append(step)
            switch step {
            case let .setScanParameters(c): s.scanner = .settingParameters; s.scanOnController = c
            case .enableScan: s.scanner = .enabling
            case .disableScan: s.scanner = .disabling
            case .createConnection:
                #expect(scansWhileInitiating || ControllerSchedule.isQuiet(s.scanner))
                s.createPending = true
                w.waitingLinks = 0
            case .setRandomAddress, .nothing, .createConnectionFromAcceptList, .cancelCreateToRegroup:
                Issue.record("unexpected \(step)")
            }
        }
        #expect(sent.filter { $0 == .createConnection }.count == 1)
        #expect(s.scanner == .scanning)
        #expect(!s.createPending)
    }
}
