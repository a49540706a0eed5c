/// Attribute types a GATT client meets while discovering (Assigned Numbers, "GATT
/// Declarations" and "Descriptors"; roles in Core Spec v5.4 Vol 3, Part G, §3), plus the
/// Generic Attribute service's characteristics that decide when a cached database is stale.
extension BluetoothUUID {
    public static let primaryService = BluetoothUUID(0x2800)
    public static let secondaryService = BluetoothUUID(0x2801)
    public static let include = BluetoothUUID(0x2802)
    public static let characteristic = BluetoothUUID(0x2803)

    public static let characteristicExtendedProperties = BluetoothUUID(0x2900)
    public static let characteristicUserDescription = BluetoothUUID(0x2901)
    public static let clientCharacteristicConfiguration = BluetoothUUID(0x2902)
    public static let serverCharacteristicConfiguration = BluetoothUUID(0x2903)
    public static let characteristicPresentationFormat = BluetoothUUID(0x2904)
    public static let characteristicAggregateFormat = BluetoothUUID(0x2905)

    public static let genericAccessService = BluetoothUUID(0x1800)
    public static let genericAttributeService = BluetoothUUID(0x1801)
    public static let deviceName = BluetoothUUID(0x2A00)
    public static let appearance = BluetoothUUID(0x2A01)
    public static let serviceChanged = BluetoothUUID(0x2A05)
    public static let clientSupportedFeatures = BluetoothUUID(0x2B29)
    public static let databaseHash = BluetoothUUID(0x2B2A)
    public static let serverSupportedFeatures = BluetoothUUID(0x2B3A)

    /// Name of one of the types above, for the dissector; nil for any other UUID.
    public var gattAttributeTypeName: String? {
        guard let short = uuid16 else { return nil }
        switch short {
        case 0x2800: return "Primary Service"
        case 0x2801: return "Secondary Service"
        case 0x2802: return "Include"
        case 0x2803: return "Characteristic"
        case 0x2900: return "Characteristic Extended Properties"
        case 0x2901: return "Characteristic User Description"
        case 0x2902: return "Client Characteristic Configuration"
        case 0x2903: return "Server Characteristic Configuration"
        case 0x2904: return "Characteristic Presentation Format"
        case 0x2905: return "Characteristic Aggregate Format"
        case 0x1800: return "Generic Access"
        case 0x1801: return "Generic Attribute"
        case 0x2A00: return "Device Name"
        case 0x2A01: return "Appearance"
        case 0x2A05: return "Service Changed"
        case 0x2B29: return "Client Supported Features"
        case 0x2B2A: return "Database Hash"
        case 0x2B3A: return "Server Supported Features"
        default: return nil
        }
    }

    /// `2803 (Characteristic)` when the name is known, `.string` otherwise.
    var attText: String {
        if let name = gattAttributeTypeName { return string + " (" + name + ")" }
        return string
    }
}
