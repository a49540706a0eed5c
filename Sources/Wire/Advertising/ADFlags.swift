/// The Flags AD type value (Core Specification Supplement Part A §1.3).
///
/// The field may be zero or more octets long; only the first octet has bits assigned, and
/// absent octets mean all-zero bits, so decoding takes the first octet or zero.
public struct ADFlags: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let leLimitedDiscoverableMode = ADFlags(rawValue: 1 << 0)
    public static let leGeneralDiscoverableMode = ADFlags(rawValue: 1 << 1)
    public static let brEdrNotSupported = ADFlags(rawValue: 1 << 2)
    public static let simultaneousLEAndBREDRController = ADFlags(rawValue: 1 << 3)
    /// Named "Previously Used" in later supplement versions.
    public static let simultaneousLEAndBREDRHost = ADFlags(rawValue: 1 << 4)

    /// The value most LE-only peripherals advertise: general discoverable, no BR/EDR (0x06).
    public static let generalDiscoverableLEOnly: ADFlags = [.leGeneralDiscoverableMode, .brEdrNotSupported]

    /// Name of one bit (0…7) as the supplement writes it.
    public static func bitName(_ bit: Int) -> String {
        switch bit {
        case 0: return "LE Limited Discoverable Mode"
        case 1: return "LE General Discoverable Mode"
        case 2: return "BR/EDR Not Supported"
        case 3: return "Simultaneous LE and BR/EDR to Same Device Capable (Controller)"
        case 4: return "Simultaneous LE and BR/EDR to Same Device Capable (Host)"
        default: return "Reserved (bit \(bit))"
        }
    }

    /// Names of the bits that are set, lowest bit first.
    public var names: [String] {
        (0..<8).compactMap { bit in rawValue & (1 << UInt8(bit)) != 0 ? ADFlags.bitName(bit) : nil }
    }

    public var description: String {
        Hex.number(rawValue, width: 2) + (names.isEmpty ? "" : " (" + names.joined(separator: ", ") + ")")
    }
}
