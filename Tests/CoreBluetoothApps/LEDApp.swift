import CoreBluetooth
import Foundation

/// App shape (c): scan for the board's service, read and write its characteristic, and scan
/// again when the board goes away. The board may advertise another service than the one that
/// holds the characteristic (`advertised`; by default the same).
@MainActor
public final class LEDApp: NSObject, @preconcurrency CBCentralManagerDelegate, @preconcurrency CBPeripheralDelegate {
    public let advertisedUUID: CBUUID
    public let serviceUUID: CBUUID
    public let characteristicUUID: CBUUID
    public var central: CBCentralManager!
    public var board: CBPeripheral?
    public var characteristic: CBCharacteristic?
    public var reads: [Data] = []
    public var writes: [Error?] = []
    public var disconnections: [Error?] = []
    public var connections = 0

    public init(service: CBUUID, characteristic: CBUUID, advertised: CBUUID? = nil, options: [String: Any]) {
        advertisedUUID = advertised ?? service
        serviceUUID = service
        characteristicUUID = characteristic
        super.init()
        central = CBCentralManager(delegate: self, queue: nil, options: options)
    }

    public func read() {
        guard let board, let characteristic else { return }
        board.readValue(for: characteristic)
    }

    public func write(_ text: String) {
        guard let board, let characteristic else { return }
        board.writeValue(Data(text.utf8), for: characteristic, type: .withResponse)
    }

    public func centralManagerDidUpdateState(_ central: CBCentralManager) {
        if central.state == .poweredOn { central.scanForPeripherals(withServices: [advertisedUUID]) }
    }

    public func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral,
                        advertisementData: [String: Any], rssi RSSI: NSNumber) {
        central.stopScan()
        board = peripheral
        central.connect(peripheral)
    }

    public func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral) {
        connections += 1
        peripheral.delegate = self
        peripheral.discoverServices([serviceUUID])
    }

    public func centralManager(_ central: CBCentralManager, didDisconnectPeripheral peripheral: CBPeripheral, error: Error?) {
        disconnections.append(error)
        characteristic = nil
        central.scanForPeripherals(withServices: [advertisedUUID])
    }

    public func peripheral(_ peripheral: CBPeripheral, didDiscoverServices error: Error?) {
        guard let s = peripheral.services?.first(where: { $0.uuid == serviceUUID }) else { return }
        peripheral.discoverCharacteristics([characteristicUUID], for: s)
    }

    public func peripheral(_ peripheral: CBPeripheral, didDiscoverCharacteristicsFor service: CBService, error: Error?) {
        characteristic = service.characteristics?.first { $0.uuid == characteristicUUID }
        read()
    }

    public func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor characteristic: CBCharacteristic, error: Error?) {
        if let v = characteristic.value { reads.append(v) }
    }

    public func peripheral(_ peripheral: CBPeripheral, didWriteValueFor characteristic: CBCharacteristic, error: Error?) {
        writes.append(error)
        if error == nil { read() }
    }
}
