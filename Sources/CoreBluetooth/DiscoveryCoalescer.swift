import Runtime
import Wire

/// iOS's discovery rules over a stream of advertising reports: one discovery per peripheral
/// per scan (every report with `allowDuplicates`), the scan response merged into the
/// advertisement before it is reported, and only peripherals that advertise (or, with
/// `solicited`, solicit) one of `services` when services are given.
///
/// A scannable advertiser is reported once its scan response arrived, or on its next
/// advertisement `responseWait` later without one (a peer that does not answer), so that the
/// name of the scan response is in the first report whenever it came.
struct DiscoveryCoalescer {
    struct Discovery: Sendable {
        var address: DeviceAddress
        var rssi: Int8
        var advertisement: AdvertisementSnapshot
    }

    private struct Seen {
        var advertising: [UInt8]?
        var scanResponse: [UInt8]?
        var connectable = false
        var scannable = false
        var firstSeen: UInt64
        var reported = false
    }

    let services: [BluetoothUUID]
    let solicited: [BluetoothUUID]
    let allowDuplicates: Bool
    /// Nanoseconds.
    var responseWait: UInt64 = 1_000_000_000
    private var seen: [DeviceAddress: Seen] = [:]

    init(services: [BluetoothUUID], solicited: [BluetoothUUID] = [], allowDuplicates: Bool) {
        self.services = services
        self.solicited = solicited
        self.allowDuplicates = allowDuplicates
    }

    /// The discovery this report makes, if any; `now` in nanoseconds.
    mutating func take(_ report: Advertisement, now: UInt64) -> Discovery? {
        var s = seen[report.address] ?? Seen(firstSeen: now)
        if report.isScanResponse {
            s.scanResponse = report.data
        } else {
            s.advertising = report.data
            s.connectable = report.connectable
            s.scannable = report.scannable
        }
        defer { seen[report.address] = s }
        guard s.advertising != nil else { return nil }
        let complete = s.scanResponse != nil || !s.scannable || now &- s.firstSeen >= responseWait
        guard complete, allowDuplicates || !s.reported else { return nil }
        let snapshot = AdvertisementSnapshot(advertising: s.advertising, scanResponse: s.scanResponse, connectable: s.connectable)
        guard matches(snapshot) else { return nil }
        s.reported = true
        return Discovery(address: report.address, rssi: report.rssi, advertisement: snapshot)
    }

    private func matches(_ a: AdvertisementSnapshot) -> Bool {
        if services.isEmpty { return true }
        return a.serviceUUIDs.contains(where: services.contains) || a.solicitedServiceUUIDs.contains(where: solicited.contains)
    }
}
