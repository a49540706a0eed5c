import HostCore
import Runtime
import Wire

/// A host whose events the test queues, recording what is asked of it; it raises nothing of
/// its own. (The pump only moves events and outputs; what a real host raises is HostCore's.)
final class QueuedHost: Host {
    let linkTable = LinkTable()
    var isReady = true
    var hasFailed = false
    var controllerInfo: ControllerInfo? = nil
    var isScanning = false
    var nextDeadline: HostTime?
    var bonds: [BondRecord] = []
    var events: [HostEvent] = []
    private(set) var started: [HostTime] = []
    private(set) var advanced: [HostTime] = []
    private(set) var scans = 0

    func start(at now: HostTime) { started.append(now) }
    func startScan(_ scan: ScanConfiguration?, at now: HostTime) { scans += 1 }
    func stopScan(at now: HostTime) {}
    func advanceTime(to now: HostTime) { advanced.append(now) }
    func serviceLinks(at now: HostTime) {}
    func answerPairing(_ link: LinkID, _ answer: PairingAnswer, at now: HostTime) {}
    func secure(_ link: LinkID, _ need: SecurityNeed, at now: HostTime) {}

    func pollEvent() -> HostEvent? { events.isEmpty ? nil : events.removeFirst() }
}

/// An adapter's I/O without descriptors: `pending` outputs are "transmitted" one per call,
/// warnings and a failure are set by the test, and `reads` says what one readable descriptor
/// carries (events for the host, settled after each as a real read settles after each packet).
final class ScriptedAdapterIO: AdapterIO {
    let name = "scripted0"
    let queued: QueuedHost
    var host: any Host { queued }
    let tap = PacketTap(wallClockMicros: 0, monotonicNanos: 0)
    var pending = 0
    private(set) var transmitted = 0
    var warnings: [HostWarning] = []
    var failure: TransportError?
    var reads: [HostEvent] = []
    private(set) var closed = false

    init(host: QueuedHost) { queued = host }

    func collectDescriptors(into list: inout [WatchedDescriptor]) {}

    func descriptorReady(_ token: Int, events: Int16, at now: UInt64, settle: () -> Void) {
        for e in reads {
            queued.events.append(e)
            settle()
        }
        reads.removeAll()
    }

    func transmit(at now: UInt64) -> Bool {
        guard pending > 0 else { return false }
        pending -= 1
        transmitted += 1
        return true
    }

    func takeWarnings() -> [HostWarning] {
        defer { warnings.removeAll() }
        return warnings
    }

    func describeEnd(_ error: TransportError) -> TransportError { error }

    func close() { closed = true }
}

/// A sink that records what it hears (and when), and may act on an event.
final class RecordingSink: HostEventSink {
    private(set) var heard: [String] = []
    var onEvent: (HostEvent) -> Void = { _ in }

    func hostEvent(_ event: HostEvent, at now: HostTime) {
        heard.append(Self.name(event))
        onEvent(event)
    }

    func inputProcessed(at now: HostTime) { heard.append("input processed") }

    static func name(_ e: HostEvent) -> String {
        switch e {
        case .scanning(let on): return "scanning \(on)"
        case .warning(let w): return "warning \(w.message)"
        case .security(_, .bondRemoved(let a)): return "bond removed \(a.address)"
        default: return "other"
        }
    }
}

/// The addresses of the bonds forgotten, in order.
final class RecordingBonds: BondPersistence {
    private(set) var forgotten: [DeviceAddress] = []

    func keep(_ bond: BondRecord) throws(StateError) {}
    func forget(_ address: DeviceAddress) { forgotten.append(address) }
}
