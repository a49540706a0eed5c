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
