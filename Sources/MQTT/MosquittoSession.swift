import CMosquitto
import Glibc

/// An mqtts:// connection through libmosquitto: its TLS (OpenSSL, the CA and client
/// certificates, the handshake on a non-blocking socket) is what it does well, so rtstack's
/// own framing (`MQTTSocketSession`) is for plain TCP only. A fresh libmosquitto instance per
/// connection, so that it never re-sends a message itself: the client's outbox does.
///
/// Driven, never threaded: libmosquitto is put in its "threaded" mode only so that
/// `mosquitto_publish` queues the packet instead of writing it; `write` sends a turn's packets
/// with the socket corked (TCP_CORK), so that they leave in one TCP segment although
/// libmosquitto makes one `send` per packet. Its callbacks run inside the library calls on the
/// loop's thread and only record outputs.
final class MosquittoSession: MQTTSession {
    private let configuration: MQTTClientConfiguration
    private let lib: MosquittoLibrary
    private var mosq: OpaquePointer?
    private var acknowledged = false
    private var closed = false
    /// Packets queued since the last write (publishes, subscribes); more than one, and the
    /// write is corked.
    private var unwritten = 0
    private var outputs = MQTTPullQueue<MQTTSessionOutput>()

    init(configuration: MQTTClientConfiguration, library: MosquittoLibrary) {
        self.configuration = configuration
        lib = library
    }

    deinit {
        if let m = mosq { lib.destroy(m) }
    }

    var fileDescriptor: Int32? {
        guard let m = mosq else { return nil }
        let fd = lib.socket(m)
        return fd >= 0 ? fd : nil
    }

    var wantsWrite: Bool {
        guard let m = mosq, fileDescriptor != nil else { return false }
        return lib.wantWrite(m)
    }

    func connect(at now: UInt64) -> String? {
        let obj = Unmanaged.passUnretained(self).toOpaque()
        guard let m = lib.new(configuration.clientID, true, obj) else {
            return "libmosquitto could not create a client (mosquitto_new: " + String(cString: Glibc.strerror(errno)) + ")"
        }
        mosq = m
        _ = lib.threadedSet(m, true)
        lib.connectCallbackSet(m) { _, obj, rc in MosquittoSession.from(obj)?.didConnect(rc) }
        lib.disconnectCallbackSet(m) { _, obj, rc in MosquittoSession.from(obj)?.didDisconnect(rc) }
        lib.publishCallbackSet(m) { _, obj, mid in MosquittoSession.from(obj)?.outputs.append(.published(UInt16(truncatingIfNeeded: mid))) }
        lib.subscribeCallbackSet(m) { _, obj, mid, count, granted in
            let code = count > 0 ? granted?[0] ?? 0x80 : 0x80
            MosquittoSession.from(obj)?.outputs.append(.subscribed(UInt16(truncatingIfNeeded: mid), returnCode: UInt8(truncatingIfNeeded: code)))
        }
        lib.messageCallbackSet(m) { _, obj, message in
            guard let session = MosquittoSession.from(obj), let message else { return }
            session.didReceive(message.pointee)
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
                if rc != MOSQ_ERR_SUCCESS.rawValue { return "TLS set-up: " + lib.errorText(rc) }
            }
            if configuration.caFile == nil { _ = lib.intOption(m, MOSQ_OPT_TLS_USE_OS_CERTS, 1) }
        }
        let rc = lib.connectAsync(m, configuration.broker.host, Int32(configuration.broker.port), Int32(configuration.keepAlive))
        return rc == MOSQ_ERR_SUCCESS.rawValue ? nil : describe(rc, operation: "connect to \(configuration.broker)")
    }

    func publish(_ message: MQTTMessage) -> MQTTSessionPublish {
        guard let m = mosq else { return .notNow }
        var mid: Int32 = 0
        let rc = message.payload.withUnsafeBytes { payload in
            lib.publish(m, &mid, message.topic, Int32(payload.count), payload.baseAddress, message.qos.rawValue, message.retain)
        }
        if rc == MOSQ_ERR_SUCCESS.rawValue {
            // Queued, not written (threaded mode): even a QoS 0 message is reported (on_publish)
            // only once written, after its mid is known here.
            unwritten += 1
            return .queued(UInt16(truncatingIfNeeded: mid))
        }
        if rc == MOSQ_ERR_NO_CONN.rawValue || rc == MOSQ_ERR_CONN_LOST.rawValue { return .notNow }
        return .refused(describe(rc, operation: "publish to '\(message.topic)'"))
    }

    func subscribe(_ filter: String, qos: MQTTQoS) -> UInt16? {
        guard let m = mosq else { return nil }
        var mid: Int32 = 0
        guard lib.subscribe(m, &mid, filter, qos.rawValue) == MOSQ_ERR_SUCCESS.rawValue else { return nil }
        unwritten += 1
        return UInt16(truncatingIfNeeded: mid)
    }

    func disconnect() {
        guard let m = mosq else { return }
        if lib.disconnect(m) != MOSQ_ERR_SUCCESS.rawValue { close(nil) }
    }

    func read(at now: UInt64) -> String? {
        guard let m = mosq else { return nil }
        return after(lib.loopRead(m, 1), operation: "read")
    }

    func write(at now: UInt64) -> String? {
        guard let m = mosq else { return nil }
        var rc = writeQueued(m)
        // During a TLS handshake libmosquitto advances the handshake from loop_read only (its own
        // loop does it on writability too), so a writable socket while connecting over TLS is
        // also offered to loop_read; with no data it returns at once.
        if rc == MOSQ_ERR_SUCCESS.rawValue, !acknowledged, let m = mosq { rc = lib.loopRead(m, 1) }
        return after(rc, operation: "write")
    }

    func keepAlive(at now: UInt64) -> String? {
        guard let m = mosq else { return nil }
        return after(lib.loopMisc(m), operation: "keep-alive")
    }

    var hasOutputs: Bool { !outputs.isEmpty }

    func nextOutput() -> MQTTSessionOutput? { outputs.pop() }

    /// The reason a library call made the connection unusable, or nil.
    private func after(_ rc: Int32, operation: String) -> String? {
        if closed { return nil }   // reported as `.closed`
        if rc != MOSQ_ERR_SUCCESS.rawValue && rc != MOSQ_ERR_NO_CONN.rawValue { return describe(rc, operation: operation) }
        if mosq != nil && fileDescriptor == nil { return "the connection closed; rtstack tries again" }
        return nil
    }

    /// `mosquitto_loop_write`: every queued packet, one `send` each, corked when there is more
    /// than one so that the kernel sends them as one segment when uncorked.
    private func writeQueued(_ m: OpaquePointer) -> Int32 {
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

    private func didConnect(_ code: Int32) {
        acknowledged = code == 0
        outputs.append(.connectAcknowledgement(UInt8(truncatingIfNeeded: code)))
    }

    private func didDisconnect(_ code: Int32) {
        close(code == 0 ? nil : describe(code, operation: "the broker connection"))
    }

    private func close(_ reason: String?) {
        guard !closed else { return }
        closed = true
        outputs.append(.closed(reason))
    }

    private func didReceive(_ m: mosquitto_message) {
        guard let topic = m.topic else { return }
        let count = Int(max(0, m.payloadlen))
        let payload: [UInt8] = count > 0 && m.payload != nil
            ? Array(UnsafeRawBufferPointer(start: m.payload, count: count)) : []
        outputs.append(.message(MQTTMessage(topic: String(cString: topic), payload: payload,
                                            qos: m.qos >= 1 ? .atLeastOnce : .atMostOnce, retain: m.retain)))
    }

    /// The failed call, its cause and what to do.
    private func describe(_ rc: Int32, operation: String) -> String {
        let code = errno
        var text = lib.errorText(rc)  // libmosquitto's sentences end with a full stop
        if text.hasSuffix(".") { text.removeLast() }
        let detail = rc == MOSQ_ERR_ERRNO.rawValue ? " (" + String(cString: Glibc.strerror(code)) + ")" : ""
        return operation + ": " + text + detail + "; " + MQTTRemedy.connection(rc, errno: code)
    }

    private static func from(_ obj: UnsafeMutableRawPointer?) -> MosquittoSession? {
        obj.map { Unmanaged<MosquittoSession>.fromOpaque($0).takeUnretainedValue() }
    }
}
