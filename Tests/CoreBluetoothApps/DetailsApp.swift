import CoreBluetooth
import Foundation

/// The less common calls an app makes on one characteristic: its descriptors and their
/// values, notifications on and off, and a burst of Write Without Response paced by
/// `canSendWriteWithoutResponse`.
@MainActor
public final class DetailsApp: NSObject, @preconcurrency CBCentralManagerDelegate, @preconcurrency CBPeripheralDelegate {
    public let service: CBUUID
    public var central: CBCentralManager!
    public var peripheral: CBPeripheral?
    public var characteristics: [CBUUID: CBCharacteristic] = [:]
    public var descriptorsDiscovered = false
    public var descriptorValues: [Any?] = []
    public var notificationStates: [Bool] = []
    public var values = 0
    public var readyCalls = 0

    public init(service: CBUUID, options: [String: Any]) {
        self.service = service
        super.init()
        central = CBCentralManager(delegate: self, queue: nil, options: options)
    }

    public var cccd: CBDescriptor? {
        characteristics[CBUUID(string: "2A37")]?.descriptors?.first { $0.uuid == CBUUID(string: CBUUIDClientCharacteristicConfigurationString) }
    }

    public func centralManagerDidUpdateState(_ central: CBCentralManager) {
        if central.state == .poweredOn { central.scanForPeripherals(withServices: [service]) }
    }

    public func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral,
                        advertisementData: [String: Any], rssi RSSI: NSNumber) {
        central.stopScan()
        self.peripheral = peripheral
        central.connect(peripheral)
    }

    public func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral) {
        peripheral.delegate = self
        peripheral.discoverServices([service])
    }

    public func peripheral(_ peripheral: CBPeripheral, didDiscoverServices error: Error?) {
        for s in peripheral.services ?? [] { peripheral.discoverCharacteristics(nil, for: s) }
    }

    public func peripheral(_ peripheral: CBPeripheral, didDiscoverCharacteristicsFor service: CBService, error: Error?) {
        for c in service.characteristics ?? [] { characteristics[c.uuid] = c }
        if let hrm = characteristics[CBUUID(string: "2A37")] { peripheral.discoverDescriptors(for: hrm) }
    }

    public func peripheral(_ peripheral: CBPeripheral, didDiscoverDescriptorsFor characteristic: CBCharacteristic, error: Error?) {
        descriptorsDiscovered = true
    }

    public func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor descriptor: CBDescriptor, error: Error?) {
        descriptorValues.append(descriptor.value)
    }

    public func peripheral(_ peripheral: CBPeripheral, didUpdateNotificationStateFor characteristic: CBCharacteristic, error: Error?) {
        notificationStates.append(characteristic.isNotifying)
    }

    public func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor characteristic: CBCharacteristic, error: Error?) {
        values += 1
    }

    public func peripheralIsReady(toSendWriteWithoutResponse peripheral: CBPeripheral) {
        readyCalls += 1
    }
}
