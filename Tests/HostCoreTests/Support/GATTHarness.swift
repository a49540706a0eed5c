import Testing
import Wire
@testable import HostCore

/// Wires a `GATTClient` to a `FakeATTServer` synchronously: what the client sends goes to
/// the server, the server's answers are fed back one by one until nothing is left.
final class GATTHarness: GATTClientOutput {
    let server: FakeATTServer
    private(set) var session: GATTClient!
    let link = LinkID(rawValue: 7)
    var now: HostTime = 1_000_000
    private(set) var events: [HostEvent] = []
    private(set) var sessionFailures: [HostError] = []
    private var nextOperation: UInt64 = 1
    private var inSession = false

    init(server: FakeATTServer, plan: LinkPlan = GATTHarness.plan()) {
        self.server = server
        session = GATTClient(link: link, plan: plan, output: self)
    }

    /// A harness on `GATTFixtures.heartRateServer()`, changed by `configure`, with the link up.
    static func heartRate(_ configure: (FakeATTServer) -> Void = { _ in }) -> GATTHarness {
        let server = GATTFixtures.heartRateServer()
        configure(server)
        let h = GATTHarness(server: server)
        h.linkUp()
        return h
    }

    /// A plan without defaults that would hide what a test checks.
    static func plan(mtu: UInt16? = nil, discover: Bool = false, subscriptions: [Subscription] = [],
                     cache: GATTDatabase? = nil) -> LinkPlan {
        var p = LinkPlan()
        p.mtu = mtu
        p.discover = discover
        p.subscriptions = subscriptions
        p.cachedDatabase = cache
        return p
    }

    // MARK: GATTClientOutput

    func sendATT(_ pdu: [UInt8], on link: LinkID) {
        #expect(link == self.link)
        server.receive(pdu)
    }

    func deliver(_ event: HostEvent) {
        events.append(event)
    }

    func clientFailed(_ link: LinkID, error: HostError, at now: HostTime) {
        sessionFailures.append(error)
    }

    /// ATT security refusals the client held a request for, in order.
    private(set) var securityRequests: [ATTErrorCode] = []
    /// How the harness answers them after the exchange in progress: false (nothing to raise:
    /// the request fails with the peer's error), true (sent again), nil (the test answers with
    /// `finishSecurity`).
    var securityAnswer: Bool? = false
    private var securityPending = false

    func securityNeeded(_ link: LinkID, error: ATTErrorCode) {
        securityRequests.append(error)
        securityPending = true
    }

    /// Answers the held request (as a connector does after pairing or encryption).
    func finishSecurity(raised: Bool) {
        securityPending = false
        enter { session.securityFinished(raised: raised, at: now) }
        pump()
    }

    /// The link table would report the public state; the harness records it as that event.
    func clientStateChanged(_ link: LinkID) {
        events.append(.linkState(link, session.state))
    }

    // MARK: Driving

    /// Feeds the server's output to the session until the server has nothing more to say.
    func pump() {
        var guardCount = 0
        while true {
            while let pdu = server.nextForClient() {
                guardCount += 1
                if guardCount > 1_000_000 {
                    Issue.record("harness: more than a million PDUs, the exchange does not end")
                    return
                }
                enter { session.receive(pdu[...], at: now) }
            }
            guard securityPending, let answer = securityAnswer else { return }
            securityPending = false
            enter { session.securityFinished(raised: answer, at: now) }
        }
    }

    private func enter(_ body: () -> Void) {
        #expect(!inSession, "the session was re-entered")
        inSession = true
        body()
        inSession = false
    }

    func linkUp() {
        enter { session.linkUp(at: now) }
        pump()
    }

    @discardableResult
    func perform(_ operation: GATTOperation, pumping: Bool = true) -> OperationID {
        let id = OperationID(rawValue: nextOperation)
        nextOperation += 1
        enter { session.perform(operation, id: id, at: now) }
        if pumping { pump() }
        return id
    }

    func advance(by nanoseconds: UInt64) {
        now += nanoseconds
        enter { session.advanceTime(to: now) }
        pump()
    }

    func receive(_ bytes: [UInt8]) {
        enter { session.receive(bytes[...], at: now) }
        pump()
    }

    func linkDown(_ reason: HCIStatus) {
        enter { session.linkDown(reason: reason) }
    }

    func clearEvents() { events.removeAll() }

    // MARK: Reading the events

    func result(_ id: OperationID) -> Result<GATTResult, HostError>? {
        for case let .operationCompleted(op, result) in events where op == id { return result }
        return nil
    }

    func completions(_ id: OperationID) -> Int {
        events.reduce(0) { n, e in
            if case let .operationCompleted(op, _) = e, op == id { return n + 1 }
            return n
        }
    }

    func error(_ id: OperationID) -> HostError? {
        if case let .failure(e)? = result(id) { return e }
        return nil
    }

    func value(_ id: OperationID) -> [UInt8]? {
        if case let .success(.value(v))? = result(id) { return v }
        return nil
    }

    var linkStates: [LinkState] {
        events.compactMap { if case let .linkState(_, s) = $0 { return s } else { return nil } }
    }

    var warnings: [String] {
        events.compactMap { if case let .warning(w) = $0 { return w.description } else { return nil } }
    }

    var subscribed: [(BluetoothUUID, UInt16)] {
        events.compactMap { if case let .subscribed(_, c, h) = $0 { return (c, h) } else { return nil } }
    }

    var readyDatabases: [(GATTDatabase, Bool)] {
        events.compactMap { if case let .databaseReady(_, db, cached) = $0 { return (db, cached) } else { return nil } }
    }

    var databaseChangedCount: Int {
        events.filter { if case .databaseChanged = $0 { return true } else { return false } }.count
    }

    var mtuChanges: [UInt16] {
        events.compactMap { if case let .mtuChanged(_, m) = $0 { return m } else { return nil } }
    }

    var notifications: [(UInt16, [UInt8])] {
        events.compactMap { if case let .notification(_, h, v) = $0 { return (h, Array(v)) } else { return nil } }
    }

    var indications: [(UInt16, [UInt8])] {
        events.compactMap { if case let .indication(_, h, v) = $0 { return (h, Array(v)) } else { return nil } }
    }

    /// Index in `events` of the first event matching `match`.
    func index(where match: (HostEvent) -> Bool) -> Int? {
        events.firstIndex(where: match)
    }
}
