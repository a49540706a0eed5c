import HostCore
import Sensors
import Wire

/// One entry of the gateway's device list: which devices it takes and what to do with them.
/// Either a configured `DeviceRule` (by address, advertised service, name pattern) or, with no
/// configuration, one of the run session's roles, found as the session finds it: by the service
/// its kind of sensor advertises (`SensorRole.profiles`), subscribed to that kind's measurement.
public enum DeviceEntry: Sendable, Equatable {
    case rule(DeviceRule)
    case role(SensorRole)

    /// The entries of a configuration: its devices, or the session's three roles when it names
    /// none.
    /// Without devices, the run session's sensor kinds — unless the gateway is only a Bluetooth
    /// proxy (ESPHome's API and no broker): then its clients decide what is connected.
    public static func entries(of configuration: GatewayConfiguration) -> [DeviceEntry] {
        guard configuration.devices.isEmpty else { return configuration.devices.map { .rule($0) } }
        if configuration.esphome.listen != nil && configuration.mqtt.broker == nil { return [] }
        return SensorRole.allCases.map { .role($0) }
    }

    /// What the entry is (in a reload, an entry that is the same keeps its devices): the rule
    /// without the line it was read from.
    public var identity: DeviceEntry {
        guard case .rule(var r) = self else { return self }
        r.line = nil
        return .rule(r)
    }

    /// How many devices it takes.
    public var maxDevices: Int {
        switch self {
        case .rule(let r): return r.address != nil ? 1 : r.maxDevices
        case .role: return 1
        }
    }

    /// Whether its devices are connected (false: their advertisements only).
    public var connects: Bool {
        if case .rule(let r) = self { return r.connect }
        return true
    }

    /// The one device an address entry names, known before it is heard.
    public var fixedAddress: (BDAddress, LEAddressType?)? {
        guard case .rule(let r) = self, let a = r.address else { return nil }
        return (a, r.addressType)
    }

    /// Whether an advertiser is one of this entry's devices; for a role, the kind of sensor it
    /// is (the first profile of the role whose service it advertises).
    public func matches(address: BDAddress, type: LEAddressType, name: String?, data: AdvertisingData) -> (Bool, SensorProfile?) {
        switch self {
        case .rule(let r):
            return (r.matches(address: address, type: type, name: name, advertises: data.advertisesService), nil)
        case .role(let role):
            let profile = role.profile(advertisedIn: data)
            return (profile != nil, profile)
        }
    }

    /// The device's topic level: the entry's name for an entry of one device, else the address.
    public func deviceID(address: BDAddress) -> String {
        switch self {
        case .rule(let r):
            if let n = r.name, maxDevices == 1 { return n }
            return TopicLevel.fromAddress(address.string)
        case .role(let role):
            return role.rawValue
        }
    }

    /// Characteristics its devices are subscribed to up front; empty with `subscribesToAll`.
    public func subscriptions(profile: SensorProfile?) -> [Subscription] {
        switch self {
        case .rule(let r): return r.subscribe.map { Subscription(characteristic: $0) }
        case .role(let role):
            let p = profile ?? role.profiles[0]
            return [Subscription(service: p.measurementService, characteristic: p.measurementCharacteristic)]
        }
    }

    /// Whether every characteristic rtstack decodes is subscribed to, found in the database
    /// once known (a rule without `subscribe`).
    public var subscribesToAll: Bool {
        if case .rule(let r) = self { return r.subscribe.isEmpty }
        return false
    }

    /// Characteristics read after each connection.
    public var reads: [BluetoothUUID] {
        if case .rule(let r) = self { return r.read }
        return []
    }

    public var bthomeKey: [UInt8]? {
        if case .rule(let r) = self { return r.bthomeKey }
        return nil
    }

    /// What the device is, for Home Assistant's device block.
    public func model(profile: SensorProfile?) -> String? {
        switch self {
        case .rule(let r): return r.service.flatMap(\.name)
        case .role(let role):
            switch profile ?? role.profiles[0] {
            case .heartRate: return "Heart Rate Sensor"
            case .runningSpeedAndCadence: return "Running Speed and Cadence Sensor"
            case .thingy: return "Nordic Thingy:52"
            default: return "Environmental Sensing"
            }
        }
    }
}
