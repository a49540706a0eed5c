import JSON
import MQTT
import Sensors

/// Home Assistant MQTT discovery (home-assistant.io/integrations/mqtt, "MQTT Discovery"): one
/// retained config message per quantity on `<discovery-prefix>/<component>/<object-id>/config`,
/// so that every sensor appears with its name, unit, device class and state class, grouped
/// under its device, and unavailable whenever the gateway or the device's link is down.
public struct HomeAssistantDiscovery: Sendable {
    public var prefix: String
    public var topics: GatewayTopics
    /// rtstack's version, shown as the origin's software version.
    public var softwareVersion: String

    public init(prefix: String = "homeassistant", topics: GatewayTopics, softwareVersion: String) {
        self.prefix = prefix
        self.topics = topics
        self.softwareVersion = softwareVersion
    }

    /// `sensor`, `binary_sensor` or `event`.
    public static func component(for q: SensorQuantity) -> String {
        switch q.kind {
        case .binary: return "binary_sensor"
        case .event: return "event"
        case .measurement, .totalIncreasing, .diagnostic: return "sensor"
        }
    }

    /// `rtstack_<gateway>_<device>_<quantity>`: unique across gateways, devices and quantities.
    public func uniqueID(device: DeviceIdentity, key: String) -> String {
        TopicLevel.sanitize("rtstack_" + topics.gatewayID + "_" + device.id + "_" + key)
    }

    public func configTopic(for q: SensorQuantity, device: DeviceIdentity) -> String {
        prefix + "/" + Self.component(for: q) + "/" + uniqueID(device: device, key: q.key) + "/config"
    }

    /// The retained config message for one quantity.
    public func config(for q: SensorQuantity, device: DeviceIdentity) -> MQTTMessage {
        var o = JSONObject()
        o.add("name", q.name)
        o.add("unique_id", uniqueID(device: device, key: q.key))
        o.add("state_topic", topics.quantity(device.id, q.key))
        switch q.kind {
        case .binary:
            o.add("value_template", "{{ 'ON' if value_json.value else 'OFF' }}")
        case .event:
            o.add("event_types", strings: Self.eventTypes(for: q))
        case .measurement, .totalIncreasing, .diagnostic:
            o.add("value_template", "{{ value_json.value }}")
            if let u = q.unit { o.add("unit_of_measurement", u.rawValue) }
            if let s = q.kind.stateClass, q.value.number != nil || !q.value.isAvailable { o.add("state_class", s) }
            if let n = q.value.number { o.add("suggested_display_precision", n.decimals) }
        }
        if let dc = q.deviceClass { o.add("device_class", dc.rawValue) }
        if q.kind == .diagnostic { o.add("entity_category", "diagnostic") }
        var gateway = JSONObject()
        gateway.add("topic", topics.availability)
        var link = JSONObject()
        link.add("topic", topics.deviceAvailability(device.id))
        o.add("availability", objects: [gateway, link])
        o.add("availability_mode", "all")
        o.add("device", deviceBlock(device))
        var origin = JSONObject()
        origin.add("name", "rtstack")
        origin.add("sw_version", softwareVersion)
        o.add("origin", origin)
        return MQTTMessage(topic: configTopic(for: q, device: device), text: o.finished, qos: .atLeastOnce, retain: true)
    }

    /// The empty retained message that removes a quantity's entity from Home Assistant.
    public func removal(for q: SensorQuantity, device: DeviceIdentity) -> MQTTMessage {
        MQTTMessage(topic: configTopic(for: q, device: device), payload: [], qos: .atLeastOnce, retain: true)
    }

    func deviceBlock(_ d: DeviceIdentity) -> JSONObject {
        var o = JSONObject()
        o.add("identifiers", strings: [TopicLevel.sanitize("rtstack_" + topics.gatewayID + "_" + d.id)])
        o.add("connections", raw: "[[\"bluetooth\"," + quoted(d.address) + "]]")
        o.add("name", d.name)
        if let m = d.model { o.add("model", m) }
        if let m = d.manufacturer { o.add("manufacturer", m) }
        o.add("via_device", TopicLevel.sanitize("rtstack_" + topics.gatewayID))
        return o
    }

    private func quoted(_ s: String) -> String {
        var out = ""
        JSONObject.appendQuoted(s, to: &out)
        return out
    }

    static func eventTypes(for q: SensorQuantity) -> [String] {
        q.key.hasPrefix("dimmer") ? BTHomeObject.dimmerEventTypes : BTHomeObject.buttonEventTypes
    }
}
