import HostCore
import Runtime
import Testing
import Wire

@Suite struct AdapterPumpTests {
    let host = QueuedHost()
    let io: ScriptedAdapterIO
    let sink = RecordingSink()

    init() { io = ScriptedAdapterIO(host: host) }

    @Test func settlingHandsOnOutputsAndEventsUntilBothAreQuiet() {
        let pump = AdapterPump(io: io, sink: sink, at: 5)
        io.pending = 3
        host.events = [.scanning(true)]
        // The sink calls into the host while handling an event: what that causes is pulled too.
        sink.onEvent = { [host, io] e in
            if case .scanning(true) = e {
                host.events.append(.scanning(false))
                io.pending += 2
            }
        }
        #expect(pump.settle())
        #expect(sink.heard == ["scanning true", "scanning false"])
        #expect(io.transmitted == 5 && io.pending == 0)
        #expect(!pump.settle())
    }

    @Test func theIOsWarningsReachTheSinkAsHostEventsBeforeTheHostsEvents() {
        let pump = AdapterPump(io: io, sink: sink, at: 5)
        io.warnings = [HostWarning("write refused")]
        host.events = [.scanning(true)]
        pump.settle()
        #expect(sink.heard == ["warning write refused", "scanning true"])
    }

    @Test func startingBringsTheHostUpAtTheTimeGivenAndSettles() {
        let pump = AdapterPump(io: io, sink: sink, at: 5)
        host.events = [.scanning(false)]
        pump.start(at: 7)
        #expect(host.started == [7] && pump.now == 7)
        #expect(sink.heard == ["scanning false"])
    }

    @Test func aReadIsSettledAfterEveryPacketAndTheSinkToldOnceItIsAllHandled() {
        let pump = AdapterPump(io: io, sink: sink, at: 5)
        io.reads = [.scanning(true), .scanning(false)]
        var heardWhenSecondArrived: [String] = []
        sink.onEvent = { [sink] e in if case .scanning(false) = e { heardWhenSecondArrived = sink.heard } }
        pump.descriptorReady(0, events: 1, at: 9)
        #expect(heardWhenSecondArrived == ["scanning true", "scanning false"])
        #expect(sink.heard == ["scanning true", "scanning false", "input processed"])
        #expect(pump.now == 9)
    }

    @Test func theHostIsAdvancedOnlyOnceItsDeadlineIsDue() {
        let pump = AdapterPump(io: io, sink: sink, at: 5)
        host.nextDeadline = 100
        pump.deadlineReached(at: 99)
        #expect(host.advanced.isEmpty)
        pump.deadlineReached(at: 100)
        #expect(host.advanced == [100])
        #expect(pump.nextDeadline == 100)
    }

    @Test func aRemovedBondIsForgottenBeforeTheSinkHearsOfIt() {
        let bonds = RecordingBonds()
        let pump = AdapterPump(io: io, sink: sink, bondStore: bonds, at: 5)
        let peer = DeviceAddress(BDAddress(string: "C1:00:00:00:00:01")!, type: .randomDevice)
        var forgottenWhenHeard: [DeviceAddress] = []
        sink.onEvent = { [bonds] _ in forgottenWhenHeard = bonds.forgotten }
        host.events = [.security(LinkID(rawValue: 1), .bondRemoved(peer))]
        pump.settle()
        #expect(forgottenWhenHeard == [peer])
        #expect(sink.heard == ["bond removed C1:00:00:00:00:01"])
    }

    @Test func aLostAdapterShowsAsItsFailureAndClosingSaysWhy() {
        let pump = AdapterPump(io: io, sink: sink, at: 5)
        #expect(pump.failure == nil)
        io.failure = .endOfStream(adapter: "scripted0")
        #expect(pump.failure == .endOfStream(adapter: "scripted0"))
        #expect(pump.close(after: pump.failure) == .endOfStream(adapter: "scripted0"))
        #expect(io.closed)
    }

    @Test func closingOnPurposeSaysTheAdapterWasClosed() {
        let pump = AdapterPump(io: io, sink: sink, at: 5)
        #expect(pump.close(after: nil) == .closed(adapter: "scripted0"))
        #expect(io.closed)
    }
}
