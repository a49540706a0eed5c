import HostCore
import MQTT
import Testing
import Wire
@testable import Gateway

/// The gateway's decisions over scripted hosts: where links go, what a full controller
/// teaches, what a lost adapter's links do, what is published.
@Suite struct GatewayControllerTests {
    let heartAd = GatewayRig.advertisingData(.heartRate, name: "Heart 1")
    let speedAd = GatewayRig.advertisingData(.runningSpeedAndCadence, name: "Speed 1")

    @Test func aDeviceGoesToTheAdapterThatHearsItBest() {
        let rig = GatewayRig(adapters: 2)
        rig.advertise(GatewayRig.heart, heartAd, adapter: 0, rssi: -70)
        #expect(rig.hosts[0].connects.isEmpty && rig.hosts[1].connects.isEmpty, "waits for the other adapter")
        rig.advertise(GatewayRig.heart, heartAd, adapter: 1, rssi: -50)
        #expect(rig.hosts[1].connects.map(\.peer) == [GatewayRig.heart])
        #expect(rig.hosts[0].connects.isEmpty)
        let plan = rig.hosts[1].connects[0].plan
        #expect(plan.subscriptions.map(\.characteristic) == [BluetoothUUID(0x2A37)], "the session's heart-rate measurement")
        #expect(plan.reconnect != nil)
    }

    @Test func aDeviceHeardByOneAdapterIsPlacedAfterTheWindow() {
        let rig = GatewayRig(adapters: 2)
        rig.advertise(GatewayRig.heart, heartAd, adapter: 1, rssi: -80)
        rig.advance(milliseconds: 400)
        #expect(rig.hosts[1].connects.isEmpty)
        rig.advance(milliseconds: 200)
        #expect(rig.hosts[1].connects.map(\.peer) == [GatewayRig.heart])
    }

    @Test func aFullControllerTeachesItsSlotsAndTheLinkMoves() throws {
        let rig = GatewayRig(adapters: 2)
        rig.advertise(GatewayRig.heart, heartAd, adapter: 0, rssi: -40)
        rig.advertise(GatewayRig.heart, heartAd, adapter: 1, rssi: -60)
        rig.bringUp(GatewayRig.heart, adapter: 0, db: GatewayRig.heartDatabase)
        rig.advertise(GatewayRig.speed, speedAd, adapter: 0, rssi: -40)
        rig.advertise(GatewayRig.speed, speedAd, adapter: 1, rssi: -60)
        let refused = try #require(rig.hosts[0].link(to: GatewayRig.speed), "placed on the better adapter first")
        rig.event(.connectFailed(refused, .commandFailed(.leCreateConnection, .connectionLimitExceeded), willRetry: true), adapter: 0)
        #expect(rig.hosts[0].disconnects == [refused], "the refused attempt is ended there")
        #expect(rig.hosts[1].connects.map(\.peer) == [GatewayRig.speed], "and made on the other adapter")
        let status = try #require(rig.lastText(on: "rtstack/gw/adapter/hci0"))
        #expect(status.contains(#""slot_limit":1"#) && status.contains(#""slots_free":0"#))
        #expect(status.contains("Connection Limit Exceeded (0x09)"))
        let state = try #require(rig.lastText(on: "rtstack/gw/speed/state"))
        #expect(state.contains(#""adapter":"hci1""#) && state.contains("Connection Limit Exceeded (0x09)"))

        // Known full now: the next device goes straight to the adapter with room, whatever
        // the RSSI says.
        let thingy = GatewayRig.advertisingData(BluetoothUUID(string: "EF680100-9B35-4933-9B10-52FFA9740042")!)
        rig.advertise(GatewayRig.thingy, thingy, adapter: 0, rssi: -30)
        rig.advertise(GatewayRig.thingy, thingy, adapter: 1, rssi: -90)
        #expect(rig.hosts[0].link(to: GatewayRig.thingy) == nil)
        #expect(rig.hosts[1].link(to: GatewayRig.thingy) != nil)
    }

    @Test func memoryCapacityInTheCompletionCountsAsFullToo() throws {
        let rig = GatewayRig(adapters: 2)
        rig.advertise(GatewayRig.heart, heartAd, adapter: 0, rssi: -40)
        rig.advertise(GatewayRig.heart, heartAd, adapter: 1, rssi: -60)
        let link = try #require(rig.hosts[0].link(to: GatewayRig.heart))
        rig.event(.connectFailed(link, .connectionFailed(.memoryCapacityExceeded), willRetry: true), adapter: 0)
        #expect(rig.hosts[1].link(to: GatewayRig.heart) != nil)
        #expect(rig.lastText(on: "rtstack/gw/adapter/hci0")?.contains(#""slot_limit":0"#) == true,
                "no link up when refused: this controller takes none")
    }

    @Test func withEveryAdapterFullTheDeviceWaitsAndGetsTheNextFreeSlot() throws {
        let rig = GatewayRig(adapters: 1)
        rig.advertise(GatewayRig.heart, heartAd, adapter: 0, rssi: -40)
        rig.bringUp(GatewayRig.heart, adapter: 0, db: GatewayRig.heartDatabase)
        rig.advertise(GatewayRig.speed, speedAd, adapter: 0, rssi: -40)
        let speedLink = try #require(rig.hosts[0].link(to: GatewayRig.speed))
        rig.event(.connectFailed(speedLink, .commandFailed(.leCreateConnection, .connectionLimitExceeded), willRetry: true), adapter: 0)
        #expect(rig.lastText(on: "rtstack/gw/speed/state")?.contains(#""state":"waiting_for_slot""#) == true)
        let connectsBefore = rig.hosts[0].connects.count
        let heartLink = try #require(rig.hosts[0].link(to: GatewayRig.heart))
        rig.event(.disconnected(heartLink, reason: .remoteUserTerminatedConnection, willReconnect: false), adapter: 0)
        #expect(rig.hosts[0].connects.count == connectsBefore + 1 && rig.hosts[0].connects.last?.peer == GatewayRig.speed,
                "the freed slot goes to the waiting device")
    }

    @Test func aControllerThatCannotInitiateWhileCentralHasOneSlot() {
        var info = ControllerInfo()
        info.leStates = 0x0000_0000_0FFF_FFFF & ~(UInt64(1) << 28)
        let rig = GatewayRig(adapters: 2, info: info)
        #expect(rig.lastText(on: "rtstack/gw/adapter/hci0")?.contains(#""slot_limit":1"#) == true)
        rig.advertise(GatewayRig.heart, heartAd, adapter: 0, rssi: -40)
        rig.advertise(GatewayRig.heart, heartAd, adapter: 1, rssi: -40)
        rig.advertise(GatewayRig.speed, speedAd, adapter: 0, rssi: -40)
        rig.advertise(GatewayRig.speed, speedAd, adapter: 1, rssi: -40)
        #expect(rig.hosts[0].connects.count == 1 && rig.hosts[1].connects.count == 1, "one link per one-slot controller")
    }

    @Test func aLostAdaptersLinksMoveToTheOthers() throws {
        let rig = GatewayRig(adapters: 2)
        rig.advertise(GatewayRig.heart, heartAd, adapter: 0, rssi: -40)
        rig.advertise(GatewayRig.heart, heartAd, adapter: 1, rssi: -60)
        rig.bringUp(GatewayRig.heart, adapter: 0, db: GatewayRig.heartDatabase)
        rig.controller.adapterClosed(0, reason: "tcp:…: the controller closed the connection (end of stream)", at: rig.now)
        rig.collect()
        #expect(rig.hosts[1].connects.map(\.peer) == [GatewayRig.heart], "connected at once through the other adapter")
        #expect(rig.lastText(on: "rtstack/gw/adapter/hci0")?.contains(#""state":"down""#) == true)
        #expect(rig.lastText(on: "rtstack/gw/heart/state")?.contains(#""adapter":"hci1""#) == true)
        #expect(rig.messages(on: "rtstack/gw/heart/available").last?.text == "offline")

        // Back: up again, and free for new devices.
        let back = ScriptedHost()
        rig.hosts[0] = back
        rig.controller.adapterOpened(0, host: back, at: rig.now)
        rig.event(.controllerReady(ControllerInfo()), adapter: 0)
        #expect(rig.lastText(on: "rtstack/gw/adapter/hci0")?.contains(#""state":"up""#) == true)
        #expect(back.scanRequests.last == true, "it scans for what is still missing")
    }

    @Test func measurementsGoOutWithTheirDiscoveryConfigFirst() throws {
        var c = GatewayConfiguration()
        c.mqtt.qos = .atMostOnce
        let rig = GatewayRig(adapters: 1, configuration: c)
        rig.advertise(GatewayRig.heart, heartAd, adapter: 0, rssi: -40)
        rig.bringUp(GatewayRig.heart, adapter: 0, db: GatewayRig.heartDatabase)
        let link = try #require(rig.hosts[0].link(to: GatewayRig.heart))
        let before = rig.published.count
        rig.event(.notification(link, attributeHandle: 0x12, value: [0x00, 72][...]), adapter: 0)
        let new = Array(rig.published[before...])
        #expect(new.map(\.topic) == ["homeassistant/sensor/rtstack_gw_heart_heart_rate/config", "rtstack/gw/heart/heart_rate"])
        #expect(new[0].retain && new[0].qos == .atLeastOnce)
        #expect(new[1].text == #"{"value":72,"unit":"bpm","time":"2023-11-14T22:13:20.000Z"}"#)
        #expect(new[1].qos == .atMostOnce && !new[1].retain)
        rig.event(.notification(link, attributeHandle: 0x12, value: [0x00, 73][...]), adapter: 0)
        #expect(rig.published.last?.topic == "rtstack/gw/heart/heart_rate", "the config goes out once")
        #expect(rig.messages(on: "homeassistant/sensor/rtstack_gw_heart_heart_rate/config").count == 1)
        rig.event(.notification(link, attributeHandle: 0x12, value: [0x11][...]), adapter: 0)
        #expect(rig.published.last?.topic == "rtstack/gw/heart/issue", "a malformed value is an issue")
    }

    /// A new broker connection may be a broker that lost its retained configs: each quantity's
    /// config goes out again before its next value, once, to the topic it had.
    @Test func aNewBrokerConnectionSendsEachConfigAgainBeforeTheNextValue() throws {
        let rig = GatewayRig(adapters: 1, configuration: GatewayConfiguration())
        rig.advertise(GatewayRig.heart, heartAd, adapter: 0, rssi: -40)
        rig.bringUp(GatewayRig.heart, adapter: 0, db: GatewayRig.heartDatabase)
        let link = try #require(rig.hosts[0].link(to: GatewayRig.heart))
        let config = "homeassistant/sensor/rtstack_gw_heart_heart_rate/config"
        rig.event(.notification(link, attributeHandle: 0x12, value: [0x00, 72][...]), adapter: 0)
        rig.controller.mqttConnected(at: rig.now)
        _ = rig.controller.takeMessages()
        let before = rig.published.count
        rig.event(.notification(link, attributeHandle: 0x12, value: [0x00, 73][...]), adapter: 0)
        rig.event(.notification(link, attributeHandle: 0x12, value: [0x00, 74][...]), adapter: 0)
        let new = Array(rig.published[before...]).map(\.topic)
        #expect(new == [config, "rtstack/gw/heart/heart_rate", "rtstack/gw/heart/heart_rate"])
    }

    @Test func aReadCommandIsAnsweredOnTheReplyTopic() throws {
        let rig = GatewayRig(adapters: 1)
        rig.advertise(GatewayRig.heart, heartAd, adapter: 0, rssi: -40)
        rig.bringUp(GatewayRig.heart, adapter: 0, db: GatewayRig.heartDatabase)
        rig.controller.mqttMessage(MQTTMessage(topic: "rtstack/gw/heart/read/2A19", text: "r1"), at: rig.now)
        rig.collect()
        let op = try #require(rig.hosts[0].operations.last)
        guard case .read(let handle) = op.operation else { Issue.record("not a read: \(op.operation)"); return }
        #expect(handle == 0x1B)
        rig.event(.operationCompleted(op.op, .success(.value([100]))), adapter: 0)
        #expect(rig.lastText(on: "rtstack/gw/heart/reply")
                == #"{"id":"r1","op":"read","characteristic":"2A19","ok":true,"value":"64","decoded":{"battery":{"value":100,"unit":"%"}},"time":"2023-11-14T22:13:20.000Z"}"#)
        rig.controller.mqttMessage(MQTTMessage(topic: "rtstack/gw/speed/read/2A19", text: "r2"), at: rig.now)
        rig.collect()
        #expect(rig.lastText(on: "rtstack/gw/speed/reply")?.contains(#""ok":false,"error":"not found: no device 'speed' (known: heart)""#) == true,
                "\(rig.lastText(on: "rtstack/gw/speed/reply") ?? "no reply")")
        rig.controller.beginShutdown(at: rig.now)
        rig.controller.mqttMessage(MQTTMessage(topic: "rtstack/gw/heart/read/2A19", text: "r3"), at: rig.now)
        rig.collect()
        #expect(rig.lastText(on: "rtstack/gw/heart/reply")?.contains(#""id":"r3","op":"read","characteristic":"2A19","ok":false"#) == true)
    }

    @Test func controlClientsListReadAndSubscribe() throws {
        let rig = GatewayRig(adapters: 1)
        rig.advertise(GatewayRig.heart, heartAd, adapter: 0, rssi: -40)
        rig.bringUp(GatewayRig.heart, adapter: 0, db: GatewayRig.heartDatabase)
        rig.controller.controlRequest(#"{"id":1,"op":"adapters"}"#, client: 7, at: rig.now)
        rig.collect()
        #expect(rig.control.last?.line.hasPrefix(#"{"id":1,"ok":true,"adapters":[{"adapter":"hci0","state":"up","#) == true)
        #expect(rig.control.last?.line.contains(#""slots_used":1"#) == true)
        rig.controller.controlRequest(#"{"id":"d","op":"devices"}"#, client: 7, at: rig.now)
        rig.collect()
        #expect(rig.control.last?.line.contains(#""device":"heart","state":"ready""#) == true)

        rig.controller.controlRequest(#"{"id":2,"op":"subscribe","device":"heart","characteristic":"2A19"}"#, client: 7, at: rig.now)
        rig.collect()
        #expect(rig.control.last?.line == #"{"id":2,"ok":true,"characteristic":"2A19","handle":27}"#)
        guard case .subscribe(0x1B, _)? = rig.hosts[0].operations.last?.operation else {
            Issue.record("no registration for 2A19: \(rig.hosts[0].operations)")
            return
        }
        let link = try #require(rig.hosts[0].link(to: GatewayRig.heart))
        rig.event(.notification(link, attributeHandle: 0x1B, value: [0x55][...]), adapter: 0)
        #expect(rig.control.last?.line
                == #"{"event":"notification","device":"heart","characteristic":"2A19","value":"55","decoded":{"battery":{"value":85,"unit":"%"}},"time":"2023-11-14T22:13:20.000Z"}"#)
        rig.controller.controlClosed(client: 7, at: rig.now)
        guard case .unsubscribe(0x1B)? = rig.hosts[0].operations.last?.operation else {
            Issue.record("the client's registration was not taken back: \(rig.hosts[0].operations)")
            return
        }

        rig.controller.controlRequest(#"{"id":3,"op":"read","device":"nobody","characteristic":"2A19"}"#, client: 8, at: rig.now)
        rig.controller.controlRequest(#"{"id":4,"op":"jump"}"#, client: 8, at: rig.now)
        rig.controller.controlRequest("not json", client: 8, at: rig.now)
        rig.collect()
        let errors = rig.control.filter { $0.client == 8 }.map(\.line)
        #expect(errors.count == 3)
        #expect(errors[0] == #"{"id":3,"ok":false,"error":"not found: no device 'nobody' (known: heart)"}"#)
        #expect(errors[1].hasPrefix(#"{"id":4,"ok":false,"error":"unknown op 'jump'"#))
        #expect(errors[2].hasPrefix(#"{"ok":false,"error":"#))
    }

    @Test func aReloadKeepsUnchangedDevicesAndRetiresRemovedOnes() throws {
        var c = GatewayConfiguration()
        var heart = DeviceRule()
        heart.name = "heart"
        heart.address = GatewayRig.heart.address
        heart.subscribe = [BluetoothUUID(0x2A37)]
        heart.line = 3
        var speed = DeviceRule()
        speed.name = "speed"
        speed.address = GatewayRig.speed.address
        speed.subscribe = [BluetoothUUID(0x2A53)]
        c.devices = [heart, speed]
        let rig = GatewayRig(adapters: 1, configuration: c)
        rig.advertise(GatewayRig.heart, heartAd, adapter: 0, rssi: -40)
        rig.advertise(GatewayRig.speed, speedAd, adapter: 0, rssi: -40)
        rig.bringUp(GatewayRig.heart, adapter: 0, db: GatewayRig.heartDatabase)
        let heartLink = try #require(rig.hosts[0].link(to: GatewayRig.heart))
        let speedLink = try #require(rig.hosts[0].link(to: GatewayRig.speed))
        rig.event(.notification(heartLink, attributeHandle: 0x12, value: [0x00, 72][...]), adapter: 0)

        var next = GatewayConfiguration()
        heart.line = 9   // moved in the file, otherwise the same
        var thingy = DeviceRule()
        thingy.name = "thingy"
        thingy.address = GatewayRig.thingy.address
        next.devices = [thingy, heart]
        let notes = rig.controller.reload(next, at: rig.now)
        rig.collect()
        #expect(notes.isEmpty)
        #expect(rig.hosts[0].disconnects == [speedLink], "only the removed device's link ends")
        #expect(rig.messages(on: "rtstack/gw/speed/state").last?.payload == [], "its retained state is cleared")
        rig.event(.notification(heartLink, attributeHandle: 0x12, value: [0x00, 73][...]), adapter: 0)
        #expect(rig.lastText(on: "rtstack/gw/heart/heart_rate")?.contains(#""value":73"#) == true, "the kept link still publishes")
        rig.advertise(GatewayRig.thingy, GatewayRig.advertisingData(BluetoothUUID(0x181A)), adapter: 0, rssi: -40)
        #expect(rig.hosts[0].link(to: GatewayRig.thingy) != nil, "the new entry's device is connected")
    }

    @Test func shutdownClosesEveryLinkThenSaysSo() throws {
        let rig = GatewayRig(adapters: 1)
        rig.advertise(GatewayRig.heart, heartAd, adapter: 0, rssi: -40)
        rig.bringUp(GatewayRig.heart, adapter: 0, db: GatewayRig.heartDatabase)
        rig.controller.beginShutdown(at: rig.now)
        rig.collect()
        let link = try #require(rig.hosts[0].link(to: GatewayRig.heart))
        #expect(rig.hosts[0].disconnects == [link])
        #expect(rig.hosts[0].scanRequests.last == false)
        #expect(!rig.controller.isShutDown)
        rig.event(.disconnected(link, reason: .connectionTerminatedByLocalHost, willReconnect: false), adapter: 0)
        #expect(rig.controller.isShutDown)
        #expect(rig.messages(on: "rtstack/gw/heart/available").last?.text == "offline")
        #expect(rig.lastText(on: "rtstack/gw/heart/state")?.contains("the gateway stopped") == true)
    }

    @Test func passiveBTHomeValuesGoOutWhenTheyChange() throws {
        var c = GatewayConfiguration()
        c.passive.bthome = true
        let rig = GatewayRig(adapters: 1, configuration: c)
        let beacon = DeviceAddress(BDAddress(string: "54:48:E6:8F:80:A5")!, type: .publicDevice)
        func bthome(_ temperatureHundredths: UInt16) -> [UInt8] {
            AdvertisingData.Builder().flags(.generalDiscoverableLEOnly)
                .serviceData(BluetoothUUID(0xFCD2), [0x40, 0x02, UInt8(temperatureHundredths & 0xFF), UInt8(temperatureHundredths >> 8)])
                .build().bytes.map { $0 }
        }
        rig.advertise(beacon, bthome(2138), adapter: 0, rssi: -70, connectable: false)
        rig.advertise(beacon, bthome(2138), adapter: 0, rssi: -70, connectable: false)
        rig.advertise(beacon, bthome(2140), adapter: 0, rssi: -70, connectable: false)
        let values = rig.messages(on: "rtstack/gw/5448e68f80a5/temperature").map(\.text)
        #expect(values.count == 2, "an unchanged value is not sent again at once: \(values)")
        #expect(values.first?.hasPrefix(#"{"value":21.38,"unit":"°C""#) == true)
        #expect(rig.lastText(on: "rtstack/gw/5448e68f80a5/available") == "online")
        #expect(rig.hosts[0].connects.isEmpty, "advertisements only")
    }
}

@Suite struct PlacementPolicyTests {
    typealias C = PlacementPolicy.Candidate

    @Test func freeSlotThenRSSIThenFewestLinksThenOrder() {
        #expect(PlacementPolicy.choose([C(adapter: 0, up: true, used: 1, limit: 1, rssi: -30),
                                        C(adapter: 1, up: true, used: 5, limit: nil, rssi: -90)]) == 1)
        #expect(PlacementPolicy.choose([C(adapter: 0, up: true, used: 0, limit: nil, rssi: -70),
                                        C(adapter: 1, up: true, used: 3, limit: nil, rssi: -50)]) == 1)
        #expect(PlacementPolicy.choose([C(adapter: 0, up: true, used: 2, limit: nil, rssi: nil),
                                        C(adapter: 1, up: true, used: 1, limit: nil, rssi: nil)]) == 1)
        #expect(PlacementPolicy.choose([C(adapter: 0, up: true, used: 1, limit: nil, rssi: nil),
                                        C(adapter: 1, up: true, used: 1, limit: nil, rssi: nil)]) == 0)
        #expect(PlacementPolicy.choose([C(adapter: 0, up: true, used: 0, limit: nil, rssi: nil),
                                        C(adapter: 1, up: true, used: 9, limit: nil, rssi: -80)]) == 1, "heard beats not heard")
        #expect(PlacementPolicy.choose([C(adapter: 0, up: false, used: 0, limit: nil, rssi: -20)]) == nil)
        #expect(PlacementPolicy.choose([C(adapter: 0, up: true, used: 0, limit: nil, rssi: -20)], excluding: [0]) == nil)
    }
}

@Suite struct ControlRequestTests {
    @Test func requestsAndTheirMistakes() throws {
        #expect(try ControlRequest.parse(#"{"id":"x","op":"write","device":"heart","characteristic":"2A39","value":"01","response":false}"#).get()
                == { var r = ControlRequest(id: #""x""#, operation: .write, device: "heart", target: .uuid(BluetoothUUID(0x2A39)))
                     r.value = [1]
                     r.withResponse = false
                     return r }())
        #expect(try ControlRequest.parse(#"{"op":"read","device":"heart","characteristic":"0x0012"}"#).get().target == .handle(0x12))
        func error(_ line: String) -> String? {
            if case .failure(let e) = ControlRequest.parse(line) { return e.message }
            return nil
        }
        #expect(error(#"{"op":"read","device":"heart"}"#)?.hasPrefix("read needs \"characteristic\"") == true)
        #expect(error(#"{"op":"write","device":"heart","characteristic":"2A39","value":"zz"}"#) == "\"value\" is not hex octets: 'zz'")
        #expect(error(#"{"op":"devices","extra":1}"#) == "unknown key \"extra\" for devices")
        #expect(error("[1,2]") == "a request is a JSON object, one per line")
    }
}
