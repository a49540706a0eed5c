import CMosquitto
import Glibc
import Timing

/// An MQTT 3.1.1 client over libmosquitto, driven by a poll(2) loop that its owner runs — never
/// by libmosquitto's own thread — so that it sits in the same event loop as the adapters:
///
///     poll `fileDescriptor` for `pollEvents`;
///     readable → `handleReadable(at:)`, writable → `handleWritable(at:)`,
///     `nextDeadline` reached → `handleTimeout(at:)`;
///     after the turn's `publish` calls, `flush(at:)`; then drain `nextEvent()`.
///
/// The descriptor changes from one connection to the next (and is nil between them), so the
/// owner reads it again after every call. Times are seconds on any monotonic clock, passed in.
///
/// The client owns its messages (`MQTTOutbox`): `publish` never blocks and never fails for
/// want of a broker. While the broker is away messages wait, up to `queueLimit`; beyond that
/// the oldest waiting ones are dropped, counted, and reported with `.dropped` once connected.
/// Each connection uses a fresh libmosquitto instance, so unacknowledged messages are re-sent
/// by this client, in order, and libmosquitto never re-sends a second copy on its own.
///
/// Writes are batched per loop turn. libmosquitto is put in its "threaded" mode, which only
/// means that `mosquitto_publish` queues the packet instead of writing it at once; the packets a
/// turn queued go out together in `flush` (or on the next writable poll), with the socket
/// corked (TCP_CORK) meanwhile so that they leave in one TCP segment, not one per message —
/// on loopback each segment is also the broker's receive path run in this process.
/// libmosquitto still makes one `send` per packet and reads each incoming packet in three
/// `read`s (header, length, rest): Docs/performance.md has the system calls per notification.
///
/// Acknowledgements are read on the loop's own turns. While messages await their PUBACK, the
/// socket is read by `flush` (the end of a turn that happens anyway: a notification's) when
/// `acknowledgementReadInterval` has passed since the last read, and `pollEvents` leaves out
/// POLLIN until `acknowledgementReadLimit` has passed: at hundreds of notifications a second
/// the broker's PUBACKs then no longer wake the loop once more per notification. A message
/// from the broker (a command) that arrives meanwhile waits at most that limit; with nothing in
/// flight the socket is polled for reading as usual.
///
/// Not thread-safe: one thread (the loop's) calls it. libmosquitto's callbacks run inside the
/// `handle…` calls on that thread and only record what happened; the work is done after the
/// library call returns, never re-entering libmosquitto from its own callback.
public final class MQTTClient {
    public let configuration: MQTTClientConfiguration
    public private(set) var state: MQTTConnectionState = .idle
    public private(set) var statistics = MQTTStatistics()
    /// The reason of the last failed attempt or lost connection, for status output.
    public private(set) var lastProblem: String?

    private let lib: MosquittoLibrary
    private var mosq: OpaquePointer?
    private var outbox: MQTTOutbox
    private var backoff: Backoff
    private var subscriptions: [(filter: String, qos: MQTTQoS)] = []
    /// SUBSCRIBE message ids waiting for their SUBACK, and the filter each one asked for.
    private var pendingSubscriptions: [Int32: String] = [:]
    private var events: [MQTTEvent] = []
    private var eventHead = 0
    private var nextID: UInt64 = 1
    private var nextMiscAt: Double = 0
    /// Set by callbacks, acted on once the library call returns.
    private var connackCode: Int32?
    private var disconnectCode: Int32?
    private var lastNow: Double = 0
    /// Packets libmosquitto holds that this client queued since the last write (publishes,
    /// subscribes); more than one, and the write is corked.
    private var unwritten = 0
    /// When the socket was last read; see "Acknowledgements are read on the loop's own turns".
    private var lastReadAt = -Double.infinity

    /// How often `flush` reads the socket while acknowledgements are awaited.
    public static let acknowledgementReadInterval = 0.002
    /// How long the socket goes unpolled for reading while acknowledgements are awaited.
    public static let acknowledgementReadLimit = 0.020

    /// Loads libmosquitto (once per process) and checks the configuration; connects on `start`.
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

    deinit {
        if let m = mosq { lib.destroy(m) }
    }

    // MARK: Driving

    /// Starts connecting (the first attempt right away).
    public func start(at now: Double) {
        guard state == .idle else { return }
        lastNow = now
        connect(at: now)
    }

    /// Publishes the offline availability message, sends DISCONNECT and stops; `.stopped`
    /// follows once the socket is closed (keep polling until then, or until a timeout of your
    /// choosing). Messages still waiting are left unsent.
    public func stop(at now: Double) {
        lastNow = now
        switch state {
        case .connected:
            if let a = configuration.availability, let m = mosq {
                var mid: Int32 = 0
                _ = a.offlinePayload.withCString { p in
                    lib.publish(m, &mid, a.topic, Int32(strlen(p)), p, a.qos.rawValue, true)
                }
            }
            state = .stopping
            if let m = mosq, lib.disconnect(m) != MOSQ_ERR_SUCCESS.rawValue {
                finishStop()
            } else {
                writeQueued()   // the availability message and DISCONNECT, now
            }
            nextMiscAt = now + 2   // give up on a broker that never closes
        case .connecting, .waiting, .idle:
            finishStop()
        case .stopping, .stopped:
            break
        }
    }

    /// The socket to poll; nil while there is none (waiting, stopped).
    public var fileDescriptor: Int32? {
        guard let m = mosq else { return nil }
        let fd = lib.socket(m)
        return fd >= 0 ? fd : nil
    }

    /// Whether to poll for writability too.
    public var wantsWrite: Bool {
        guard let m = mosq, fileDescriptor != nil else { return false }
        return lib.wantWrite(m)
    }

    /// The `poll` events to wait for on `fileDescriptor`: POLLOUT while `wantsWrite`, POLLIN
    /// except while acknowledgements are read on the loop's turns (POLLHUP and POLLERR are
    /// reported by `poll` whatever is asked).
    public var pollEvents: Int16 {
        var events: Int16 = wantsWrite ? Int16(POLLOUT) : 0
        if !readsOnTurns || lastNow - lastReadAt >= Self.acknowledgementReadLimit { events |= Int16(POLLIN) }
        return events
    }

    /// Whether events are waiting for `nextEvent`.
    public var hasEvents: Bool { eventHead < events.count }

    /// Messages await their PUBACK, and none waits for the in-flight window to open: the socket
    /// is read on the loop's turns. (When messages wait, or the window is half full, a
    /// publisher with nothing else to wake it must read acknowledgements as they come.)
    private var readsOnTurns: Bool {
        state == .connected && outbox.inFlightCount > 0 && outbox.waitingCount == 0
            && outbox.inFlightCount * 2 < configuration.inFlightLimit
    }

    /// When `handleTimeout` is due: the next connection attempt, the connect timeout, or the
    /// next keep-alive check (once a second while there is a connection).
    public var nextDeadline: Double? {
        switch state {
        case .idle, .stopped: return nil
        case .waiting(let t): return t
        case .connecting(let since): return min(since + configuration.connectTimeout, nextMiscAt)
        case .connected:
            return readsOnTurns ? min(nextMiscAt, lastReadAt + Self.acknowledgementReadLimit) : nextMiscAt
        case .stopping: return nextMiscAt
        }
    }

    public func handleReadable(at now: Double) {
        lastNow = now
        lastReadAt = now
        guard let m = mosq else { return }
        let rc = lib.loopRead(m, 1)
        afterLibraryCall(rc, operation: "read", at: now)
    }

    public func handleWritable(at now: Double) {
        lastNow = now
        guard mosq != nil else { return }
        var rc = writeQueued()
        // During a TLS handshake libmosquitto advances the handshake from loop_read only (its own
        // loop does it on writability too), so a writable socket while connecting over TLS is
        // also offered to loop_read; with no data it returns at once.
        if rc == MOSQ_ERR_SUCCESS.rawValue, configuration.broker.usesTLS, case .connecting = state, let m = mosq {
            rc = lib.loopRead(m, 1)
        }
        afterLibraryCall(rc, operation: "write", at: now)
    }

    /// The end of a loop turn: writes what `publish` queued since the last write, in one
    /// corked go, and reads the broker's acknowledgements when they are due (see "read on the
    /// loop's own turns"). Call it after the turn's publishes, then drain `nextEvent()`.
    /// (Without it queued packets go out at the next writable poll, since `wantsWrite` is then
    /// true: one loop turn later.)
    public func flush(at now: Double) {
        lastNow = now
        guard let m = mosq else { return }
        if lib.wantWrite(m) { afterLibraryCall(writeQueued(), operation: "write", at: now) }
        if readsOnTurns, mosq != nil, now - lastReadAt >= Self.acknowledgementReadInterval {
            handleReadable(at: now)
        }
    }

    public func handleTimeout(at now: Double) {
        lastNow = now
        if readsOnTurns, now >= lastReadAt + Self.acknowledgementReadLimit {
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
            if now >= nextMiscAt, let m = mosq {
                nextMiscAt = now + 1
                afterLibraryCall(lib.loopMisc(m), operation: "keep-alive", at: now)
            }
        default:
            break
        }
    }

    /// The next thing that happened, oldest first; nil when there is nothing new.
    public func nextEvent() -> MQTTEvent? {
        guard eventHead < events.count else {
            if eventHead > 0 { events.removeAll(keepingCapacity: true); eventHead = 0 }
            return nil
        }
        defer { eventHead += 1 }
        return events[eventHead]
    }

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
        guard let m = mosq else { return }
        var mid: Int32 = 0
        if lib.subscribe(m, &mid, filter, qos.rawValue) == MOSQ_ERR_SUCCESS.rawValue {
            pendingSubscriptions[mid] = filter
            unwritten += 1
        }
    }

    // MARK: Connection life

    private func connect(at now: Double) {
        let obj = Unmanaged.passUnretained(self).toOpaque()
        guard let m = lib.new(configuration.clientID, true, obj) else {
            fail("libmosquitto could not create a client (mosquitto_new: " + String(cString: Glibc.strerror(errno)) + ")", lost: false, at: now)
            return
        }
        mosq = m
        unwritten = 0
        // Publishes and subscribes are queued, not written at once: `writeQueued` sends them.
        _ = lib.threadedSet(m, true)
        connackCode = nil
        disconnectCode = nil
        lib.connectCallbackSet(m) { _, obj, rc in MQTTClient.from(obj)?.connackCode = rc }
        lib.disconnectCallbackSet(m) { _, obj, rc in MQTTClient.from(obj)?.disconnectCode = rc }
        lib.publishCallbackSet(m) { _, obj, mid in MQTTClient.from(obj)?.didPublish(mid: mid) }
        lib.subscribeCallbackSet(m) { _, obj, mid, count, granted in
            guard let client = MQTTClient.from(obj), let filter = client.pendingSubscriptions.removeValue(forKey: mid) else { return }
            let code = count > 0 ? granted?[0] ?? 0x80 : 0x80
            client.events.append(code == 0x80 ? .subscriptionRefused(filter) : .subscribed(filter))
        }
        lib.messageCallbackSet(m) { _, obj, message in
            guard let client = MQTTClient.from(obj), let message else { return }
            client.didReceive(message.pointee)
        }
        _ = lib.intOption(m, MOSQ_OPT_PROTOCOL_VERSION, Int32(MQTT_PROTOCOL_V311))
        _ = lib.intOption(m, MOSQ_OPT_TCP_NODELAY, 1)
        _ = lib.maxInflightMessagesSet(m, UInt32(configuration.inFlightLimit))
        if let user = configuration.username {
            _ = lib.usernamePasswordSet(m, user, configuration.password)
        }
        if let a = configuration.availability {
            _ = a.offlinePayload.withCString { p in lib.willSet(m, a.topic, Int32(strlen(p)), p, a.qos.rawValue, true) }
        }
        if configuration.broker.usesTLS {
            if configuration.caFile != nil || configuration.certificateFile != nil {
                let rc = lib.tlsSet(m, configuration.caFile, nil, configuration.certificateFile, configuration.keyFile, nil)
                if rc != MOSQ_ERR_SUCCESS.rawValue {
                    fail("TLS set-up: " + lib.errorText(rc), lost: false, at: now)
                    return
                }
            }
            if configuration.caFile == nil { _ = lib.intOption(m, MOSQ_OPT_TLS_USE_OS_CERTS, 1) }
        }
        state = .connecting(since: now)
        nextMiscAt = now + 1
        let rc = lib.connectAsync(m, configuration.broker.host, Int32(configuration.broker.port), Int32(configuration.keepAlive))
        if rc != MOSQ_ERR_SUCCESS.rawValue {
            fail(describe(rc, operation: "connect to \(configuration.broker)"), lost: false, at: now)
        }
    }

    /// Acts on what the callbacks recorded during a library call, then sends what can be sent.
    private func afterLibraryCall(_ rc: Int32, operation: String, at now: Double) {
        if let code = connackCode {
            connackCode = nil
            if code == 0 {
                didConnect(at: now)
            } else {
                fail("broker refused the connection: " + lib.connackText(code) + "; " + MQTTRemedy.connack(code), lost: false, at: now)
                return
            }
        }
        if state == .stopping, disconnectCode != nil || (rc != MOSQ_ERR_SUCCESS.rawValue) || fileDescriptor == nil {
            finishStop()
            return
        }
        if let code = disconnectCode {
            disconnectCode = nil
            let wasConnected = state == .connected
            fail(code == 0 ? "disconnected" : describe(code, operation: "the broker connection"), lost: wasConnected, at: now)
            return
        }
        if rc != MOSQ_ERR_SUCCESS.rawValue && rc != MOSQ_ERR_NO_CONN.rawValue {
            fail(describe(rc, operation: operation), lost: state == .connected, at: now)
            return
        }
        if mosq != nil && fileDescriptor == nil && state != .stopping {
            fail("the connection closed", lost: state == .connected, at: now)
            return
        }
        pump()
        updateQueueStatistics()
        // What this call queued (publishes, PUBACKs of received messages, PINGREQ) goes now.
        if let m = mosq, lib.wantWrite(m) {
            let wrc = writeQueued()
            if wrc != MOSQ_ERR_SUCCESS.rawValue { afterLibraryCall(wrc, operation: "write", at: now) }
        }
    }

    /// `mosquitto_loop_write`: every queued packet, one `send` each, corked when there is more
    /// than one so that the kernel sends them as one segment when uncorked.
    @discardableResult
    private func writeQueued() -> Int32 {
        guard let m = mosq else { return MOSQ_ERR_NO_CONN.rawValue }
        let fd = lib.socket(m)
        let cork = unwritten > 1 && fd >= 0
        unwritten = 0
        if cork { setCork(fd, true) }
        let rc = lib.loopWrite(m, 1)
        // A failed write may have closed the socket (and the number may be reused): uncork
        // only the socket still in use.
        if cork, let m = mosq, lib.socket(m) == fd { setCork(fd, false) }
        return rc
    }

    private func setCork(_ fd: Int32, _ on: Bool) {
        var value: Int32 = on ? 1 : 0
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_CORK, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    private func didConnect(at now: Double) {
        guard let m = mosq else { return }
        state = .connected
        backoff.reset()
        lastProblem = nil
        statistics.connections += 1
        nextMiscAt = now + 1
        if let a = configuration.availability {
            var mid: Int32 = 0
            _ = a.onlinePayload.withCString { p in lib.publish(m, &mid, a.topic, Int32(strlen(p)), p, a.qos.rawValue, true) }
            unwritten += 1
        }
        for s in subscriptions { sendSubscribe(s.filter, s.qos) }
        events.append(.connected)
        let dropped = outbox.takeDropped()
        if dropped > 0 { events.append(.dropped(count: dropped)) }
    }

    /// Tears the connection down and schedules the next attempt.
    private func fail(_ reason: String, lost: Bool, at now: Double) {
        teardown()
        lastProblem = reason
        if state == .stopping || state == .stopped {
            finishStop()
            return
        }
        let retryAt = now + Double(backoff.nextDelay()) / 1e9
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
        if let m = mosq {
            mosq = nil
            lib.destroy(m)
        }
        unwritten = 0
        outbox.requeueInFlight()
        pendingSubscriptions.removeAll()
        connackCode = nil
        disconnectCode = nil
        updateQueueStatistics()
    }

    /// Hands waiting messages to libmosquitto while connected and below the in-flight limit.
    private func pump() {
        guard state == .connected, let m = mosq else { return }
        while outbox.inFlightCount < configuration.inFlightLimit, let entry = outbox.nextWaiting() {
            var mid: Int32 = 0
            let message = entry.message
            let rc = message.payload.withUnsafeBytes { payload in
                lib.publish(m, &mid, message.topic, Int32(payload.count), payload.baseAddress, message.qos.rawValue, message.retain)
            }
            if rc == MOSQ_ERR_SUCCESS.rawValue {
                // Queued, not written (threaded mode): even a QoS 0 message is acknowledged
                // (on_publish) only once written, after its mid is known here.
                unwritten += 1
                outbox.markInFlight(entry.id, mid: mid)
            } else if rc == MOSQ_ERR_NO_CONN.rawValue || rc == MOSQ_ERR_CONN_LOST.rawValue {
                break
            } else {
                outbox.remove(entry.id)
                statistics.rejected += 1
                events.append(.rejected(entry.id, reason: describe(rc, operation: "publish to '\(message.topic)'")))
            }
            if mosq == nil { break }
        }
    }

    private func didPublish(mid: Int32) {
        if let id = outbox.acknowledge(mid: mid) {
            statistics.delivered += 1
            events.append(.delivered(id))
        }
        // Otherwise the availability message, which is not in the outbox.
    }

    private func didReceive(_ m: mosquitto_message) {
        guard let topic = m.topic else { return }
        let count = Int(max(0, m.payloadlen))
        let payload: [UInt8] = count > 0 && m.payload != nil
            ? Array(UnsafeRawBufferPointer(start: m.payload, count: count)) : []
        statistics.received += 1
        events.append(.message(MQTTMessage(topic: String(cString: topic), payload: payload,
                                           qos: m.qos >= 1 ? .atLeastOnce : .atMostOnce, retain: m.retain)))
    }

    private func updateQueueStatistics() {
        statistics.queued = outbox.count
        statistics.inFlight = outbox.inFlightCount
        statistics.dropped = outbox.droppedTotal
    }

    /// The failed call, its cause and what to do.
    private func describe(_ rc: Int32, operation: String) -> String {
        let code = errno
        var text = lib.errorText(rc)  // libmosquitto's sentences end with a full stop
        if text.hasSuffix(".") { text.removeLast() }
        return operation + ": " + text + detailOfErrno(rc) + "; " + MQTTRemedy.connection(rc, errno: code)
    }

    /// For MOSQ_ERR_ERRNO the reason is in errno ("Connection refused").
    private func detailOfErrno(_ rc: Int32) -> String {
        rc == MOSQ_ERR_ERRNO.rawValue ? " (" + String(cString: Glibc.strerror(errno)) + ")" : ""
    }

    private func formatSeconds(_ s: Double) -> String {
        s == s.rounded() ? "\(Int(s)) s" : "\(s) s"
    }

    private static func from(_ obj: UnsafeMutableRawPointer?) -> MQTTClient? {
        obj.map { Unmanaged<MQTTClient>.fromOpaque($0).takeUnretainedValue() }
    }
}
