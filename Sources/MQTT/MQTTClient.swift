import Glibc
import Timing

/// An MQTT 3.1.1 client driven by a poll(2) loop that its owner runs, so that it sits in the
/// same event loop as the adapters:
///
///     poll `fileDescriptor` for `pollEvents`;
///     readable → `handleReadable(at:)`, writable → `handleWritable(at:)`,
///     `nextDeadline` reached → `handleTimeout(at:)`;
///     after the turn's `publish` calls, `flush(at:)`; then drain `nextEvent()`.
///
/// The descriptor changes from one connection to the next (and is nil between them), so the
/// owner reads it again after every call. Times are nanoseconds on CLOCK_MONOTONIC — the
/// gateway's `HostTime`, `MQTTClock.now()` — passed in; the client reads no clock.
///
/// The client owns its messages (`MQTTOutbox`): `publish` never blocks and never fails for
/// want of a broker. While the broker is away messages wait, up to `queueLimit`; beyond that
/// the oldest waiting ones are dropped, counted, and reported with `.dropped` once connected.
/// Each connection is a fresh `MQTTSession`, so unacknowledged messages are re-sent by this
/// client, in order, and never a second copy by the session.
///
/// The wire is the session's: rtstack's own framing over plain TCP (`MQTTSocketSession`:
/// a turn's packets in one `send`), libmosquitto for mqtts:// (`MosquittoSession`). Either
/// way `publish` only queues, and what a turn queued leaves together in `flush` (or on the
/// next writable poll).
///
/// Acknowledgements are read on the loop's own turns. While messages await their PUBACK, the
/// socket is read by `flush` (the end of a turn that happens anyway: a notification's) when
/// `acknowledgementReadInterval` has passed since the last read, and `pollEvents` leaves out
/// POLLIN until `acknowledgementReadLimit` has passed: at hundreds of notifications a second
/// the broker's PUBACKs then no longer wake the loop once more per notification. A message
/// from the broker (a command) that arrives meanwhile waits at most that limit; with nothing in
/// flight the socket is polled for reading as usual.
///
/// Not thread-safe: one thread (the loop's) calls it.
public final class MQTTClient {
    public let configuration: MQTTClientConfiguration
    public private(set) var state: MQTTConnectionState = .idle
    public private(set) var statistics = MQTTStatistics()
    /// The reason of the last failed attempt or lost connection, for status output.
    public private(set) var lastProblem: String?

    private let lib: MosquittoLibrary
    private var session: MQTTSession?
    private var outbox: MQTTOutbox
    private var backoff: Backoff
    private var subscriptions: [(filter: String, qos: MQTTQoS)] = []
    /// SUBSCRIBE packet identifiers waiting for their SUBACK, and the filter each one asked for.
    private var pendingSubscriptions: [UInt16: String] = [:]
    private var events = MQTTPullQueue<MQTTEvent>()
    private var nextID: UInt64 = 1
    private var nextMiscAt: UInt64 = 0
    private var lastNow: UInt64 = 0
    /// When the socket was last read; see "Acknowledgements are read on the loop's own turns".
    private var lastReadAt: UInt64?

    /// How often `flush` reads the socket while acknowledgements are awaited (2 ms).
    public static let acknowledgementReadInterval: UInt64 = 2_000_000
    /// How long the socket goes unpolled for reading while acknowledgements are awaited (20 ms).
    public static let acknowledgementReadLimit: UInt64 = 20_000_000
    static let second: UInt64 = 1_000_000_000

    /// Loads libmosquitto (once per process; mqtts:// connections and the CONNACK texts use
    /// it) and checks the configuration; connects on `start`.
    public init(configuration: MQTTClientConfiguration) throws(MQTTError) {
        if let problem = configuration.problem { throw MQTTError.invalidSetting(problem) }
        for path in [configuration.caFile, configuration.certificateFile, configuration.keyFile].compactMap({ $0 }) {
            if access(path, R_OK) != 0 {
                throw MQTTError.invalidSetting("cannot read '\(path)': " + String(cString: Glibc.strerror(errno)))
            }
        }
        lib = try MosquittoLibrary.shared.get()
        self.configuration = configuration
        outbox = MQTTOutbox(limit: configuration.queueLimit)
        backoff = configuration.reconnect
    }

    // MARK: Driving

    /// Starts connecting (the first attempt right away).
    public func start(at now: UInt64) {
        guard state == .idle else { return }
        lastNow = now
        connect(at: now)
    }

    /// Publishes the offline availability message, sends DISCONNECT and stops; `.stopped`
    /// follows once the socket is closed (keep polling until then, or until a timeout of your
    /// choosing). Messages still waiting are left unsent.
    public func stop(at now: UInt64) {
        lastNow = now
        switch state {
        case .connected:
            if let a = configuration.availability, let s = session {
                _ = s.publish(MQTTMessage(topic: a.topic, text: a.offlinePayload, qos: a.qos, retain: true))
            }
            state = .stopping
            session?.disconnect()
            // The availability message and DISCONNECT, now.
            afterSessionCall(session?.write(at: now), at: now)
            nextMiscAt = now + 2 * Self.second   // give up on a broker that never closes
        case .connecting, .waiting, .idle:
            finishStop()
        case .stopping, .stopped:
            break
        }
    }

    /// The socket to poll; nil while there is none (waiting, stopped).
    public var fileDescriptor: Int32? { session?.fileDescriptor }

    /// Whether to poll for writability too.
    public var wantsWrite: Bool { session?.wantsWrite ?? false }

    /// The `poll` events to wait for on `fileDescriptor`: POLLOUT while `wantsWrite`, POLLIN
    /// except while acknowledgements are read on the loop's turns (POLLHUP and POLLERR are
    /// reported by `poll` whatever is asked).
    public var pollEvents: Int16 {
        var events: Int16 = wantsWrite ? Int16(POLLOUT) : 0
        if !readsOnTurns || readIsDue(after: Self.acknowledgementReadLimit, at: lastNow) { events |= Int16(POLLIN) }
        return events
    }

    /// Whether events are waiting for `nextEvent`.
    public var hasEvents: Bool { !events.isEmpty }

    /// Messages await their PUBACK, and none waits for the in-flight window to open: the socket
    /// is read on the loop's turns. (When messages wait, or the window is half full, a
    /// publisher with nothing else to wake it must read acknowledgements as they come.)
    private var readsOnTurns: Bool {
        state == .connected && outbox.inFlightCount > 0 && outbox.waitingCount == 0
            && outbox.inFlightCount * 2 < configuration.inFlightLimit
    }

    private func readIsDue(after interval: UInt64, at now: UInt64) -> Bool {
        guard let last = lastReadAt else { return true }
        return now >= last + interval
    }

    /// When `handleTimeout` is due: the next connection attempt, the connect timeout, or the
    /// next keep-alive check (once a second while there is a connection).
    public var nextDeadline: UInt64? {
        switch state {
        case .idle, .stopped: return nil
        case .waiting(let t): return t
        case .connecting(let since): return min(since + configuration.connectTimeout, nextMiscAt)
        case .connected:
            if readsOnTurns, let last = lastReadAt { return min(nextMiscAt, last + Self.acknowledgementReadLimit) }
            return nextMiscAt
        case .stopping: return nextMiscAt
        }
    }


    public func handleReadable(at now: UInt64) {
        lastNow = now
        lastReadAt = now
        guard let s = session else { return }
        afterSessionCall(s.read(at: now), at: now)
    }

    public func handleWritable(at now: UInt64) {
        lastNow = now
        guard let s = session else { return }
        afterSessionCall(s.write(at: now), at: now)
    }

    /// The end of a loop turn: writes what `publish` queued since the last write, in one go,
    /// and reads the broker's acknowledgements when they are due (see "read on the loop's own
    /// turns"). Call it after the turn's publishes, then drain `nextEvent()`. (Without it
    /// queued packets go out at the next writable poll, since `wantsWrite` is then true: one
    /// loop turn later.)
    public func flush(at now: UInt64) {
        lastNow = now
        guard let s = session else { return }
        if s.wantsWrite { afterSessionCall(s.write(at: now), at: now) }
        if readsOnTurns, session != nil, readIsDue(after: Self.acknowledgementReadInterval, at: now) {
            handleReadable(at: now)
        }
    }

    public func handleTimeout(at now: UInt64) {
        lastNow = now
        if readsOnTurns, readIsDue(after: Self.acknowledgementReadLimit, at: now) {
            handleReadable(at: now)
        }
        switch state {
        case .waiting(let t) where now >= t:
            connect(at: now)
        case .connecting(let since) where now >= since + configuration.connectTimeout:
            fail("no CONNACK within \(formatSeconds(configuration.connectTimeout)); the address may not be an MQTT broker's "
                 + "(mqtts:// to a plain listener, or the other way round): check --mqtt", lost: false, at: now)
        case .stopping where now >= nextMiscAt:
            finishStop()
        case .connecting, .connected, .stopping:
            if now >= nextMiscAt, let s = session {
                nextMiscAt = now + Self.second
                afterSessionCall(s.keepAlive(at: now), at: now)
            }
        default:
            break
        }
    }

    /// The next thing that happened, oldest first; nil when there is nothing new.
    public func nextEvent() -> MQTTEvent? { events.pop() }

    // MARK: Messages

    /// Queues a message and sends it as soon as the connection allows. Returns its id, for the
    /// `.delivered` event; a topic that can never be published is refused here.
    @discardableResult
    public func publish(_ message: MQTTMessage) throws(MQTTError) -> MQTTPublishID {
        if let p = MQTTMessage.problem(publishingTo: message.topic) { throw MQTTError.invalidSetting(p) }
        let id = MQTTPublishID(nextID)
        nextID += 1
        statistics.published += 1
        if outbox.enqueue(message, id: id) != nil { statistics.dropped += 1 }
        pump()
        updateQueueStatistics()
        return id
    }

    /// Subscribes now (if connected) and again after every reconnection.
    public func subscribe(_ filter: String, qos: MQTTQoS = .atLeastOnce) throws(MQTTError) {
        if let p = MQTTMessage.problem(subscribingTo: filter) { throw MQTTError.invalidSetting(p) }
        subscriptions.append((filter, qos))
        if state == .connected { sendSubscribe(filter, qos) }
    }

    private func sendSubscribe(_ filter: String, _ qos: MQTTQoS) {
        if let id = session?.subscribe(filter, qos: qos) { pendingSubscriptions[id] = filter }
    }

    // MARK: Connection life

    private func connect(at now: UInt64) {
        let s: MQTTSession = configuration.broker.usesTLS
            ? MosquittoSession(configuration: configuration, library: lib)
            : MQTTSocketSession(configuration: configuration)
        session = s
        state = .connecting(since: now)
        nextMiscAt = now + Self.second
        lastReadAt = nil
        // CONNECT waits for the first writable poll.
        if let reason = s.connect(at: now) { fail(reason, lost: false, at: now) }
    }

    /// Acts on what the session found out during a call (`failure`: the connection is
    /// unusable), then sends what can be sent.
    private func afterSessionCall(_ failure: String?, at now: UInt64) {
        guard let s = session else { return }
        var closed: String??
        while let output = s.nextOutput() {
            switch output {
            case .connectAcknowledgement(let code):
                guard state != .stopping else { break }
                if code == 0 {
                    didConnect(at: now)
                } else {
                    let c = Int32(code)
                    fail("broker refused the connection: " + lib.connackText(c) + "; " + MQTTRemedy.connack(c), lost: false, at: now)
                    return
                }
            case .published(let mid):
                didPublish(mid: mid)
            case .subscribed(let mid, let code):
                if let filter = pendingSubscriptions.removeValue(forKey: mid) {
                    events.append(code == 0x80 ? .subscriptionRefused(filter) : .subscribed(filter))
                }
            case .message(let m):
                statistics.received += 1
                events.append(.message(m))
            case .closed(let reason):
                closed = .some(reason)
            }
        }
        if state == .stopping, closed != nil || failure != nil || s.fileDescriptor == nil {
            finishStop()
            return
        }
        if let reason = failure ?? closed.map({ $0 ?? "disconnected" }) {
            fail(reason, lost: state == .connected, at: now)
            return
        }
        if s.fileDescriptor == nil {
            fail("the connection closed; rtstack tries again", lost: state == .connected, at: now)
            return
        }
        pump()
        updateQueueStatistics()
        // What this call queued (publishes, PUBACKs of received messages, PINGREQ) goes now;
        // what the write found out (QoS 0 messages done, a failure) is taken at once.
        if s.wantsWrite {
            let wrong = s.write(at: now)
            if wrong != nil || s.hasOutputs { afterSessionCall(wrong, at: now) }
        }
    }

    private func didConnect(at now: UInt64) {
        guard let s = session else { return }
        state = .connected
        backoff.reset()
        lastProblem = nil
        statistics.connections += 1
        nextMiscAt = now + Self.second
        if let a = configuration.availability {
            _ = s.publish(MQTTMessage(topic: a.topic, text: a.onlinePayload, qos: a.qos, retain: true))
        }
        for sub in subscriptions { sendSubscribe(sub.filter, sub.qos) }
        events.append(.connected)
        let dropped = outbox.takeDropped()
        if dropped > 0 { events.append(.dropped(count: dropped)) }
    }

    /// Tears the connection down and schedules the next attempt.
    private func fail(_ reason: String, lost: Bool, at now: UInt64) {
        teardown()
        lastProblem = reason
        if state == .stopping || state == .stopped {
            finishStop()
            return
        }
        let retryAt = now + backoff.nextDelay()
        state = .waiting(retryAt: retryAt)
        if lost {
            statistics.connectionsLost += 1
            events.append(.connectionLost(reason: reason, retryAt: retryAt))
        } else {
            statistics.connectFailures += 1
            events.append(.connectFailed(reason: reason, retryAt: retryAt))
        }
    }

    private func finishStop() {
        teardown()
        if state != .stopped {
            state = .stopped
            events.append(.stopped)
        }
    }

    private func teardown() {
        session = nil
        outbox.requeueInFlight()
        pendingSubscriptions.removeAll()
        updateQueueStatistics()
    }

    /// Hands waiting messages to the session while connected and below the in-flight limit.
    private func pump() {
        guard state == .connected, let s = session else { return }
        while outbox.inFlightCount < configuration.inFlightLimit, let entry = outbox.nextWaiting() {
            switch s.publish(entry.message) {
            case .queued(let mid):
                outbox.markInFlight(entry.id, mid: mid)
            case .notNow:
                return
            case .refused(let reason):
                outbox.remove(entry.id)
                statistics.rejected += 1
                events.append(.rejected(entry.id, reason: reason))
            }
        }
    }

    private func didPublish(mid: UInt16) {
        if let id = outbox.acknowledge(mid: mid) {
            statistics.delivered += 1
            events.append(.delivered(id))
        }
        // Otherwise the availability message, which is not in the outbox.
    }

    private func updateQueueStatistics() {
        statistics.queued = outbox.count
        statistics.inFlight = outbox.inFlightCount
        statistics.dropped = outbox.droppedTotal
    }

    private func formatSeconds(_ ns: UInt64) -> String {
        ns % Self.second == 0 ? "\(ns / Self.second) s" : "\(Double(ns) / 1e9) s"
    }
}
