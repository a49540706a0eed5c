import Testing
import MQTT
import Sensors
import Wire
@testable import Gateway

@Suite struct GatewayPayloadTests {
    // 2024-03-09T07:05:00.250Z
    let t = 1_709_967_900.25

    @Test func measurements() {
        let temperature = SensorQuantity.number("temperature", "Temperature", 2138, exponent: -2, unit: .celsius, deviceClass: .temperature)
        #expect(GatewayPayloads.measurement(temperature, time: t)
                == #"{"value":21.38,"unit":"°C","time":"2024-03-09T07:05:00.250Z"}"#)
        #expect(GatewayPayloads.measurement(temperature, time: t, sequence: 7)
                == #"{"value":21.38,"unit":"°C","time":"2024-03-09T07:05:00.250Z","seq":7}"#)
        let nan = SensorQuantity(key: "temperature", name: "Temperature", value: .unavailable("NaN"), unit: .celsius)
        #expect(GatewayPayloads.measurement(nan, time: t) == #"{"value":null,"reason":"NaN","unit":"°C","time":"2024-03-09T07:05:00.250Z"}"#)
        let motion = SensorQuantity(key: "motion", name: "Motion", value: .boolean(true), kind: .binary)
        #expect(GatewayPayloads.measurement(motion, time: t) == #"{"value":true,"time":"2024-03-09T07:05:00.250Z"}"#)
        let button = SensorQuantity(key: "button", name: "Button", value: .text("double_press"), kind: .event)
        #expect(GatewayPayloads.measurement(button, time: t)
                == #"{"event_type":"double_press","value":"double_press","time":"2024-03-09T07:05:00.250Z"}"#)
        let url = SensorQuantity(key: "eddystone_url", name: "URL", value: .text("https://a.com/\"q\""), kind: .diagnostic)
        #expect(GatewayPayloads.measurement(url, time: t) == #"{"value":"https://a.com/\"q\"","time":"2024-03-09T07:05:00.250Z"}"#)
    }

    /// Every quantity of every decoder gives a JSON object that a JSON parser reads back with
    /// the same value (libyaml reads JSON).
    @Test func everyQuantityIsValidJSON() throws {
        for q in AllQuantities.connected + AllQuantities.passive {
            let text = GatewayPayloads.measurement(q, time: t)
            let node = try YAMLDocument.parse(text)
            guard case .mapping(let pairs, _) = node else { Issue.record("\(text) is not an object"); continue }
            let value = pairs.first { $0.key.scalarText == "value" }?.value
            switch q.value {
            case .number(let n): #expect(value?.scalarText.flatMap(Double.init) == n.double, "\(text)")
            case .boolean(let b): #expect(value?.scalarText == (b ? "true" : "false"))
            case .text(let s): #expect(value?.scalarText == s)
            case .unavailable: #expect(value?.isNull == true)
            }
        }
    }

    @Test func states() {
        let s = DeviceStateReport(state: "ready", address: "C1:00:00:00:00:01/random", name: "Heart 1", adapter: "hci0", rssi: -61)
        #expect(GatewayPayloads.deviceState(s, time: t)
                == #"{"state":"ready","address":"C1:00:00:00:00:01/random","name":"Heart 1","adapter":"hci0","rssi":-61,"time":"2024-03-09T07:05:00.250Z"}"#)
        #expect(s.isAvailable)
        let lost = DeviceStateReport(state: "disconnected", address: "C1:00:00:00:00:01/random", reason: "Connection Timeout (0x08)")
        #expect(GatewayPayloads.deviceState(lost, time: t).contains(#""reason":"Connection Timeout (0x08)""#))
        #expect(!lost.isAvailable)
        let a = AdapterStatusReport(adapter: "hci0", state: "up", backend: "user-channel", address: "00:AA:01:00:00:00", links: 3, slotsFree: 2)
        #expect(GatewayPayloads.adapterStatus(a, time: t)
                == #"{"adapter":"hci0","state":"up","backend":"user-channel","address":"00:AA:01:00:00:00","links":3,"slots_free":2,"time":"2024-03-09T07:05:00.250Z"}"#)
        var stats = MQTTStatistics()
        stats.queued = 4
        stats.dropped = 30
        let g = GatewayStatusReport(version: "0.1", uptimeSeconds: 3600.4, devicesConfigured: 3, devicesConnected: 2, adapters: 1,
                                    mqtt: stats, droppedSinceLastReport: 30)
        #expect(GatewayPayloads.gatewayStatus(g, time: t)
                == #"{"version":"0.1","uptime_s":3600,"devices":3,"connected":2,"adapters":1,"mqtt":{"queued":4,"dropped":30,"delivered":0,"connections":0,"connections_lost":0},"dropped_while_offline":30,"time":"2024-03-09T07:05:00.250Z"}"#)
        #expect(GatewayPayloads.issue(characteristic: "2A37", message: "truncated RR-Interval", value: [0x10, 0x48], time: t)
                == #"{"characteristic":"2A37","issue":"truncated RR-Interval","value":"1048","time":"2024-03-09T07:05:00.250Z"}"#)
    }
}

@Suite struct GatewayCommandTests {
    let topics = GatewayTopics(gatewayID: "gw")

    func parse(_ topic: String, _ payload: String) -> Result<GatewayCommand, GatewayCommandError>? {
        GatewayCommand.parse(topic: topic, payload: Array(payload.utf8), topics: topics)
    }

    @Test func reads() throws {
        #expect(try parse("rtstack/gw/heart/read/2A19", "")?.get()
                == GatewayCommand(device: "heart", operation: .read, target: .uuid(BluetoothUUID(0x2A19))))
        #expect(try parse("rtstack/gw/heart/read/2A19", "r1")?.get().requestID == "r1")
        #expect(try parse("rtstack/gw/heart/read/0x0031", #"{"id": 17}"#)?.get()
                == GatewayCommand(device: "heart", operation: .read, target: .handle(0x31), requestID: "17"))
        #expect(try parse("rtstack/gw/t/read/EF680201-9B35-4933-9B10-52FFA9740042", "")?.get().target
                == .uuid(SensorCharacteristicUUID.thingyTemperature))
        #expect(parse("rtstack/gw/heart/status", "") == nil)
    }

    @Test func writes() throws {
        #expect(try parse("rtstack/gw/hrm/write/2A39", "01")?.get().value == [0x01])
        #expect(try parse("rtstack/gw/hrm/write/2A39", "01 00:ff")?.get().value == [0x01, 0x00, 0xFF])
        let json = try parse("rtstack/gw/hrm/write/2A39", #"{"id":"w1","value":"0100","response":false}"#)?.get()
        #expect(json == GatewayCommand(device: "hrm", operation: .write, target: .uuid(BluetoothUUID(0x2A39)),
                                       requestID: "w1", value: [1, 0], withResponse: false))
    }

    @Test func badCommandsSayWhy() {
        func message(_ topic: String, _ payload: String) -> String? {
            if case .failure(let e)? = parse(topic, payload) { return e.message }
            return nil
        }
        #expect(message("rtstack/gw/h/read/zz", "") == "'zz' is neither a characteristic UUID (2A19, 128-bit form) nor a handle (0x0031)")
        #expect(message("rtstack/gw/h/write/2A39", "") == #"a write needs a value: hex octets, or a JSON object with "value""#)
        #expect(message("rtstack/gw/h/write/2A39", "0g") == "'0g' is not hex octets")
        #expect(message("rtstack/gw/h/write/2A39", "123") == "'123' is not hex octets")
        #expect(message("rtstack/gw/h/write/2A39", #"{"id":"x"}"#) == #"a write needs "value" (hex octets)"#)
        #expect(message("rtstack/gw/h/read/2A19", #"{"value":"01"}"#) == #"a read takes no "value""#)
        #expect(message("rtstack/gw/h/read/2A19", #"{"idd":"01"}"#) == #"unknown key "idd" (known: id)"#)
        #expect(message("rtstack/gw/h/write/2A39", #"{"value":"01","response":"maybe"}"#) == #""response" must be true or false"#)
        #expect(message("rtstack/gw/h/read/2A19", "{not json") != nil)
        if case .failure(let e)? = parse("rtstack/gw/h/write/2A39", #"{"id":"w9","value":"zz"}"#) {
            #expect(e.requestID == "w9")   // the reply can still carry the caller's id
            #expect(GatewayReply.failure(e, characteristic: "2A39", time: 0)
                    == #"{"id":"w9","op":"write","characteristic":"2A39","ok":false,"error":"\"value\" is not hex octets: 'zz'","time":"1970-01-01T00:00:00.000Z"}"#)
        } else {
            Issue.record("not refused")
        }
    }

    @Test func replies() throws {
        let read = try #require(try parse("rtstack/gw/heart/read/2A19", "r1")?.get())
        #expect(GatewayReply.success(read, value: [0x64], time: 0)
                == #"{"id":"r1","op":"read","characteristic":"2A19","ok":true,"value":"64","decoded":{"battery":{"value":100,"unit":"%"}},"time":"1970-01-01T00:00:00.000Z"}"#)
        #expect(GatewayReply.success(read, value: [0xC8], time: 0).contains(#""issue":"malformed Battery Level: invalid Battery Level: 0xc8""#))
        let write = try #require(try parse("rtstack/gw/hrm/write/2A39", "01")?.get())
        #expect(GatewayReply.success(write, time: 0) == #"{"op":"write","characteristic":"2A39","ok":true,"time":"1970-01-01T00:00:00.000Z"}"#)
        #expect(GatewayReply.failure(write, error: "ATT error 0x03 Write Not Permitted", time: 0)
                == #"{"op":"write","characteristic":"2A39","ok":false,"error":"ATT error 0x03 Write Not Permitted","time":"1970-01-01T00:00:00.000Z"}"#)
    }
}
