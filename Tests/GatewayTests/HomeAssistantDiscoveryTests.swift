import Testing
import MQTT
import Sensors
@testable import Gateway

@Suite struct HomeAssistantDiscoveryTests {
    let discovery = HomeAssistantDiscovery(topics: GatewayTopics(gatewayID: "garage"), softwareVersion: "0.1")
    let heart = DeviceIdentity(id: "heart", name: "Heart 1", address: "C1:00:00:00:00:01", model: "Heart Rate Sensor")

    static func object(_ m: MQTTMessage) throws -> [String: YAMLNode] {
        guard case .mapping(let pairs, _) = try YAMLDocument.parse(m.text) else { return [:] }
        return Dictionary(uniqueKeysWithValues: pairs.compactMap { p in p.key.scalarText.map { ($0, p.value) } })
    }

    @Test func aTemperatureSensor() throws {
        let q = SensorQuantity.number("temperature", "Temperature", 2138, exponent: -2, unit: .celsius, deviceClass: .temperature)
        let m = discovery.config(for: q, device: heart)
        #expect(m.topic == "homeassistant/sensor/rtstack_garage_heart_temperature/config")
        #expect(m.retain && m.qos == .atLeastOnce)
        #expect(m.text == #"{"name":"Temperature","unique_id":"rtstack_garage_heart_temperature","state_topic":"rtstack/garage/heart/temperature","value_template":"{{ value_json.value }}","unit_of_measurement":"°C","state_class":"measurement","suggested_display_precision":2,"device_class":"temperature","availability":[{"topic":"rtstack/garage/status"},{"topic":"rtstack/garage/heart/available"}],"availability_mode":"all","device":{"identifiers":["rtstack_garage_heart"],"connections":[["bluetooth","C1:00:00:00:00:01"]],"name":"Heart 1","model":"Heart Rate Sensor","via_device":"rtstack_garage"},"origin":{"name":"rtstack","sw_version":"0.1"}}"#)
        #expect(discovery.removal(for: q, device: heart) == MQTTMessage(topic: m.topic, payload: [], qos: .atLeastOnce, retain: true))
    }

    /// Every quantity of step 1 gets a config that parses, names its state topic, unit, device
    /// class and state class as the quantity says, and a component that fits its kind.
    @Test func everyQuantityHasAConfig() throws {
        var topics = Set<String>()
        for q in AllQuantities.connected + AllQuantities.passive {
            let device = DeviceIdentity(address: "C1:00:00:00:00:01")
            let m = discovery.config(for: q, device: device)
            let o = try Self.object(m)
            #expect(o["state_topic"]?.scalarText == "rtstack/garage/c10000000001/" + q.key)
            #expect(o["name"]?.scalarText == q.name)
            #expect(o["device_class"]?.scalarText == q.deviceClass?.rawValue)
            switch q.kind {
            case .binary:
                #expect(m.topic.hasPrefix("homeassistant/binary_sensor/"))
                #expect(o["value_template"]?.scalarText == "{{ 'ON' if value_json.value else 'OFF' }}")
            case .event:
                #expect(m.topic.hasPrefix("homeassistant/event/"))
                guard case .sequence(let types, _)? = o["event_types"] else { Issue.record("no event types"); continue }
                #expect(!types.isEmpty)
            default:
                #expect(m.topic.hasPrefix("homeassistant/sensor/"))
                #expect(o["unit_of_measurement"]?.scalarText == q.unit?.rawValue)
                #expect(o["state_class"]?.scalarText == (q.value.number != nil ? q.kind.stateClass : nil))
                #expect((o["entity_category"]?.scalarText == "diagnostic") == (q.kind == .diagnostic))
            }
            topics.insert(m.topic)
        }
        // Keys repeat across decoders (temperature), but one device's quantities keep distinct topics.
        #expect(topics.count > 50)
    }

    /// Units paired with device classes are ones Home Assistant accepts for that class
    /// (home-assistant.io/integrations/sensor, "Device class"), so no entity is rejected.
    @Test func unitsFitTheirDeviceClasses() {
        let accepted: [String: Set<String>] = [
            "temperature": ["°C", "°F", "K"], "humidity": ["%"], "battery": ["%"], "moisture": ["%"],
            "pressure": ["Pa", "kPa", "hPa", "bar", "cbar", "mbar", "mmHg", "inHg", "psi"],
            "atmospheric_pressure": ["Pa", "kPa", "hPa", "bar", "cbar", "mbar", "mmHg", "inHg", "psi"],
            "speed": ["m/s", "km/h", "mph", "ft/s", "kn", "mm/s", "in/s", "in/d", "in/h", "mm/d", "mm/h"],
            "distance": ["km", "m", "cm", "mm", "mi", "yd", "in", "ft"], "duration": ["d", "h", "min", "s", "ms"],
            "energy": ["J", "kJ", "MJ", "GJ", "Wh", "kWh", "MWh", "GWh", "TWh", "cal", "kcal", "Mcal", "Gcal"],
            "power": ["W", "kW", "MW", "GW", "TW", "mW"], "voltage": ["V", "mV", "µV", "kV", "MV"],
            "current": ["A", "mA"], "illuminance": ["lx"], "weight": ["kg", "g", "mg", "µg", "oz", "lb", "st"],
            "carbon_dioxide": ["ppm"], "volatile_organic_compounds": ["µg/m³", "mg/m³"], "pm25": ["µg/m³"], "pm10": ["µg/m³"],
            "gas": ["m³", "ft³", "CCF", "L"], "volume": ["L", "mL", "gal", "fl. oz.", "m³", "ft³", "CCF"],
            "volume_storage": ["L", "mL", "gal", "fl. oz.", "m³", "ft³", "CCF"], "water": ["L", "gal", "m³", "ft³", "CCF"],
            "volume_flow_rate": ["m³/h", "ft³/min", "L/min", "gal/min", "mL/s"], "precipitation": ["cm", "in", "mm"],
            "conductivity": ["S/cm", "µS/cm", "mS/cm"], "signal_strength": ["dB", "dBm"],
        ]
        for q in AllQuantities.connected + AllQuantities.passive {
            guard let dc = q.deviceClass, q.kind != .binary, q.kind != .event, dc != .timestamp else { continue }
            let units = accepted[dc.rawValue]
            #expect(units != nil, "device class \(dc) of \(q.key) is not in the table")
            if let u = q.unit, let units { #expect(units.contains(u.rawValue), "\(q.key): \(u) for \(dc)") }
        }
    }
}
