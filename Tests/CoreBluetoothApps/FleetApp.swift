import CoreBluetooth
import Foundation

/// App shape (d): one central, one object per device, each toggled connected or disconnected.
@MainActor
public final class FleetApp: NSObject, @preconcurrency CBCentralManagerDelegate {
    @MainActor
    public final class Device {
        public let peripheral: CBPeripheral
        public var isConnected = false
        public var connections = 0
        public var lastDisconnectError: Error?
        public init(_ p: CBPeripheral) { peripheral = p }
    }

    /// The services scanned for: a device advertising any of them is listed.
    public let services: [CBUUID]
    public var central: CBCentralManager!
    public var devices: [Device] = []

    public init(services: [CBUUID], options: [String: Any]) {
        self.services = services
        super.init()
        central = CBCentralManager(delegate: self, queue: nil, options: options)
    }

    public func toggle(_ d: Device) {
        if d.peripheral.state == .connected { central.cancelPeripheralConnection(d.peripheral) } else { central.connect(d.peripheral) }
    }

    public func device(_ p: CBPeripheral) -> Device? { devices.first { $0.peripheral === p } }

    public func centralManagerDidUpdateState(_ central: CBCentralManager) {
        if central.state == .poweredOn { central.scanForPeripherals(withServices: services) }
    }

    public func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral,
                        advertisementData: [String: Any], rssi RSSI: NSNumber) {
        if device(peripheral) == nil { devices.append(Device(peripheral)) }
    }

    public func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral) {
        device(peripheral)?.isConnected = true
        device(peripheral)?.connections += 1
    }

    public func centralManager(_ central: CBCentralManager, didDisconnectPeripheral peripheral: CBPeripheral, error: Error?) {
        device(peripheral)?.isConnected = false
        device(peripheral)?.lastDisconnectError = error
    }
}
