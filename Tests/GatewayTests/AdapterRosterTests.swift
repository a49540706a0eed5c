import HostCore
import Testing
@testable import Gateway

@Suite struct AdapterRosterTests {
    static let s = HostDuration.seconds(1)

    @Test func aLostAdapterIsOpenedAgainAfterOneSecondThenTwiceAsLateUpToThirtySeconds() {
        var r = AdapterRoster()
        r.add(name: "hci0", backend: .userChannel)
        var now: HostTime = 100 * Self.s
        var waits: [HostTime] = []
        for _ in 0..<7 {
            r.failed(0, at: now)
            let due = r.nextDeadline!
            waits.append((due - now) / Self.s)
            #expect(r.takeDue(at: due - 1).isEmpty)
            #expect(r.takeDue(at: due) == [0])
            now = due
        }
        #expect(waits == [1, 2, 4, 8, 16, 30, 30])
    }

    @Test func anAdapterThatOpenedWaitsTheShortestTimeAfterItsNextLoss() {
        var r = AdapterRoster()
        r.add(name: "hci0", backend: .userChannel)
        r.failed(0, at: 0)
        r.failed(0, at: 0)
        r.failed(0, at: 0)
        #expect(r.hasFailed(0))
        r.opened(0)
        #expect(!r.hasFailed(0) && r.entries[0].state == .open && r.nextDeadline == nil)
        r.failed(0, at: 10 * Self.s)
        #expect(r.nextDeadline == 11 * Self.s)
    }

    @Test func anAdapterBeingOpenedIsNotHandedOutTwice() {
        var r = AdapterRoster()
        r.add(name: "hci0", backend: .userChannel, dueAt: 5)
        #expect(r.takeDue(at: 5) == [0])
        #expect(r.entries[0].state == .opening && r.nextDeadline == nil)
        #expect(r.takeDue(at: 500 * Self.s).isEmpty)
    }

    @Test func aRetiredAdapterIsNeverOpenedAgain() {
        var r = AdapterRoster()
        r.add(name: "hci0", backend: .userChannel)
        r.failed(0, at: 0)
        r.retire(0)
        r.failed(0, at: 0)
        r.opened(0)
        #expect(r.entries[0].state == .retired && r.nextDeadline == nil && r.takeDue(at: .max).isEmpty)
    }

    @Test func aReloadRetiresTheAdaptersItNoLongerNamesAndAddsTheNewOnes() {
        var r = AdapterRoster()
        r.add(name: "hci0", backend: .userChannel)
        r.add(name: "hci1", backend: .kernel)
        let (retire, add) = r.changes(for: ["hci1", "tcp:127.0.0.1:9000"])
        #expect(retire == [0] && add == ["tcp:127.0.0.1:9000"])
        r.retire(0)
        // A retired name that comes back is a new adapter, at the end.
        #expect(r.changes(for: ["hci0", "hci1"]) == ([], ["hci0"]))
    }
}

@Suite struct BrokerStopSequenceTests {
    static let s = HostDuration.seconds(1)

    @Test func theClientStopsAtOnceWhenNothingIsQueued() {
        var b = BrokerStopSequence()
        let stops = b.shouldStopClient(connected: true, queued: 0, at: 10)
        #expect(stops)
        #expect(b.deadline == 10 + BrokerStopSequence.stopLimit)
    }

    @Test func queuedMessagesGetThreeSecondsToBeAcknowledgedBeforeTheClientStops() {
        var b = BrokerStopSequence()
        let start: HostTime = 10 * Self.s
        let atStart = b.shouldStopClient(connected: true, queued: 4, at: start)
        #expect(!atStart)
        #expect(b.deadline == start + 3 * Self.s)
        let justBefore = b.shouldStopClient(connected: true, queued: 2, at: start + 3 * Self.s - 1)
        #expect(!justBefore)
        let atTheLimit = b.shouldStopClient(connected: true, queued: 2, at: start + 3 * Self.s)
        #expect(atTheLimit)
    }

    @Test func aBrokerThatIsAwayDoesNotHoldTheStop() {
        var b = BrokerStopSequence()
        let stops = b.shouldStopClient(connected: false, queued: 100, at: 10)
        #expect(stops)
    }

    @Test func theClientIsAskedToStopOnce() {
        var b = BrokerStopSequence()
        let first = b.shouldStopClient(connected: true, queued: 0, at: 10)
        #expect(first)
        let second = b.shouldStopClient(connected: true, queued: 0, at: 11)
        #expect(!second)
        #expect(b.stopRequested)
    }

    @Test func theLoopEndsWhenTheClientHasStoppedOrTwoSecondsAfterAskingIt() {
        var b = BrokerStopSequence()
        #expect(!b.shouldEndLoop(clientStopped: false, at: 10))
        #expect(b.shouldEndLoop(clientStopped: true, at: 10))
        let asked: HostTime = 20 * Self.s
        _ = b.shouldStopClient(connected: true, queued: 0, at: asked)
        #expect(!b.shouldEndLoop(clientStopped: false, at: asked + 2 * Self.s - 1))
        #expect(b.shouldEndLoop(clientStopped: false, at: asked + 2 * Self.s))
    }
}
