import Wire

/// The device table behind `rtstack scan` and the API's scan results: one entry per address,
/// updated by every report, with the scan response merged into the advertisement's entry.
public struct ScanResults: Sendable {
    public private(set) var devices: [DeviceAddress: DiscoveredDevice] = [:]
    public var filter: ScanFilter

    public init(filter: ScanFilter = ScanFilter()) {
        self.filter = filter
    }

    /// What a report changed, so a viewer can print only news.
    public enum Change: Sendable, Equatable {
        case new
        /// Name, services, manufacturer data or the like changed.
        case updated
        case rssiOnly
        /// Filtered out, or nothing changed.
        case none
    }

    /// Merges one report; returns what changed for the (filtered) device.
    @discardableResult
    public mutating func add(_ report: AdvertisementReport, at now: UInt64) -> Change {
        let ad = AdvertisingData(report.data)
        var device = devices[report.address] ?? DiscoveredDevice(address: report.address, rssi: report.rssi,
                                                                 connectable: report.connectable)
        let before = device
        let isNew = devices[report.address] == nil
        device.rssi = report.rssi
        device.reports += 1
        device.lastSeen = now
        if !report.isScanResponse { device.connectable = report.connectable }
        if let n = ad.localName, !(ad.isLocalNameShortened && device.name != nil) { device.name = n }
        for u in ad.serviceUUIDs where !device.services.contains(u) { device.services.append(u) }
        for m in ad.allManufacturerData {
            let entry = (company: m.company.rawValue, data: Array(m.data))
            if let i = device.manufacturerData.firstIndex(where: { $0.company == entry.company }) {
                device.manufacturerData[i] = entry
            } else {
                device.manufacturerData.append(entry)
            }
        }
        if let t = ad.txPower { device.txPower = t }
        if let a = ad.appearance { device.appearance = a.rawValue }
        devices[report.address] = device
        guard filter.accepts(device) else { return .none }
        if isNew || !filter.accepts(before) { return .new }
        var a = before, b = device
        a.rssi = 0; b.rssi = 0
        if a != b { return .updated }
        return before.rssi != device.rssi ? .rssiOnly : .none
    }

    /// Devices that pass the filter, strongest first.
    public var sorted: [DiscoveredDevice] {
        devices.values.filter(filter.accepts).sorted { ($0.rssi, $1.address.description) > ($1.rssi, $0.address.description) }
    }
}

/// `--service`, `--name`, `--address` filters of a scan; all given ones must match.
public struct ScanFilter: Sendable {
    public var services: [BluetoothUUID] = []
    /// Case-insensitive substring of the name.
    public var name: String?
    public var address: BDAddress?

    public init() {}

    public func accepts(_ d: DiscoveredDevice) -> Bool {
        if let a = address, d.address.address != a { return false }
        if !services.isEmpty, !services.contains(where: d.services.contains) { return false }
        if let n = name {
            guard let dn = d.name, dn.lowercased().containsText(n.lowercased()) else { return false }
        }
        return true
    }
}
