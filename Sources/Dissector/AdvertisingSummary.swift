import JSON
import Wire

/// Advertising reports folded into one row per advertiser — how many, the RSSI range, the
/// last data and name — so that a busy room (hundreds of reports a second) stays readable in
/// `rtstack monitor --adv-summary` and `rtstack decode --adv-summary`.
public struct AdvertisingSummary: Sendable {
    public struct Row: Sendable {
        public var advertiser: DeviceAddress
        public var adapterIndex: UInt16?
        public var count = 0
        public var rssiMin = Int8.max
        public var rssiMax = Int8.min
        public var lastData: [UInt8] = []
        public var name: String?
        public var firstSeen: Double
        public var lastSeen: Double
    }

    /// Rows beyond this many are not added (a flood of random addresses must not grow memory
    /// without bound); the reports of devices left out are counted in `reportsNotTracked`.
    public static let maximumRows = 4096

    private var rows: [RowKey: Row] = [:]
    public private(set) var reports = 0
    public private(set) var reportsNotTracked = 0

    private struct RowKey: Hashable {
        var adapter: UInt16?
        var address: DeviceAddress
    }

    public init() {}

    public var isEmpty: Bool { rows.isEmpty }
    public var deviceCount: Int { rows.count }

    /// Takes the reports of an LE (Extended) Advertising Report event; returns false for any
    /// other packet (which the caller then shows as usual).
    @discardableResult
    public mutating func add(_ p: DissectedPacket) -> Bool {
        guard p.type == .event, p.bytes.count >= 3, p.bytes[p.bytes.startIndex] == 0x3E else { return false }
        let sub = p.bytes[p.bytes.startIndex + 2]
        guard sub == 0x02 || sub == 0x0D || sub == 0x0B else { return false }
        guard case .le(let le)? = try? HCIEvent(bytes: p.bytes) else { return true }
        switch le {
        case .advertisingReport(let e):
            for r in e.reports { add(r.advertiser, rssi: r.rssi, data: r.data, p) }
        case .extendedAdvertisingReport(let e):
            for r in e.reports {
                if let who = r.advertiser { add(who, rssi: r.rssi, data: r.data, p) }
            }
        case .directedAdvertisingReport(let e):
            for r in e.reports { add(DeviceAddress(r.address, type: r.addressType), rssi: r.rssi, data: [], p) }
        default:
            break
        }
        return true
    }

    private mutating func add(_ who: DeviceAddress, rssi: Int8, data: ArraySlice<UInt8>, _ p: DissectedPacket) {
        reports += 1
        let key = RowKey(adapter: p.adapterIndex, address: who)
        var row: Row
        if let seen = rows[key] {
            row = seen
        } else {
            guard rows.count < Self.maximumRows else {
                reportsNotTracked += 1
                return
            }
            row = Row(advertiser: who, adapterIndex: p.adapterIndex, firstSeen: p.relativeTime, lastSeen: p.relativeTime)
        }
        row.count += 1
        row.lastSeen = p.relativeTime
        // 127 is "not available" (Vol 4, Part E, §7.7.65.2).
        if rssi != 127 {
            row.rssiMin = min(row.rssiMin, rssi)
            row.rssiMax = max(row.rssiMax, rssi)
        }
        if !data.isEmpty {
            row.lastData = Array(data)
            if let name = AdvertisingData(data).localName { row.name = name }
        }
        rows[key] = row
    }

    /// Busiest first, then by address.
    public var sortedRows: [Row] {
        rows.values.sorted { $0.count != $1.count ? $0.count > $1.count : $0.advertiser.description < $1.advertiser.description }
    }

    /// A table: one line per device.
    public var text: String {
        var s = "Advertisers: \(rows.count) devices, \(reports) reports"
        if reportsNotTracked > 0 { s += " (\(reportsNotTracked) reports of devices beyond \(Self.maximumRows) not tracked)" }
        for r in sortedRows {
            s += "\n  " + (r.adapterIndex.map { "hci\($0) " } ?? "") + r.advertiser.description
            s += "  " + String(r.count) + " reports"
            if r.rssiMin <= r.rssiMax { s += "  RSSI \(r.rssiMin)…\(r.rssiMax) dBm" }
            if let n = r.name { s += "  \"" + n + "\"" }
            if !r.lastData.isEmpty { s += "  data " + Hex.string(r.lastData) }
        }
        return s
    }

    /// One JSON object with a row per device.
    public var json: JSONObject {
        var o = JSONObject()
        o.add("advertisers", true)
        o.add("devices", rows.count)
        o.add("reports", reports)
        if reportsNotTracked > 0 { o.add("reports_not_tracked", reportsNotTracked) }
        var list: [JSONObject] = []
        for r in sortedRows {
            var d = JSONObject()
            if let a = r.adapterIndex { d.add("adapter", Int(a)) }
            d.add("address", r.advertiser.description)
            d.add("count", r.count)
            if r.rssiMin <= r.rssiMax {
                d.add("rssi_min", Int(r.rssiMin))
                d.add("rssi_max", Int(r.rssiMax))
            }
            if let n = r.name { d.add("name", n) }
            d.add("last_data", Hex.string(r.lastData))
            d.add("first_seen", r.firstSeen)
            d.add("last_seen", r.lastSeen)
            list.append(d)
        }
        o.add("rows", objects: list)
        return o
    }
}
