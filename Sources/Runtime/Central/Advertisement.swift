import HostCore
import Wire

/// An advertising report that owns its bytes, so it can leave the loop thread (the host's
/// `AdvertisementReport` is a slice of the received packet).
public struct Advertisement: Sendable {
    public var address: DeviceAddress
    public var rssi: Int8
    public var connectable: Bool
    /// A scan request gets a scan response (ADV_IND, ADV_SCAN_IND, or an extended one that
    /// says so): a scanner that wants the whole picture waits for it.
    public var scannable: Bool
    public var isScanResponse: Bool
    public var data: [UInt8]

    public init(_ r: AdvertisementReport) {
        address = r.address
        rssi = r.rssi
        connectable = r.connectable
        scannable = r.scannable
        isScanResponse = r.isScanResponse
        data = Array(r.data)
    }

    public var advertisingData: AdvertisingData { AdvertisingData(data) }
}
