/// Current_Settings / Supported_Settings of a controller (BlueZ doc/mgmt-api, Read Controller
/// Information). Unknown bits are kept, so a newer kernel's settings survive a round trip.
public struct ManagementSettings: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let powered = ManagementSettings(rawValue: 1 << 0)
    public static let connectable = ManagementSettings(rawValue: 1 << 1)
    public static let discoverable = ManagementSettings(rawValue: 1 << 3)
    public static let basicRateEDR = ManagementSettings(rawValue: 1 << 7)
    public static let lowEnergy = ManagementSettings(rawValue: 1 << 9)
    public static let advertising = ManagementSettings(rawValue: 1 << 10)
    public static let staticAddress = ManagementSettings(rawValue: 1 << 15)
}

/// The Address_Type bit set of Start/Stop Discovery and the Discovering event.
public struct ManagementDiscoveryTypes: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let basicRateEDR = ManagementDiscoveryTypes(rawValue: 1 << 0)
    public static let lePublic = ManagementDiscoveryTypes(rawValue: 1 << 1)
    public static let leRandom = ManagementDiscoveryTypes(rawValue: 1 << 2)
    /// 0x06: LE, public and random addresses; what a BLE central scans for.
    public static let lowEnergy: ManagementDiscoveryTypes = [.lePublic, .leRandom]
}
