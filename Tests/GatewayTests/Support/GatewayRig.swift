import ESPHomeAPI
import HostCore
import MQTT
import Wire
@testable import Gateway

/// A `GatewayController` over scripted hosts, one per adapter, with the time, the messages it
/// published and the lines it sent to control clients kept for the test.
final class GatewayRig {
    let controller: GatewayController
    var hosts: [ScriptedHost] = []
    var now: HostTime = 1_000_000_000
    private(set) var published: [MQTTMessage] = []
    private(set) var control: [(client: Int, line: String)] = []
    /// What the Bluetooth proxy sent its API clients (with `proxy: true`).
    var proxied: [(client: Int, message: ServerMessage)] = []

    static let heart = DeviceAddress(BDAddress(string: "C1:00:00:00:00:01")!, type: .randomDevice)
    static let speed = DeviceAddress(BDAddress(string: "C2:00:00:00:00:01")!, type: .randomDevice)
    static let thingy = DeviceAddress(BDAddress(string: "C3:00:00:00:00:01")!, type: .randomDevice)

    init(adapters: Int, configuration: GatewayConfiguration = GatewayConfiguration(), info: ControllerInfo = ControllerInfo(),
         proxy: Bool = false, cache: GATTCacheStore? = nil, options configure: (inout GatewayController.Options) -> Void = { _ in }) {
        var options = GatewayController.Options(gatewayID: "gw", version: "0.1", cache: cache, wallClock: { 1_700_000_000 })
        options.placementWindow = HostDuration.milliseconds(500)
        options.servesProxy = proxy
        configure(&options)
        controller = GatewayController(configuration: configuration, options: options)
        controller.setAdapters((0..<adapters).map { (name: "hci\($0)", backend: .userChannel) })
        for i in 0..<adapters {
            let h = ScriptedHost()
            hosts.append(h)
            controller.adapterOpened(i, host: h, at: now)
            controller.hostEvent(.controllerReady(info), adapter: i, at: now)
        }
        collect()
    }

    func collect() {
        published += controller.takeMessages()
        control += controller.takeControlOutput()
        proxied += controller.takeProxyOutput()
        _ = controller.takeLog()
    }

    func event(_ e: HostEvent, adapter: Int) {
        controller.hostEvent(e, adapter: adapter, at: now)
        collect()
    }

    func advance(milliseconds: UInt64) {
        now += milliseconds * 1_000_000
        controller.advanceTime(to: now)
        collect()
    }

    /// What a run-session sensor advertises: its service (and name).
    static func advertisingData(_ service: BluetoothUUID, name: String? = nil) -> [UInt8] {
        var b = AdvertisingData.Builder().flags(.generalDiscoverableLEOnly).serviceUUIDs([service])
        if let name { b = b.completeLocalName(name) }
        return b.build().bytes.map { $0 }
    }

    func advertise(_ peer: DeviceAddress, _ data: [UInt8], adapter: Int, rssi: Int8, connectable: Bool = true) {
        event(.advertisement(AdvertisementReport(address: peer, rssi: rssi, connectable: connectable, scannable: connectable,
                                                 isScanResponse: false, data: data[...])), adapter: adapter)
    }

    /// The link of `peer` on `adapter` goes all the way to ready with `db`.
    func bringUp(_ peer: DeviceAddress, adapter: Int, db: GATTDatabase) {
        guard let link = hosts[adapter].link(to: peer) else { return }
        event(.linkState(link, .connected), adapter: adapter)
        event(.databaseReady(link, db, fromCache: false), adapter: adapter)
        for s in db.services {
            for c in s.characteristics where c.canNotify {
                event(.subscribed(link, characteristic: c.uuid, valueHandle: c.valueHandle), adapter: adapter)
            }
        }
        event(.linkState(link, .ready), adapter: adapter)
    }

    func messages(on topic: String) -> [MQTTMessage] { published.filter { $0.topic == topic } }

    func lastText(on topic: String) -> String? { messages(on: topic).last?.text }

    /// A heart-rate sensor's database: Heart Rate Measurement (notify, value handle 0x12),
    /// Body Sensor Location (read, 0x15), Heart Rate Control Point (write, 0x17), Battery Level
    /// (read, notify, 0x1B).
    static let heartDatabase = GATTDatabase(services: [
        GATTService(uuid: .heartRate, startHandle: 0x10, endHandle: 0x17, characteristics: [
            GATTCharacteristic(uuid: BluetoothUUID(0x2A37), declarationHandle: 0x11, valueHandle: 0x12, properties: 0x10,
                               endHandle: 0x13, descriptors: [GATTDescriptor(uuid: BluetoothUUID(0x2902), handle: 0x13)]),
            GATTCharacteristic(uuid: BluetoothUUID(0x2A38), declarationHandle: 0x14, valueHandle: 0x15, properties: 0x02,
                               endHandle: 0x15, descriptors: []),
            GATTCharacteristic(uuid: BluetoothUUID(0x2A39), declarationHandle: 0x16, valueHandle: 0x17, properties: 0x08,
                               endHandle: 0x17, descriptors: []),
        ]),
        GATTService(uuid: BluetoothUUID(0x180F), startHandle: 0x18, endHandle: 0x1C, characteristics: [
            GATTCharacteristic(uuid: BluetoothUUID(0x2A19), declarationHandle: 0x1A, valueHandle: 0x1B, properties: 0x12,
                               endHandle: 0x1C, descriptors: [GATTDescriptor(uuid: BluetoothUUID(0x2902), handle: 0x1C)]),
        ]),
    ])
}
