import CoreBluetooth
import Foundation

/// App shape (a): a list of scanned devices with their RSSI; tapping one connects to it and
/// reads every readable characteristic. Written as a Swift 6 iOS app writes it.
@MainActor
public final class ScanListApp: NSObject, @preconcurrency CBCentralManagerDelegate, @preconcurrency CBPeripheralDelegate {
    public struct Row {
        public let peripheral: CBPeripheral
        public var name: String?
        public var rssi: Int
        public var discoveries: Int
    }

    public var central: CBCentralManager!
    public var rows: [UUID: Row] = [:]
    public var selected: CBPeripheral?
    public var values: [CBUUID: Data] = [:]
    public var pendingReads = 0
    public var connected = false
    public var disconnected = false

    public init(options: [String: Any]) {
        super.init()
        central = CBCentralManager(delegate: self, queue: nil, options: options)
    }

    public func row(named name: String) -> Row? { rows.values.first { $0.name == name } }

    public func tap(_ name: String) {
        guard let row = row(named: name) else { return }
        central.stopScan()
        selected = row.peripheral
        central.connect(row.peripheral, options: nil)
    }

    public func centralManagerDidUpdateState(_ central: CBCentralManager) {
        if central.state == .poweredOn { central.scanForPeripherals(withServices: nil, options: nil) }
    }

    public func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral,
                        advertisementData: [String: Any], rssi RSSI: NSNumber) {
        var row = rows[peripheral.identifier] ?? Row(peripheral: peripheral, name: nil, rssi: 0, discoveries: 0)
        row.name = advertisementData[CBAdvertisementDataLocalNameKey] as? String ?? peripheral.name
        row.rssi = RSSI.intValue
        row.discoveries += 1
        rows[peripheral.identifier] = row
    }

    public func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral) {
        connected = true
        peripheral.delegate = self
        peripheral.discoverServices(nil)
    }

    public func centralManager(_ central: CBCentralManager, didDisconnectPeripheral peripheral: CBPeripheral, error: Error?) {
        disconnected = true
    }

    public func peripheral(_ peripheral: CBPeripheral, didDiscoverServices error: Error?) {
        for service in peripheral.services ?? [] { peripheral.discoverCharacteristics(nil, for: service) }
    }

    public func peripheral(_ peripheral: CBPeripheral, didDiscoverCharacteristicsFor service: CBService, error: Error?) {
        for c in service.characteristics ?? [] where c.properties.contains(.read) {
            pendingReads += 1
            peripheral.readValue(for: c)
        }
    }

    public func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor characteristic: CBCharacteristic, error: Error?) {
        pendingReads -= 1
        if let v = characteristic.value { values[characteristic.uuid] = v }
    }
}
