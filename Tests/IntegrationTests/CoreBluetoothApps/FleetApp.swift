import CoreBluetooth
import Foundation

/// App shape (d): one central, one object per device, each toggled connected or disconnected.
@MainActor
final class FleetApp: NSObject, @preconcurrency CBCentralManagerDelegate {
    @MainActor
    final class Device {
        let peripheral: CBPeripheral
        var isConnected = false
        var connections = 0
        var lastDisconnectError: Error?
        init(_ p: CBPeripheral) { peripheral = p }
    }

    let service: CBUUID
    var central: CBCentralManager!
    var devices: [Device] = []

    init(service: CBUUID, options: [String: Any]) {
        self.service = service
        super.init()
        central = CBCentralManager(delegate: self, queue: nil, options: options)
    }

    func toggle(_ d: Device) {
        if d.peripheral.state == .connected { central.cancelPeripheralConnection(d.peripheral) } else { central.connect(d.peripheral) }
    }

    func device(_ p: CBPeripheral) -> Device? { devices.first { $0.peripheral === p } }

    func centralManagerDidUpdateState(_ central: CBCentralManager) {
        if central.state == .poweredOn { central.scanForPeripherals(withServices: [service]) }
    }

    func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral,
                        advertisementData: [String: Any], rssi RSSI: NSNumber) {
        if device(peripheral) == nil { devices.append(Device(peripheral)) }
    }

    func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral) {
        device(peripheral)?.isConnected = true
        device(peripheral)?.connections += 1
    }

    func centralManager(_ central: CBCentralManager, didDisconnectPeripheral peripheral: CBPeripheral, error: Error?) {
        device(peripheral)?.isConnected = false
        device(peripheral)?.lastDisconnectError = error
    }
}
