/// A set of LE PHYs as one bit each (Scanning_PHYs, Initiating_PHYs, TX_PHYs, RX_PHYs of
/// Core Spec v5.4 Vol 4, Part E, §7.8.49, §7.8.64, §7.8.66). A single PHY is a one-bit set;
/// its bit index + 1 is the PHY number used in events (1 = LE 1M, 2 = LE 2M, 3 = LE Coded).
public struct LEPHYMask: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let le1M = LEPHYMask(rawValue: 1 << 0)
    public static let le2M = LEPHYMask(rawValue: 1 << 1)
    public static let leCoded = LEPHYMask(rawValue: 1 << 2)

    /// The set bits from the lowest up, each as a one-bit set: the order in which per-PHY
    /// parameter entries follow each other in a command.
    public var elements: [LEPHYMask] {
        var out: [LEPHYMask] = []
        for bit in 0..<8 where rawValue & (1 << bit) != 0 {
            out.append(LEPHYMask(rawValue: 1 << bit))
        }
        return out
    }

    public var count: Int { rawValue.nonzeroBitCount }

    /// `LE 1M, LE Coded`; unknown bits as `bit 5`.
    public var names: String {
        if rawValue == 0 { return "none" }
        var parts: [String] = []
        for bit in 0..<8 where rawValue & (1 << bit) != 0 {
            switch bit {
            case 0: parts.append("LE 1M")
            case 1: parts.append("LE 2M")
            case 2: parts.append("LE Coded")
            default: parts.append("bit " + String(bit))
            }
        }
        return parts.joined(separator: ", ")
    }

    public var description: String { HCICommandFormat.named(names, rawValue) }
}
