/// What the proxy says about itself in the Noise hello, the hello response and device info.
public struct ProxyIdentity: Equatable, Sendable {
    /// The node name Home Assistant names the device by (ESPHome: `esphome: name:`); a client
    /// that expects another name refuses the connection.
    public var name: String
    public var friendlyName: String
    /// The MAC that identifies the node (colon-separated, upper case); the adapter's here.
    public var macAddress: String
    /// The Bluetooth adapter's address, which Home Assistant uses as the scanner's source.
    public var bluetoothMACAddress: String
    public var model: String
    public var manufacturer: String
    /// The ESPHome release whose proxy behaviour this follows: Home Assistant compares it
    /// to decide what the proxy supports.
    public var esphomeVersion: String
    public var serverInfo: String
    public var features: BluetoothProxyFeatures

    public init(name: String, friendlyName: String, macAddress: String, bluetoothMACAddress: String,
                model: String = "rtstack", manufacturer: String = "rtstack", esphomeVersion: String = "2025.11.0",
                serverInfo: String = "rtstack", features: BluetoothProxyFeatures) {
        self.name = name
        self.friendlyName = friendlyName
        self.macAddress = macAddress
        self.bluetoothMACAddress = bluetoothMACAddress
        self.model = model
        self.manufacturer = manufacturer
        self.esphomeVersion = esphomeVersion
        self.serverInfo = serverInfo
        self.features = features
    }

    /// The MAC as the Noise server hello carries it: twelve lower-case hex digits.
    var compactMACAddress: String {
        String(macAddress.lowercased().filter { $0 != ":" })
    }
}

/// `bluetooth_proxy_feature_flags` of device info: what the client may ask of this proxy.
public struct BluetoothProxyFeatures: OptionSet, Equatable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let passiveScan = BluetoothProxyFeatures(rawValue: 1 << 0)
    public static let activeConnections = BluetoothProxyFeatures(rawValue: 1 << 1)
    public static let remoteCaching = BluetoothProxyFeatures(rawValue: 1 << 2)
    public static let pairing = BluetoothProxyFeatures(rawValue: 1 << 3)
    public static let cacheClearing = BluetoothProxyFeatures(rawValue: 1 << 4)
    public static let rawAdvertisements = BluetoothProxyFeatures(rawValue: 1 << 5)
    public static let stateAndMode = BluetoothProxyFeatures(rawValue: 1 << 6)
    public static let connectionParameters = BluetoothProxyFeatures(rawValue: 1 << 7)

    /// The field clients below API 1.9 read instead: each version adds one feature, in the
    /// order passive scan, active connections, remote caching, pairing, cache clearing.
    var legacyProxyVersion: UInt32 {
        let ladder: [BluetoothProxyFeatures] = [.passiveScan, .activeConnections, .remoteCaching, .pairing, .cacheClearing]
        return UInt32(ladder.prefix { contains($0) }.count)
    }
}
