import Wire

/// One advertising or scan-response PDU as the controller reported it (legacy or extended).
public struct AdvertisementReport: Sendable {
    public var address: DeviceAddress
    public var rssi: Int8
    public var connectable: Bool
    public var scannable: Bool
    public var isScanResponse: Bool
    /// AD structures, a slice of the event (parse with `AdvertisingData`).
    public var data: ArraySlice<UInt8>
    /// Set when `address` is a bonded peer's identity recognised behind a resolvable private
    /// address: the address it advertised with (nil when the controller resolved it and did
    /// not say).
    public var resolvedFrom: DeviceAddress?
    /// The identity was resolved (by the host from this RPA, or by the controller).
    public var isResolved = false

    public init(address: DeviceAddress, rssi: Int8, connectable: Bool, scannable: Bool,
                isScanResponse: Bool, data: ArraySlice<UInt8>) {
        self.address = address
        self.rssi = rssi
        self.connectable = connectable
        self.scannable = scannable
        self.isScanResponse = isScanResponse
        self.data = data
    }
}
