import CoreBluetooth
import Foundation

/// App shape (c): scan for the board's service, read and write its characteristic, and scan
/// again when the board goes away.
@MainActor
final class LEDApp: NSObject, @preconcurrency CBCentralManagerDelegate, @preconcurrency CBPeripheralDelegate {
    let serviceUUID: CBUUID
    let characteristicUUID: CBUUID
    var central: CBCentralManager!
    var board: CBPeripheral?
    var characteristic: CBCharacteristic?
    var reads: [Data] = []
    var writes: [Error?] = []
    var disconnections: [Error?] = []
    var connections = 0

    init(service: CBUUID, characteristic: CBUUID, options: [String: Any]) {
        serviceUUID = service
        characteristicUUID = characteristic
        super.init()
        central = CBCentralManager(delegate: self, queue: nil, options: options)
    }

    func read() {
        guard let board, let characteristic else { return }
        board.readValue(for: characteristic)
    }

    func write(_ text: String) {
        guard let board, let characteristic else { return }
        board.writeValue(Data(text.utf8), for: characteristic, type: .withResponse)
    }

    func centralManagerDidUpdateState(_ central: CBCentralManager) {
        if central.state == .poweredOn { central.scanForPeripherals(withServices: [serviceUUID]) }
    }

    func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral,
                        advertisementData: [String: Any], rssi RSSI: NSNumber) {
        central.stopScan()
        board = peripheral
        central.connect(peripheral)
    }

    func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral) {
        connections += 1
        peripheral.delegate = self
        peripheral.discoverServices([serviceUUID])
    }

    func centralManager(_ central: CBCentralManager, didDisconnectPeripheral peripheral: CBPeripheral, error: Error?) {
        disconnections.append(error)
        characteristic = nil
        central.scanForPeripherals(withServices: [serviceUUID])
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverServices error: Error?) {
        guard let s = peripheral.services?.first(where: { $0.uuid == serviceUUID }) else { return }
        peripheral.discoverCharacteristics([characteristicUUID], for: s)
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverCharacteristicsFor service: CBService, error: Error?) {
        characteristic = service.characteristics?.first { $0.uuid == characteristicUUID }
        read()
    }

    func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor characteristic: CBCharacteristic, error: Error?) {
        if let v = characteristic.value { reads.append(v) }
    }

    func peripheral(_ peripheral: CBPeripheral, didWriteValueFor characteristic: CBCharacteristic, error: Error?) {
        writes.append(error)
        if error == nil { read() }
    }
}
