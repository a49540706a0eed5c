/// The type octet of an AD structure (Bluetooth Assigned Numbers §2.3, "Common Data Types").
///
/// A raw-value struct rather than an enum: types assigned after this code was written must
/// still pass through a scanner and a decoder unharmed, and print as `Unknown (0xNN)`.
public struct ADType: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    public static func < (l: ADType, r: ADType) -> Bool { l.rawValue < r.rawValue }

    // Core Specification Supplement (CSS) Part A section named on each line.
    /// CSS §1.3
    public static let flags = ADType(0x01)
    /// CSS §1.1
    public static let incompleteList16BitServiceUUIDs = ADType(0x02)
    public static let completeList16BitServiceUUIDs = ADType(0x03)
    public static let incompleteList32BitServiceUUIDs = ADType(0x04)
    public static let completeList32BitServiceUUIDs = ADType(0x05)
    public static let incompleteList128BitServiceUUIDs = ADType(0x06)
    public static let completeList128BitServiceUUIDs = ADType(0x07)
    /// CSS §1.2
    public static let shortenedLocalName = ADType(0x08)
    public static let completeLocalName = ADType(0x09)
    /// CSS §1.5
    public static let txPowerLevel = ADType(0x0A)
    /// CSS §1.6
    public static let classOfDevice = ADType(0x0D)
    public static let simplePairingHashC192 = ADType(0x0E)
    public static let simplePairingRandomizerR192 = ADType(0x0F)
    /// Device ID in EIR (Device ID Profile); Security Manager TK Value in OOB data (CSS §1.8).
    public static let deviceIDOrSecurityManagerTKValue = ADType(0x10)
    /// CSS §1.7
    public static let securityManagerOutOfBandFlags = ADType(0x11)
    /// CSS §1.9
    public static let peripheralConnectionIntervalRange = ADType(0x12)
    /// CSS §1.10
    public static let list16BitServiceSolicitationUUIDs = ADType(0x14)
    public static let list128BitServiceSolicitationUUIDs = ADType(0x15)
    /// CSS §1.11
    public static let serviceData16BitUUID = ADType(0x16)
    /// CSS §1.13
    public static let publicTargetAddress = ADType(0x17)
    /// CSS §1.14
    public static let randomTargetAddress = ADType(0x18)
    /// CSS §1.12
    public static let appearance = ADType(0x19)
    /// CSS §1.15
    public static let advertisingInterval = ADType(0x1A)
    /// CSS §1.16
    public static let leBluetoothDeviceAddress = ADType(0x1B)
    /// CSS §1.17
    public static let leRole = ADType(0x1C)
    /// CSS §1.6
    public static let simplePairingHashC256 = ADType(0x1D)
    public static let simplePairingRandomizerR256 = ADType(0x1E)
    /// CSS §1.10
    public static let list32BitServiceSolicitationUUIDs = ADType(0x1F)
    /// CSS §1.11
    public static let serviceData32BitUUID = ADType(0x20)
    public static let serviceData128BitUUID = ADType(0x21)
    /// CSS §1.6
    public static let leSecureConnectionsConfirmationValue = ADType(0x22)
    public static let leSecureConnectionsRandomValue = ADType(0x23)
    /// CSS §1.18
    public static let uri = ADType(0x24)
    /// Indoor Positioning Service
    public static let indoorPositioning = ADType(0x25)
    /// Transport Discovery Service
    public static let transportDiscoveryData = ADType(0x26)
    /// CSS §1.19
    public static let leSupportedFeatures = ADType(0x27)
    /// CSS §1.20
    public static let channelMapUpdateIndication = ADType(0x28)
    /// Mesh Profile §5.2.1
    public static let pbADV = ADType(0x29)
    /// Mesh Profile §3.3.1
    public static let meshMessage = ADType(0x2A)
    /// Mesh Profile §3.9
    public static let meshBeacon = ADType(0x2B)
    /// CSS §1.21
    public static let bigInfo = ADType(0x2C)
    /// CSS §1.22
    public static let broadcastCode = ADType(0x2D)
    /// Coordinated Set Identification Profile
    public static let resolvableSetIdentifier = ADType(0x2E)
    /// CSS §1.15
    public static let advertisingIntervalLong = ADType(0x2F)
    /// Public Broadcast Profile
    public static let broadcastName = ADType(0x30)
    /// CSS §1.23
    public static let encryptedAdvertisingData = ADType(0x31)
    /// CSS §1.24
    public static let periodicAdvertisingResponseTimingInformation = ADType(0x32)
    /// ESL Profile
    public static let electronicShelfLabel = ADType(0x34)
    /// 3D Synchronization Profile
    public static let threeDInformationData = ADType(0x3D)
    /// CSS §1.4
    public static let manufacturerSpecificData = ADType(0xFF)

    /// The Assigned Numbers name, or nil for a value not assigned when this was written.
    public var knownName: String? {
        switch rawValue {
        case 0x01: return "Flags"
        case 0x02: return "Incomplete List of 16-bit Service or Service Class UUIDs"
        case 0x03: return "Complete List of 16-bit Service or Service Class UUIDs"
        case 0x04: return "Incomplete List of 32-bit Service or Service Class UUIDs"
        case 0x05: return "Complete List of 32-bit Service or Service Class UUIDs"
        case 0x06: return "Incomplete List of 128-bit Service or Service Class UUIDs"
        case 0x07: return "Complete List of 128-bit Service or Service Class UUIDs"
        case 0x08: return "Shortened Local Name"
        case 0x09: return "Complete Local Name"
        case 0x0A: return "Tx Power Level"
        case 0x0D: return "Class of Device"
        case 0x0E: return "Simple Pairing Hash C-192"
        case 0x0F: return "Simple Pairing Randomizer R-192"
        case 0x10: return "Device ID / Security Manager TK Value"
        case 0x11: return "Security Manager Out of Band Flags"
        case 0x12: return "Peripheral Connection Interval Range"
        case 0x14: return "List of 16-bit Service Solicitation UUIDs"
        case 0x15: return "List of 128-bit Service Solicitation UUIDs"
        case 0x16: return "Service Data - 16-bit UUID"
        case 0x17: return "Public Target Address"
        case 0x18: return "Random Target Address"
        case 0x19: return "Appearance"
        case 0x1A: return "Advertising Interval"
        case 0x1B: return "LE Bluetooth Device Address"
        case 0x1C: return "LE Role"
        case 0x1D: return "Simple Pairing Hash C-256"
        case 0x1E: return "Simple Pairing Randomizer R-256"
        case 0x1F: return "List of 32-bit Service Solicitation UUIDs"
        case 0x20: return "Service Data - 32-bit UUID"
        case 0x21: return "Service Data - 128-bit UUID"
        case 0x22: return "LE Secure Connections Confirmation Value"
        case 0x23: return "LE Secure Connections Random Value"
        case 0x24: return "URI"
        case 0x25: return "Indoor Positioning"
        case 0x26: return "Transport Discovery Data"
        case 0x27: return "LE Supported Features"
        case 0x28: return "Channel Map Update Indication"
        case 0x29: return "PB-ADV"
        case 0x2A: return "Mesh Message"
        case 0x2B: return "Mesh Beacon"
        case 0x2C: return "BIGInfo"
        case 0x2D: return "Broadcast_Code"
        case 0x2E: return "Resolvable Set Identifier"
        case 0x2F: return "Advertising Interval - long"
        case 0x30: return "Broadcast_Name"
        case 0x31: return "Encrypted Advertising Data"
        case 0x32: return "Periodic Advertising Response Timing Information"
        case 0x34: return "Electronic Shelf Label"
        case 0x3D: return "3D Information Data"
        case 0xFF: return "Manufacturer Specific Data"
        default: return nil
        }
    }

    /// The Assigned Numbers name, `Unknown (0xNN)` for an unassigned value.
    public var name: String { knownName ?? "Unknown (\(Hex.number(rawValue, width: 2)))" }

    public var description: String { name }

    /// Every type with an Assigned Numbers name, in ascending order (for tables and tests).
    public static let allKnown: [ADType] = (0...255).compactMap { v in
        let t = ADType(UInt8(truncatingIfNeeded: v))
        return t.knownName == nil ? nil : t
    }
}

extension ADType {
    /// Whether the structure carries a list of service UUIDs (complete or incomplete, any width),
    /// not counting solicitation lists.
    public var isServiceUUIDList: Bool { (0x02...0x07).contains(rawValue) }

    /// Whether the structure carries a list of solicited service UUIDs.
    public var isSolicitationList: Bool { rawValue == 0x14 || rawValue == 0x15 || rawValue == 0x1F }

    /// Whether the structure carries service data (a UUID followed by data).
    public var isServiceData: Bool { rawValue == 0x16 || rawValue == 0x20 || rawValue == 0x21 }

    /// The UUID width of a UUID list or service data type; nil for other types.
    public var uuidWidth: BluetoothUUID.Width? {
        switch rawValue {
        case 0x02, 0x03, 0x14, 0x16: return .bits16
        case 0x04, 0x05, 0x1F, 0x20: return .bits32
        case 0x06, 0x07, 0x15, 0x21: return .bits128
        default: return nil
        }
    }

    /// The service UUID list type for a width (CSS Part A §1.1).
    public static func serviceUUIDList(_ width: BluetoothUUID.Width, complete: Bool) -> ADType {
        switch width {
        case .bits16: return complete ? .completeList16BitServiceUUIDs : .incompleteList16BitServiceUUIDs
        case .bits32: return complete ? .completeList32BitServiceUUIDs : .incompleteList32BitServiceUUIDs
        case .bits128: return complete ? .completeList128BitServiceUUIDs : .incompleteList128BitServiceUUIDs
        }
    }

    /// The service solicitation list type for a width (CSS Part A §1.10).
    public static func solicitationList(_ width: BluetoothUUID.Width) -> ADType {
        switch width {
        case .bits16: return .list16BitServiceSolicitationUUIDs
        case .bits32: return .list32BitServiceSolicitationUUIDs
        case .bits128: return .list128BitServiceSolicitationUUIDs
        }
    }

    /// The service data type for a width (CSS Part A §1.11).
    public static func serviceData(_ width: BluetoothUUID.Width) -> ADType {
        switch width {
        case .bits16: return .serviceData16BitUUID
        case .bits32: return .serviceData32BitUUID
        case .bits128: return .serviceData128BitUUID
        }
    }
}
