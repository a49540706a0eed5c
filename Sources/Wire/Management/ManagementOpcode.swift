/// A Linux Bluetooth management command code (BlueZ doc/mgmt-api, "Commands"). Every code
/// the documentation lists has a name; any other code still round-trips.
public struct ManagementOpcode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let readControllerIndexList = ManagementOpcode(rawValue: 0x0003)
    public static let readUnconfiguredControllerIndexList = ManagementOpcode(rawValue: 0x0036)
    public static let readControllerInformation = ManagementOpcode(rawValue: 0x0004)
    public static let setPowered = ManagementOpcode(rawValue: 0x0005)
    public static let setLowEnergy = ManagementOpcode(rawValue: 0x000D)
    public static let startDiscovery = ManagementOpcode(rawValue: 0x0023)
    public static let stopDiscovery = ManagementOpcode(rawValue: 0x0024)

    public var name: String {
        switch self {
        case .readControllerIndexList: return "Read Controller Index List"
        case .readControllerInformation: return "Read Controller Information"
        case .setPowered: return "Set Powered"
        case .setLowEnergy: return "Set Low Energy"
        case .startDiscovery: return "Start Discovery"
        case .stopDiscovery: return "Stop Discovery"
        default: return ManagementNames.command(rawValue) ?? "Command " + Hex.number(rawValue, width: 4)
        }
    }

    public var description: String { name }
}

/// A management event code (BlueZ doc/mgmt-api, "Events").
public struct ManagementEventCode: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let commandComplete = ManagementEventCode(rawValue: 0x0001)
    public static let commandStatus = ManagementEventCode(rawValue: 0x0002)
    public static let controllerError = ManagementEventCode(rawValue: 0x0003)
    public static let indexAdded = ManagementEventCode(rawValue: 0x0004)
    public static let indexRemoved = ManagementEventCode(rawValue: 0x0005)
    public static let newSettings = ManagementEventCode(rawValue: 0x0006)
    public static let deviceFound = ManagementEventCode(rawValue: 0x0012)
    public static let discovering = ManagementEventCode(rawValue: 0x0013)

    public var name: String {
        ManagementNames.event(rawValue) ?? "Event " + Hex.number(rawValue, width: 4)
    }
}
