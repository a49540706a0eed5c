/// One connection to the broker, from the socket's opening to its closing: the packets on the
/// wire. `MQTTClient` keeps everything that outlives a connection (the outbox, subscriptions,
/// the backoff, the events) and one session at a time.
///
/// Two kinds: `MQTTSocketSession`, rtstack's own MQTT 3.1.1 framing over a plain TCP socket
/// (a turn's packets in one `write`, every PUBACK of a turn in one `read`), and
/// `MosquittoSession`, libmosquitto, for mqtts:// — its TLS (OpenSSL, certificates, the
/// handshake on a non-blocking socket) is what it does well and rtstack does not redo.
///
/// What a call found out is pulled afterwards with `nextOutput()`; a call returns the reason
/// when the connection is unusable (already worded for the log: the failed step, the cause,
/// what to do), after which the session is dropped.
protocol MQTTSession: AnyObject {
    /// The socket to poll; nil once it is closed.
    var fileDescriptor: Int32? { get }
    /// Packets wait to be written.
    var wantsWrite: Bool { get }
    /// Starts connecting: the socket, CONNECT queued; the reason when it cannot even start.
    func connect(at now: UInt64) -> String?
    /// Queues a PUBLISH (written by `write`); the identifier that its `.published` output
    /// will carry, or why the message can never be sent (`.refused`), or `.notNow` when the
    /// connection cannot take it.
    func publish(_ message: MQTTMessage) -> MQTTSessionPublish
    /// Queues a SUBSCRIBE; its identifier, for `.subscribed`.
    func subscribe(_ filter: String, qos: MQTTQoS) -> UInt16?
    /// Queues DISCONNECT; the session closes the socket once it is written.
    func disconnect()
    /// Reads what the broker sent.
    func read(at now: UInt64) -> String?
    /// Writes what is queued.
    func write(at now: UInt64) -> String?
    /// The keep-alive (PINGREQ when the line was quiet, the end when no PINGRESP came).
    func keepAlive(at now: UInt64) -> String?
    func nextOutput() -> MQTTSessionOutput?
    var hasOutputs: Bool { get }
}

enum MQTTSessionPublish {
    case queued(UInt16)
    case notNow
    case refused(String)
}

/// What a session found out during a call.
enum MQTTSessionOutput {
    /// CONNACK with its return code (0: accepted).
    case connectAcknowledgement(UInt8)
    /// A QoS 1 message was acknowledged, or a QoS 0 message written.
    case published(UInt16)
    /// SUBACK: the granted QoS, or 0x80 for a refusal.
    case subscribed(UInt16, returnCode: UInt8)
    case message(MQTTMessage)
    /// The connection ended: nil after this client's own DISCONNECT, else the reason.
    case closed(String?)
}
