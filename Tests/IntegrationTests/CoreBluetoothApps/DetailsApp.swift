import CoreBluetooth
import Foundation

/// The less common calls an app makes on one characteristic: its descriptors and their
/// values, notifications on and off, and a burst of Write Without Response paced by
/// `canSendWriteWithoutResponse`.
@MainActor
final class DetailsApp: NSObject, @preconcurrency CBCentralManagerDelegate, @preconcurrency CBPeripheralDelegate {
    let service: CBUUID
    var central: CBCentralManager!
    var peripheral: CBPeripheral?
    var characteristics: [CBUUID: CBCharacteristic] = [:]
    var descriptorsDiscovered = false
    var descriptorValues: [Any?] = []
    var notificationStates: [Bool] = []
    var values = 0
    var readyCalls = 0

    init(service: CBUUID, options: [String: Any]) {
        self.service = service
        super.init()
        central = CBCentralManager(delegate: self, queue: nil, options: options)
    }

    var cccd: CBDescriptor? {
        characteristics[CBUUID(string: "2A37")]?.descriptors?.first { $0.uuid == CBUUID(string: CBUUIDClientCharacteristicConfigurationString) }
    }

    func centralManagerDidUpdateState(_ central: CBCentralManager) {
        if central.state == .poweredOn { central.scanForPeripherals(withServices: [service]) }
    }

    func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral,
                        advertisementData: [String: Any], rssi RSSI: NSNumber) {
        central.stopScan()
        self.peripheral = peripheral
        central.connect(peripheral)
    }

    func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral) {
        peripheral.delegate = self
        peripheral.discoverServices([service])
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverServices error: Error?) {
        for s in peripheral.services ?? [] { peripheral.discoverCharacteristics(nil, for: s) }
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverCharacteristicsFor service: CBService, error: Error?) {
        for c in service.characteristics ?? [] { characteristics[c.uuid] = c }
        if let hrm = characteristics[CBUUID(string: "2A37")] { peripheral.discoverDescriptors(for: hrm) }
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverDescriptorsFor characteristic: CBCharacteristic, error: Error?) {
        descriptorsDiscovered = true
    }

    func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor descriptor: CBDescriptor, error: Error?) {
        descriptorValues.append(descriptor.value)
    }

    func peripheral(_ peripheral: CBPeripheral, didUpdateNotificationStateFor characteristic: CBCharacteristic, error: Error?) {
        notificationStates.append(characteristic.isNotifying)
    }

    func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor characteristic: CBCharacteristic, error: Error?) {
        values += 1
    }

    func peripheralIsReady(toSendWriteWithoutResponse peripheral: CBPeripheral) {
        readyCalls += 1
    }
}
