/// Central_Clock_Accuracy (Vol 4, Part E, §7.7.65.1): the sleep clock accuracy class of the
/// central, meaningful only on a peripheral (a central receives 0x00).
public struct LEClockAccuracy: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let ppm500 = LEClockAccuracy(rawValue: 0x00)
    public static let ppm250 = LEClockAccuracy(rawValue: 0x01)
    public static let ppm150 = LEClockAccuracy(rawValue: 0x02)
    public static let ppm100 = LEClockAccuracy(rawValue: 0x03)
    public static let ppm75 = LEClockAccuracy(rawValue: 0x04)
    public static let ppm50 = LEClockAccuracy(rawValue: 0x05)
    public static let ppm30 = LEClockAccuracy(rawValue: 0x06)
    public static let ppm20 = LEClockAccuracy(rawValue: 0x07)

    /// Worst-case drift in parts per million; nil for a reserved value.
    public var ppm: Int? {
        switch rawValue {
        case 0x00: return 500
        case 0x01: return 250
        case 0x02: return 150
        case 0x03: return 100
        case 0x04: return 75
        case 0x05: return 50
        case 0x06: return 30
        case 0x07: return 20
        default: return nil
        }
    }

    public var name: String { ppm.map { String($0) + " ppm" } ?? "Reserved" }

    public var description: String { EventFormat.named(name, rawValue) }
}
