// A CoreBluetooth app as it is written for iOS: it scans for a heart-rate sensor (service
// 0x180D), connects to the first one, subscribes to Heart Rate Measurement (0x2A37) and prints
// each beat. Copy it; on a board run it with the adapter in the environment:
//
//     RTSTACK_ADAPTER=hci0 cb-heart-rate            (or tcp:HOST:PORT, /dev/ttyACM0, …)
//
// Nothing below names rtstack: the same file builds for iOS or macOS.
import CoreBluetooth
import Foundation

final class HeartRateMonitor: NSObject, CBCentralManagerDelegate, CBPeripheralDelegate {
    static let heartRateService = CBUUID(string: "180D")
    static let heartRateMeasurement = CBUUID(string: "2A37")

    var central: CBCentralManager!
    var sensor: CBPeripheral?

    override init() {
        super.init()
        central = CBCentralManager(delegate: self, queue: nil)
    }

    func centralManagerDidUpdateState(_ central: CBCentralManager) {
        switch central.state {
        case .poweredOn:
            print("Scanning for heart-rate sensors…")
            central.scanForPeripherals(withServices: [Self.heartRateService])
        case .unauthorized:
            print("Bluetooth is not allowed for this program (see the log above).")
            exit(1)
        case .unsupported:
            print("No Bluetooth adapter (set RTSTACK_ADAPTER).")
            exit(1)
        default:
            print("Bluetooth is \(central.state).")
        }
    }

    func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral,
                        advertisementData: [String: Any], rssi RSSI: NSNumber) {
        print("Found \(peripheral.name ?? "a sensor") (\(RSSI) dBm), connecting")
        central.stopScan()
        sensor = peripheral
        central.connect(peripheral)
    }

    func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral) {
        peripheral.delegate = self
        peripheral.discoverServices([Self.heartRateService])
    }

    func centralManager(_ central: CBCentralManager, didFailToConnect peripheral: CBPeripheral, error: Error?) {
        print("Could not connect: \(error?.localizedDescription ?? "unknown error"); scanning again")
        central.scanForPeripherals(withServices: [Self.heartRateService])
    }

    func centralManager(_ central: CBCentralManager, didDisconnectPeripheral peripheral: CBPeripheral, error: Error?) {
        print("Disconnected (\(error?.localizedDescription ?? "as asked")); scanning again")
        central.scanForPeripherals(withServices: [Self.heartRateService])
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverServices error: Error?) {
        guard let service = peripheral.services?.first(where: { $0.uuid == Self.heartRateService }) else { return }
        peripheral.discoverCharacteristics([Self.heartRateMeasurement], for: service)
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverCharacteristicsFor service: CBService, error: Error?) {
        guard let measurement = service.characteristics?.first(where: { $0.uuid == Self.heartRateMeasurement }) else { return }
        peripheral.setNotifyValue(true, for: measurement)
    }

    func peripheral(_ peripheral: CBPeripheral, didUpdateNotificationStateFor characteristic: CBCharacteristic, error: Error?) {
        if let error { print("Could not subscribe: \(error.localizedDescription)") } else { print("Subscribed") }
    }

    func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor characteristic: CBCharacteristic, error: Error?) {
        guard let data = characteristic.value, let flags = data.first else { return }
        // Heart Rate Measurement: bit 0 of the flags says whether the value is 8 or 16 bits.
        let bpm = flags & 0x01 == 0 ? Int(data.count > 1 ? data[data.startIndex + 1] : 0)
            : data.count > 2 ? Int(data[data.startIndex + 1]) | Int(data[data.startIndex + 2]) << 8 : 0
        print("\(bpm) bpm")
        fflush(nil)   // each beat reaches a pipe (a log, a test) at once
    }
}

let monitor = HeartRateMonitor()
signal(SIGINT) { _ in exit(0) }
dispatchMain()
