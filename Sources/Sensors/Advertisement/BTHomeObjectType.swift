/// What one BTHome object id means (bthome.io, "Sensor data", "Binary sensor data", "Events",
/// "Device information"): how many octets follow the id and how to turn them into a quantity.
/// v2 objects carry no length, so an id missing from `BTHomeObjectType.table` ends decoding.
public struct BTHomeObjectType: Sendable, Hashable {
    public enum Format: Sendable, Hashable {
        /// Little-endian unsigned integer of this many octets, times the factor.
        case unsigned(Int)
        /// Little-endian two's-complement integer of this many octets, times the factor.
        case signed(Int)
        /// One octet, 0 = off, 1 = on.
        case binary
        /// One octet, an event code (`BTHomeObject.buttonEventName`).
        case buttonEvent
        /// Two octets: event code (0 none, 1 rotate left, 2 rotate right) and steps.
        case dimmerEvent
        /// A length octet, then UTF-8 text.
        case text
        /// A length octet, then opaque octets.
        case raw
        /// uint32 seconds since 1970-01-01 UTC.
        case timestamp
        /// Version numbers of this many octets, most significant last ("1.2.3.4" from 04 03 02 01).
        case version(Int)

        /// Octets after the id (after the length octet for text and raw: nil).
        public var fixedLength: Int? {
            switch self {
            case .unsigned(let n), .signed(let n), .version(let n): return n
            case .binary, .buttonEvent: return 1
            case .dimmerEvent: return 2
            case .timestamp: return 4
            case .text, .raw: return nil
            }
        }
    }

    public let id: UInt8
    /// Machine name (lower snake case), the quantity's key.
    public let key: String
    public let name: String
    public let format: Format
    /// The scale: value = integer × factor (0.01 as 1 × 10⁻², 0.35 as 35 × 10⁻²).
    public let factor: DecimalNumber
    public let unit: QuantityUnit?
    public let deviceClass: HomeAssistantDeviceClass?
    public let kind: QuantityKind

    init(_ id: UInt8, _ key: String, _ name: String, _ format: Format, _ factor: DecimalNumber = DecimalNumber(1),
         _ unit: QuantityUnit? = nil, _ deviceClass: HomeAssistantDeviceClass? = nil, _ kind: QuantityKind = .measurement) {
        self.id = id
        self.key = key
        self.name = name
        self.format = format
        self.factor = factor
        self.unit = unit
        self.deviceClass = deviceClass
        self.kind = kind
    }

    /// The type of an object id; nil for an id this table does not know.
    public static func forID(_ id: UInt8) -> BTHomeObjectType? {
        index[Int(id)]
    }

    private static let index: [BTHomeObjectType?] = {
        var out = [BTHomeObjectType?](repeating: nil, count: 256)
        for t in table { out[Int(t.id)] = t }
        return out
    }()
}
