import Testing
@testable import HostCore

/// The kernel host's management schedule as a table: (what is under way × what is wanted) →
/// the next step. Each row is one rule of Docs/host-core.md, "The kernel backend's schedule",
/// named by what it guards against.
@Suite struct ManagementScheduleTests {
    typealias Row = ScheduleRow<ManagementSchedule.Situation, ManagementSchedule.Wishes, ManagementSchedule.Step>

    /// A ready adapter doing nothing, nothing wanted.
    static let quiet = ManagementSchedule.Situation(ready: true, discovering: false, discoveryCommandPending: false,
                                                    commandPending: false, discoveryRetryWaiting: false,
                                                    cycleDue: false, connecting: false, adapterKnown: true)
    static let none = ManagementSchedule.Wishes(scan: false, connect: false)

    static func row(_ rule: String, _ expected: ManagementSchedule.Step,
                    _ change: (inout ManagementSchedule.Situation, inout ManagementSchedule.Wishes) -> Void) -> Row {
        Row(rule, expected, from: quiet, none, change)
    }

    static let rows: [Row] = [
        row("nothing is sent before bring-up has finished (or while the adapter is away)", .nothing) { s, w in
            s.ready = false; w.scan = true; w.connect = true },
        row("nothing wanted, nothing sent", .nothing) { _, _ in },
        row("a wished scan starts discovery", .startDiscovery) { _, w in w.scan = true },
        row("a running discovery that is still wanted is left alone", .nothing) { s, w in
            s.discovering = true; w.scan = true },
        row("a withdrawn scan stops discovery", .stopDiscovery) { s, _ in s.discovering = true },
        row("one discovery command at a time: no start while one is pending", .nothing) { s, w in
            s.discoveryCommandPending = true; s.commandPending = true; w.scan = true },
        row("one discovery command at a time: no stop while one is pending", .nothing) { s, _ in
            s.discovering = true; s.discoveryCommandPending = true; s.commandPending = true },
        row("a refused Start Discovery waits for its retry time", .nothing) { s, w in
            s.discoveryRetryWaiting = true; w.scan = true },
        row("another command in flight does not hold a start back (commands queue behind it)", .startDiscovery) { s, w in
            s.commandPending = true; w.scan = true },
        row("a queued link stops discovery (the kernel refuses discovery while it connects)", .stopDiscovery) { s, w in
            s.discovering = true; w.scan = true; w.connect = true },
        row("discovery does not start while a link waits to connect", .openChannel) { _, w in
            w.scan = true; w.connect = true },
        row("discovery does not start while a socket connects", .nothing) { s, w in
            s.connecting = true; w.scan = true },
        row("the socket waits for Stop Discovery's answer", .nothing) { s, w in
            s.discovering = true; s.discoveryCommandPending = true; s.commandPending = true; w.scan = true; w.connect = true },
        row("the socket waits for a Start Discovery already sent (then stops it)", .nothing) { s, w in
            s.discoveryCommandPending = true; s.commandPending = true; w.connect = true },
        row("one socket connects at a time", .nothing) { s, w in
            s.connecting = true; w.connect = true },
        row("a queued link gets its socket on a quiet adapter", .openChannel) { _, w in w.connect = true },
        row("no socket before the adapter's address is known", .nothing) { s, w in
            s.adapterKnown = false; w.connect = true },
        row("a discovery whose cycle came is stopped (to be started again)", .stopDiscovery) { s, w in
            s.discovering = true; s.cycleDue = true; w.scan = true },
        row("a cycle that comes while another command holds the channel is skipped", .nothing) { s, w in
            s.discovering = true; s.cycleDue = true; s.commandPending = true; w.scan = true },
        row("a cycle that comes when discovery has stopped already starts it", .startDiscovery) { s, w in
            s.cycleDue = true; w.scan = true },
    ]

    @Test(arguments: rows)
    func theScheduleSendsOnlyWhatTheKernelTakes(_ row: Row) {
        #expect(ManagementSchedule.next(row.situation, row.wishes) == row.expected)
    }

    /// Played forward with a scan wished and two links queued, the schedule connects both, one
    /// at a time and never while discovery runs, and ends with discovery running.
    @Test func twoQueuedLinksAndAWishedScanEndWithBothConnectedAndDiscoveryRunning() {
        var s = Self.quiet
        s.discovering = true
        var queued = 2
        var opened = 0
        var w = ManagementSchedule.Wishes(scan: true, connect: true)
        for _ in 0..<16 {
            let step = ManagementSchedule.next(s, w)
            switch step {
            case .nothing:
                // Let the kernel answer whatever is under way.
                if s.discoveryCommandPending {
                    s.discoveryCommandPending = false
                    s.commandPending = false
                    s.discovering.toggle()
                } else if s.connecting {
                    s.connecting = false
                }
            case .startDiscovery, .stopDiscovery:
                #expect(!s.discoveryCommandPending)
                s.discoveryCommandPending = true
                s.commandPending = true
            case .openChannel:
                #expect(!s.discovering && !s.connecting && !s.discoveryCommandPending)
                s.connecting = true
                queued -= 1
                opened += 1
                w.connect = queued > 0
            }
        }
        #expect(opened == 2)
        #expect(s.discovering)
        #expect(!s.connecting)
    }
}
