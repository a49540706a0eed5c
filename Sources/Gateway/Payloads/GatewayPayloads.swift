import JSON
import MQTT
import Sensors
import Wire

/// The JSON the gateway publishes (Docs/gateway.md has one example of each). Times are UTC ISO
/// 8601 to the millisecond, from seconds since 1970 that the caller passes (the gateway reads
/// the wall clock; the formats read no clock).
public enum GatewayPayloads {
    /// A measurement: `{"value":21.38,"unit":"°C","time":"…"}`; `null` and a `reason` when the
    /// sensor sent "not known" or a special value; `{"event_type":"press",…}` for events, the
    /// form Home Assistant's MQTT event entity reads.
    public static func measurement(_ q: SensorQuantity, time: Double, sequence: UInt64? = nil) -> String {
        measurement(q, stamp: UnixTime.iso8601(time), sequence: sequence)
    }

    /// The same with the time already as text (`UnixTime.iso8601`), so that the quantities of
    /// one notification share one formatting of it.
    public static func measurement(_ q: SensorQuantity, stamp: String, sequence: UInt64? = nil) -> String {
        measurementObject(q, stamp: stamp, sequence: sequence).finished
    }

    /// The same as the MQTT payload's octets, the one form the gateway publishes: the text is
    /// built in one allocation and copied out once (a measurement is 60–100 octets).
    public static func measurementPayload(_ q: SensorQuantity, stamp: String) -> [UInt8] {
        measurementObject(q, stamp: stamp, sequence: nil).finishedUTF8
    }

    private static func measurementObject(_ q: SensorQuantity, stamp: String, sequence: UInt64?) -> JSONObject {
        var o = JSONObject(reservingCapacity: 128)
        if q.kind == .event {
            if case .text(let t) = q.value { o.add("event_type", t) }
        }
        addValue(q, into: &o)
        o.add("time", stamp)
        if let s = sequence { o.add("seq", raw: String(s)) }
        return o
    }

    /// `"value"`, `"reason"` when unavailable, and `"unit"`.
    static func addValue(_ q: SensorQuantity, into o: inout JSONObject) {
        switch q.value {
        case .number(let n): o.add("value", raw: n.description)
        case .boolean(let b): o.add("value", b)
        case .text(let t): o.add("value", t)
        case .unavailable(let why):
            o.add("value", raw: "null")
            o.add("reason", why)
        }
        if let u = q.unit { o.add("unit", u.rawValue) }
    }

    /// A link's state: `{"state":"ready","address":"C1:…/random","name":"Heart 1","adapter":"hci0","rssi":-61,"time":"…"}`.
    public static func deviceState(_ r: DeviceStateReport, time: Double) -> String {
        var o = JSONObject()
        addDeviceState(r, into: &o)
        o.add("time", UnixTime.iso8601(time))
        return o.finished
    }

    /// A link state's fields, shared by the MQTT state message and the control socket's device list.
    static func addDeviceState(_ r: DeviceStateReport, into o: inout JSONObject) {
        o.add("state", r.state)
        o.add("address", r.address)
        if let n = r.name { o.add("name", n) }
        if let a = r.adapter { o.add("adapter", a) }
        if let rssi = r.rssi { o.add("rssi", rssi) }
        if let why = r.reason { o.add("reason", why) }
    }

    /// An adapter: `{"adapter":"hci0","state":"up","backend":"user-channel","address":"…","links":3,"slots_free":2,"time":"…"}`.
    public static func adapterStatus(_ r: AdapterStatusReport, time: Double) -> String {
        var o = JSONObject()
        addAdapterStatus(r, linksKey: "links", into: &o)
        o.add("time", UnixTime.iso8601(time))
        return o.finished
    }

    /// An adapter's fields, shared by the MQTT status message (`links`) and the control socket's
    /// adapter list (`slots_used`, next to `slots_free`).
    static func addAdapterStatus(_ r: AdapterStatusReport, linksKey: String, into o: inout JSONObject) {
        o.add("adapter", r.adapter)
        o.add("state", r.state)
        if let b = r.backend { o.add("backend", b) }
        if let a = r.address { o.add("address", a) }
        o.add(linksKey, r.links)
        if let free = r.slotsFree { o.add("slots_free", free) }
        if let limit = r.slotLimit { o.add("slot_limit", limit) }
        if let why = r.reason { o.add("reason", why) }
    }

    /// The gateway itself: version, uptime, devices and the MQTT client's counters.
    public static func gatewayStatus(_ r: GatewayStatusReport, time: Double) -> String {
        var o = JSONObject()
        o.add("version", r.version)
        o.add("uptime_s", r.uptimeSeconds, decimals: 0)
        o.add("devices", r.devicesConfigured)
        o.add("connected", r.devicesConnected)
        o.add("adapters", r.adapters)
        var m = JSONObject()
        m.add("queued", r.mqtt.queued)
        m.add("dropped", r.mqtt.dropped)
        m.add("delivered", r.mqtt.delivered)
        m.add("connections", r.mqtt.connections)
        m.add("connections_lost", r.mqtt.connectionsLost)
        o.add("mqtt", m)
        if let d = r.droppedSinceLastReport { o.add("dropped_while_offline", d) }
        o.add("time", UnixTime.iso8601(time))
        return o.finished
    }

    /// A value that did not decode: `{"characteristic":"2A37","issue":"…","value":"10 48","time":"…"}`.
    public static func issue(characteristic: String, message: String, value: [UInt8]?, time: Double) -> String {
        var o = JSONObject()
        o.add("characteristic", characteristic)
        o.add("issue", message)
        if let v = value { o.add("value", Hex.string(v)) }
        o.add("time", UnixTime.iso8601(time))
        return o.finished
    }
}

/// What the gateway knows about a link, for `<device>/state`.
public struct DeviceStateReport: Sendable, Hashable {
    /// The link state's name (scanning, connecting, connected, ready, disconnected…).
    public var state: String
    /// With its type: "C1:00:00:00:00:01/random".
    public var address: String
    public var name: String?
    public var adapter: String?
    public var rssi: Int?
    /// Why the link is in this state (the disconnection reason, the failure).
    public var reason: String?

    public init(state: String, address: String, name: String? = nil, adapter: String? = nil, rssi: Int? = nil, reason: String? = nil) {
        self.state = state
        self.address = address
        self.name = name
        self.adapter = adapter
        self.rssi = rssi
        self.reason = reason
    }

    /// Whether Home Assistant should show the device's entities as available.
    public var isAvailable: Bool { state == "ready" || state == "connected" || state == "advertising" }
}

public struct AdapterStatusReport: Sendable, Hashable {
    public var adapter: String
    /// up, down, failed.
    public var state: String
    public var backend: String?
    public var address: String?
    public var links: Int
    /// Connection slots the controller has left, when known.
    public var slotsFree: Int?
    /// Links the controller takes at most, once learned (a refusal, LE Supported States).
    public var slotLimit: Int?
    public var reason: String?

    public init(adapter: String, state: String, backend: String? = nil, address: String? = nil, links: Int = 0,
                slotsFree: Int? = nil, slotLimit: Int? = nil, reason: String? = nil) {
        self.adapter = adapter
        self.state = state
        self.backend = backend
        self.address = address
        self.links = links
        self.slotsFree = slotsFree
        self.slotLimit = slotLimit
        self.reason = reason
    }
}

public struct GatewayStatusReport: Sendable, Equatable {
    public var version: String
    public var uptimeSeconds: Double
    public var devicesConfigured: Int
    public var devicesConnected: Int
    public var adapters: Int
    public var mqtt: MQTTStatistics
    /// Messages dropped while the broker was away, reported once after it is back.
    public var droppedSinceLastReport: Int?

    public init(version: String, uptimeSeconds: Double, devicesConfigured: Int, devicesConnected: Int, adapters: Int,
                mqtt: MQTTStatistics, droppedSinceLastReport: Int? = nil) {
        self.version = version
        self.uptimeSeconds = uptimeSeconds
        self.devicesConfigured = devicesConfigured
        self.devicesConnected = devicesConnected
        self.adapters = adapters
        self.mqtt = mqtt
        self.droppedSinceLastReport = droppedSinceLastReport
    }
}
