import ESPHomeAPI
import HostCore

/// Advertising reports on their way to the subscriber, batched as ESPHome batches them: a
/// message holds at most `limit` reports, and what gathered during one turn of the gateway's
/// loop goes out at its end, so batching adds no wait.
struct ProxyAdvertisementBatch {
    /// ESPHome's batch size.
    static let limit = 16
    private(set) var pending: [ProxyRawAdvertisement] = []

    /// Adds one report (the advertising data or the scan response, each its own entry); returns
    /// a full batch to send now.
    mutating func add(_ report: AdvertisementReport) -> [ProxyRawAdvertisement]? {
        pending.append(ProxyRawAdvertisement(address: ProxyAddress.number(report.address.address), rssi: Int32(report.rssi),
                                             addressType: ProxyAddress.type(report.address.type), data: Array(report.data)))
        guard pending.count >= Self.limit else { return nil }
        return take()
    }

    mutating func take() -> [ProxyRawAdvertisement]? {
        guard !pending.isEmpty else { return nil }
        defer { pending.removeAll(keepingCapacity: true) }
        return pending
    }

    mutating func clear() { pending.removeAll() }
}
