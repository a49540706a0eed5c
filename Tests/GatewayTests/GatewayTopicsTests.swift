import Testing
import Wire
import Sensors
@testable import Gateway

@Suite struct GatewayTopicsTests {
    let topics = GatewayTopics(gatewayID: "garage")

    @Test func theTree() {
        #expect(topics.availability == "rtstack/garage/status")
        #expect(topics.gatewayStatus == "rtstack/garage/gateway")
        #expect(topics.adapter("hci0") == "rtstack/garage/adapter/hci0")
        #expect(topics.adapter("tcp:127.0.0.1:9000") == "rtstack/garage/adapter/tcp_127_0_0_1_9000")
        #expect(topics.deviceState("heart") == "rtstack/garage/heart/state")
        #expect(topics.deviceAvailability("heart") == "rtstack/garage/heart/available")
        #expect(topics.quantity("heart", "heart_rate") == "rtstack/garage/heart/heart_rate")
        #expect(topics.issue("heart") == "rtstack/garage/heart/issue")
        #expect(topics.reply("heart") == "rtstack/garage/heart/reply")
        #expect(topics.command("heart", .read, "2A19") == "rtstack/garage/heart/read/2A19")
        #expect(topics.commandFilters == ["rtstack/garage/+/read/+", "rtstack/garage/+/write/+"])
        #expect(GatewayTopics(prefix: "home/ble", gatewayID: "gw").availability == "home/ble/gw/status")
    }

    @Test func commandTopicsParse() {
        #expect(topics.parseCommand("rtstack/garage/heart/read/2A19")?.device == "heart")
        #expect(topics.parseCommand("rtstack/garage/heart/write/0x0031")?.operation == .write)
        #expect(topics.parseCommand("rtstack/garage/heart/delete/2A19") == nil)
        #expect(topics.parseCommand("rtstack/other/heart/read/2A19") == nil)
        #expect(topics.parseCommand("rtstack/garage/heart/read/2A19/x") == nil)
        #expect(topics.parseCommand("rtstack/garage//read/2A19") == nil)
    }

    @Test func levelsAreSanitized() {
        #expect(TopicLevel.sanitize("Heart Strap #1") == "heart_strap__1")
        #expect(TopicLevel.sanitize("a/b+c") == "a_b_c")
        #expect(TopicLevel.sanitize("") == "_")
        #expect(TopicLevel.fromAddress("C1:00:00:00:00:01/random") == "c10000000001")
        #expect(TopicLevel.isClean("heart-1") && !TopicLevel.isClean("Heart"))
        #expect(DeviceIdentity(address: "C1:00:00:00:00:01/random").id == "c10000000001")
        #expect(DeviceIdentity(address: "C1:00:00:00:00:01/random").address == "C1:00:00:00:00:01")
    }

    /// Quantity keys of every decoder never collide with the words the tree uses under a device.
    @Test func noQuantityKeyIsReserved() {
        var keys = Set(BTHomeObjectType.table.map(\.key))
        for q in AllQuantities.connected + AllQuantities.passive { keys.insert(q.key) }
        #expect(keys.isDisjoint(with: GatewayTopics.reservedQuantityKeys), "\(keys.intersection(GatewayTopics.reservedQuantityKeys))")
        for k in keys { #expect(TopicLevel.isClean(k), "\(k)") }
    }
}

/// One decoded value of every kind step 1 decodes, for the tests that must cover every quantity.
enum AllQuantities {
    static func decode(_ uuid: UInt16, _ hex: String) -> [SensorQuantity] {
        SensorValueDecoder.decode(uuid: BluetoothUUID(uuid), value: Hex.parse(hex) ?? [])?.quantities ?? []
    }

    static var connected: [SensorQuantity] {
        decode(0x2A37, "18 48 0A 00 3F 03") + decode(0x2A53, "07 36 03 AC 70 00 39 30 00 00") + decode(0x2A19, "57")
            + decode(0x2A6E, "5A 08") + decode(0x2A6F, "A8 11") + decode(0x2A6D, "02 76 0F 00")
            + decode(0x2A5B, "03 0A 00 00 00 00 04 05 00 00 02") + decode(0x2A1C, "06 6E 01 00 FF E8 07 03 09 07 05 00 06")
            + decode(0x2A1E, "00 6E 01 00 FF") + decode(0x2A38, "01") + decode(0x2A5D, "02") + decode(0x2A1D, "02")
            + decode(0x2A54, "07 00") + decode(0x2A5C, "03 00")
            + (SensorValueDecoder.decode(uuid: SensorCharacteristicUUID.thingyTemperature, value: [0x17, 0x32])?.quantities ?? [])
            + { var r = CSCRates(); r.update(CSCMeasurement(wheel: .init(cumulativeRevolutions: 1, lastEventTime: 0), crank: .init(cumulativeRevolutions: 1, lastEventTime: 0)), at: 0)
                r.update(CSCMeasurement(wheel: .init(cumulativeRevolutions: 3, lastEventTime: 1024), crank: .init(cumulativeRevolutions: 2, lastEventTime: 1024)), at: 1)
                return r.quantities }()
    }

    static var passive: [SensorQuantity] {
        var out: [SensorQuantity] = []
        let uuid = BluetoothUUID(string: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!
        out += PassiveAdvertisement.iBeacon(IBeacon(proximityUUID: uuid, major: 1, minor: 2, measuredPower: -59)).quantities
        out += EddystoneFrame.uid(EddystoneUID(txPower: -18, namespace: Array(0..<10), instance: Array(0..<6))).quantities
        out += EddystoneFrame.url(EddystoneURL(txPower: 0, url: "https://a.com")).quantities
        out += EddystoneFrame.tlm(EddystoneTLM(batteryMillivolts: 3000, temperatureRaw: 0x1780, advertisingCount: 1, uptimeTenths: 2)).quantities
        out += EddystoneFrame.eid(EddystoneEID(txPower: 0, ephemeralID: Array(0..<8))).quantities
        // Every BTHome object type with all-zero data (one octet of length for text and raw).
        for t in BTHomeObjectType.table {
            let data: [UInt8] = t.format.fixedLength.map { [t.id] + [UInt8](repeating: 0, count: $0) } ?? [t.id, 1, 0x41]
            out += PassiveAdvertisement.bthome(BTHomeAdvertisement(serviceData: [0x40] + data)).quantities
        }
        return out
    }
}
