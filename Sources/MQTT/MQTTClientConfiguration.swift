import Timing

/// Everything an `MQTTClient` needs to know before it connects.
public struct MQTTClientConfiguration: Sendable {
    public var broker: MQTTBrokerURL
    /// MQTT client identifier; the broker drops an older connection with the same id.
    public var clientID: String
    /// Overrides the URL's credentials when set.
    public var username: String?
    public var password: String?
    /// PEM file of the CA that signed the broker's certificate (mqtts://). Without it the
    /// system's trusted CAs are used.
    public var caFile: String?
    /// Client certificate and key (PEM), for brokers that authenticate clients by certificate.
    public var certificateFile: String?
    public var keyFile: String?
    /// Seconds between keep-alive pings when nothing else is sent (MQTT 3.1.1 §3.1.2.10).
    public var keepAlive: Int
    /// The availability topic: the broker publishes `offlinePayload` there, retained, when the
    /// connection dies without a DISCONNECT (the last will); the client publishes
    /// `onlinePayload` retained after every CONNACK and `offlinePayload` before a clean stop.
    public var availability: Availability?
    /// Most messages held while the broker is away or slow (waiting plus unacknowledged).
    /// Beyond it the oldest waiting message is dropped and counted.
    public var queueLimit: Int
    /// Most messages sent and not yet acknowledged at once.
    public var inFlightLimit: Int
    public var reconnect: Backoff
    /// Nanoseconds to wait for CONNACK before giving the attempt up.
    public var connectTimeout: UInt64

    public struct Availability: Sendable, Hashable {
        public var topic: String
        public var onlinePayload: String
        public var offlinePayload: String
        public var qos: MQTTQoS

        public init(topic: String, onlinePayload: String = "online", offlinePayload: String = "offline", qos: MQTTQoS = .atLeastOnce) {
            self.topic = topic
            self.onlinePayload = onlinePayload
            self.offlinePayload = offlinePayload
            self.qos = qos
        }
    }

    public init(broker: MQTTBrokerURL, clientID: String, username: String? = nil, password: String? = nil,
                caFile: String? = nil, certificateFile: String? = nil, keyFile: String? = nil,
                keepAlive: Int = 30, availability: Availability? = nil, queueLimit: Int = 10_000,
                inFlightLimit: Int = 64, reconnect: Backoff = .broker,
                connectTimeout: UInt64 = 10_000_000_000) {
        self.broker = broker
        self.clientID = clientID
        self.username = username ?? broker.username
        self.password = password ?? broker.password
        self.caFile = caFile
        self.certificateFile = certificateFile
        self.keyFile = keyFile
        self.keepAlive = keepAlive
        self.availability = availability
        self.queueLimit = queueLimit
        self.inFlightLimit = inFlightLimit
        self.reconnect = reconnect
        self.connectTimeout = connectTimeout
    }

    /// Why this configuration cannot work; nil when it can.
    public var problem: String? {
        if clientID.isEmpty || clientID.utf8.count > 65535 { return "client id must be 1 to 65535 octets" }
        if !(5...65535).contains(keepAlive) { return "keep-alive must be 5 to 65535 seconds, got \(keepAlive)" }
        if queueLimit < 1 { return "queue limit must be at least 1, got \(queueLimit)" }
        if !(1...65535).contains(inFlightLimit) { return "in-flight limit must be 1 to 65535, got \(inFlightLimit)" }
        if connectTimeout == 0 { return "connect timeout must be positive" }
        if let a = availability, let p = MQTTMessage.problem(publishingTo: a.topic) { return "availability topic: " + p }
        if caFile != nil && !broker.usesTLS { return "a CA file is given but the broker URL is mqtt:// (use mqtts://)" }
        if (certificateFile == nil) != (keyFile == nil) { return "a client certificate needs both a certificate and a key file" }
        return nil
    }
}
