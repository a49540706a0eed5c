import CoreBluetooth
import Foundation

/// App shape (b): the runner's sensors, found by the services they advertise, each connected
/// as it is found, its measurements subscribed and shown live; End Session disconnects them all.
@MainActor
public final class RunnerApp: NSObject, @preconcurrency CBCentralManagerDelegate, @preconcurrency CBPeripheralDelegate {
    /// Advertised service → the service and characteristics to subscribe to.
    public let sensors: [CBUUID: (service: CBUUID, measurements: [CBUUID])]
    public var central: CBCentralManager!
    public var connectedFor: [CBUUID: CBPeripheral] = [:]
    public var shown: [CBUUID: [Data]] = [:]
    public var notifying: Set<CBUUID> = []
    public var ended: [(CBPeripheral, Error?)] = []

    public init(sensors: [CBUUID: (service: CBUUID, measurements: [CBUUID])], options: [String: Any]) {
        self.sensors = sensors
        super.init()
        central = CBCentralManager(delegate: self, queue: nil, options: options)
    }

    public func endSession() {
        central.stopScan()
        for p in connectedFor.values { central.cancelPeripheralConnection(p) }
    }

    public func centralManagerDidUpdateState(_ central: CBCentralManager) {
        if central.state == .poweredOn { central.scanForPeripherals(withServices: Array(sensors.keys)) }
    }

    public func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral,
                        advertisementData: [String: Any], rssi RSSI: NSNumber) {
        let advertised = advertisementData[CBAdvertisementDataServiceUUIDsKey] as? [CBUUID] ?? []
        guard let kind = advertised.first(where: { sensors[$0] != nil }), connectedFor[kind] == nil else { return }
        connectedFor[kind] = peripheral
        central.connect(peripheral)
        if connectedFor.count == sensors.count { central.stopScan() }
    }

    public func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral) {
        peripheral.delegate = self
        peripheral.discoverServices(sensors.values.map(\.service))
    }

    public func centralManager(_ central: CBCentralManager, didDisconnectPeripheral peripheral: CBPeripheral, error: Error?) {
        ended.append((peripheral, error))
    }

    public func peripheral(_ peripheral: CBPeripheral, didDiscoverServices error: Error?) {
        for s in peripheral.services ?? [] {
            guard let wanted = sensors.values.first(where: { $0.service == s.uuid }) else { continue }
            peripheral.discoverCharacteristics(wanted.measurements, for: s)
        }
    }

    public func peripheral(_ peripheral: CBPeripheral, didDiscoverCharacteristicsFor service: CBService, error: Error?) {
        for c in service.characteristics ?? [] where c.properties.contains(.notify) {
            peripheral.setNotifyValue(true, for: c)
        }
    }

    public func peripheral(_ peripheral: CBPeripheral, didUpdateNotificationStateFor characteristic: CBCharacteristic, error: Error?) {
        if error == nil, characteristic.isNotifying { notifying.insert(characteristic.uuid) }
    }

    public func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor characteristic: CBCharacteristic, error: Error?) {
        guard let v = characteristic.value else { return }
        shown[characteristic.uuid, default: []].append(v)
    }
}
