/// The status of a management command (BlueZ doc/mgmt-api, "Error Codes"). Not an HCI status:
/// the kernel maps controller errors onto this smaller set.
public struct ManagementStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let success = ManagementStatus(rawValue: 0x00)
    public static let unknownCommand = ManagementStatus(rawValue: 0x01)
    public static let failed = ManagementStatus(rawValue: 0x03)
    public static let busy = ManagementStatus(rawValue: 0x0A)
    public static let rejected = ManagementStatus(rawValue: 0x0B)
    public static let notSupported = ManagementStatus(rawValue: 0x0C)
    public static let invalidParameters = ManagementStatus(rawValue: 0x0D)
    public static let notPowered = ManagementStatus(rawValue: 0x0F)
    public static let invalidIndex = ManagementStatus(rawValue: 0x11)
    public static let rfKilled = ManagementStatus(rawValue: 0x12)
    public static let permissionDenied = ManagementStatus(rawValue: 0x14)

    static let names: [String] = [
        "Success", "Unknown Command", "Not Connected", "Failed", "Connect Failed", "Authentication Failed",
        "Not Paired", "No Resources", "Timeout", "Already Connected", "Busy", "Rejected", "Not Supported",
        "Invalid Parameters", "Disconnected", "Not Powered", "Cancelled", "Invalid Index", "RFKilled",
        "Already Paired", "Permission Denied",
    ]

    public var name: String {
        let i = Int(rawValue)
        return i < Self.names.count ? Self.names[i] : "Unknown status"
    }

    public var description: String { name + " (" + Hex.number(rawValue, width: 2) + ")" }
}
