import Wire

/// Everything scanning learned about one device, merged over its advertisements and scan
/// responses (names often come only in the scan response).
public struct DiscoveredDevice: Sendable, Equatable {
    public var address: DeviceAddress
    public var name: String?
    public var rssi: Int8
    public var services: [BluetoothUUID] = []
    public var manufacturerData: [(company: UInt16, data: [UInt8])] = []
    public var txPower: Int8?
    public var appearance: UInt16?
    public var connectable: Bool
    public var reports = 0
    public var lastSeen: UInt64 = 0

    public init(address: DeviceAddress, rssi: Int8, connectable: Bool) {
        self.address = address
        self.rssi = rssi
        self.connectable = connectable
    }

    public static func == (l: DiscoveredDevice, r: DiscoveredDevice) -> Bool {
        l.address == r.address && l.name == r.name && l.rssi == r.rssi && l.services == r.services
            && l.manufacturerData.elementsEqual(r.manufacturerData) { $0.company == $1.company && $0.data == $1.data }
            && l.txPower == r.txPower && l.appearance == r.appearance && l.connectable == r.connectable
    }
}
