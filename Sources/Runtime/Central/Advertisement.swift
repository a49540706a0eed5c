import HostCore
import Wire

/// An advertising report that owns its bytes, so it can leave the loop thread (the host's
/// `AdvertisementReport` is a slice of the received packet).
public struct Advertisement: Sendable {
    public var address: DeviceAddress
    public var rssi: Int8
    public var connectable: Bool
    public var isScanResponse: Bool
    public var data: [UInt8]

    public init(_ r: AdvertisementReport) {
        address = r.address
        rssi = r.rssi
        connectable = r.connectable
        isScanResponse = r.isScanResponse
        data = Array(r.data)
    }

    public var advertisingData: AdvertisingData { AdvertisingData(data) }
}
