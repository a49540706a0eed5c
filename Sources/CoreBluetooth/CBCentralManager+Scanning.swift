import Foundation
import HostCore
import Runtime
import Wire

extension CBCentralManager {
    /// Active scanning; discoveries as `DiscoveryCoalescer` makes them. A new call replaces
    /// the running scan (its options and filter), as on iOS.
    public func scanForPeripherals(withServices serviceUUIDs: [CBUUID]?, options: [String: Any]? = nil) {
        guard let c = poweredOnCentral("scanForPeripherals(withServices:options:)") else { return }
        let duplicates = (options?[CBCentralManagerScanOptionAllowDuplicatesKey] as? NSNumber)?.boolValue
            ?? (options?[CBCentralManagerScanOptionAllowDuplicatesKey] as? Bool) ?? false
        let solicited = (options?[CBCentralManagerScanOptionSolicitedServiceUUIDsKey] as? [CBUUID] ?? []).map(\.value)
        let services = (serviceUUIDs ?? []).map(\.value)
        let task = Task { [weak self] in
            var coalescer = DiscoveryCoalescer(services: services, solicited: solicited, allowDuplicates: duplicates)
            for await report in c.scan() {
                guard let self else { return }
                guard let found = coalescer.take(report, now: MonotonicClock.now()) else { continue }
                let p = self.peripheral(for: found.address)
                let renamed = p.takeAdvertised(found.advertisement)
                let advertisement = found.advertisement
                let rssi = found.rssi
                self.onQueue { m in
                    if renamed, p.state == .connected { p.delegate?.peripheralDidUpdateName(p) }
                    m.delegate?.centralManager(m, didDiscover: p, advertisementData: advertisement.dictionary, rssi: NSNumber(value: rssi))
                }
            }
        }
        let previous: Task<Void, Never>? = lock.guarded {
            defer { scan = task; storedScanning = true }
            return scan
        }
        previous?.cancel()
    }

    public func stopScan() {
        let running: Task<Void, Never>? = lock.guarded {
            defer { scan = nil; storedScanning = false }
            return scan
        }
        running?.cancel()
    }
}
