import CoreBluetooth
import Dispatch
import Foundation
import HostCore
import Runtime
import Sensors
import Wire

/// The CoreBluetooth path over the same scripted controller and workload as `runAsyncPath`:
/// an app as iOS code writes it (scan for the three services, connect, discover, subscribe)
/// with its delegate on a serial queue of its own, decoding each value in
/// `didUpdateValueFor`. Throughput counts values delivered to the delegate; latency runs from
/// the controller's write to the socket to the delegate call.
func runCoreBluetoothPath(_ workload: ControllerServer.Workload) async -> PipelineResult? {
    let capacity: Int
    if case let .latency(n, _) = workload { capacity = n } else { capacity = 1 }
    let stamp: Bool
    if case .latency = workload { stamp = true } else { stamp = false }
    let progress = Progress(capacity: capacity)
    guard let server = ControllerServer(workload: workload, progress: progress) else { return nil }
    server.start()
    let state = FileManager.default.temporaryDirectory.appendingPathComponent("rtstack-bench-cb-\(getpid())").path
    var app: BenchApp? = BenchApp(progress: progress, stamp: stamp, options: [
        CBCentralManagerOptionRTStackAdapterKey: "tcp:127.0.0.1:\(server.port)",
        CBCentralManagerOptionRTStackStateDirectoryKey: state,
    ])
    let result = await Task.detached { collect(server, progress) }.value
    app?.endSession()
    try? await Task.sleep(for: .milliseconds(300))
    app = nil   // the manager goes, and closes its adapter
    await Task.detached { server.join() }.value
    try? FileManager.default.removeItem(atPath: state)
    return result
}

/// The benchmark's CoreBluetooth app. Its state is touched on `queue` only (every delegate
/// call arrives there, and `endSession` hops onto it), which is why it may be Sendable.
final class BenchApp: NSObject, CBCentralManagerDelegate, CBPeripheralDelegate, @unchecked Sendable {
    let queue = DispatchQueue(label: "bench.corebluetooth")
    let progress: Progress
    let stamp: Bool
    var central: CBCentralManager?
    var peripherals: [CBPeripheral] = []
    var sinks: [CBUUID: MeasurementSink] = [:]
    let services = BenchWorkload.sensors.map { CBUUID(string: $0.role.measurementService.string) }

    init(progress: Progress, stamp: Bool, options: [String: Any]) {
        self.progress = progress
        self.stamp = stamp
        super.init()
        central = CBCentralManager(delegate: self, queue: queue, options: options)
    }

    func endSession() {
        queue.sync {
            for p in peripherals { central?.cancelPeripheralConnection(p) }
        }
    }

    func centralManagerDidUpdateState(_ central: CBCentralManager) {
        if central.state == .poweredOn { central.scanForPeripherals(withServices: services) }
    }

    func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral,
                        advertisementData: [String: Any], rssi RSSI: NSNumber) {
        guard !peripherals.contains(where: { $0 === peripheral }) else { return }
        peripherals.append(peripheral)
        if peripherals.count == services.count { central.stopScan() }
        central.connect(peripheral)
    }

    func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral) {
        peripheral.delegate = self
        peripheral.discoverServices(services)
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverServices error: Error?) {
        for s in peripheral.services ?? [] { peripheral.discoverCharacteristics(nil, for: s) }
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverCharacteristicsFor service: CBService, error: Error?) {
        for c in service.characteristics ?? [] where c.properties.contains(.notify) { peripheral.setNotifyValue(true, for: c) }
    }

    func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor characteristic: CBCharacteristic, error: Error?) {
        guard let value = characteristic.value, let uuid = BluetoothUUID(string: characteristic.uuid.uuidString) else { return }
        sinks[characteristic.uuid, default: MeasurementSink()].consume(SensorValueDecoder.decode(uuid: uuid, value: [UInt8](value)))
        progress.consumed(at: stamp ? MonotonicClock.now() : 0)
    }
}
