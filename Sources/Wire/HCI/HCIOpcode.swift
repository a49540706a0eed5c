/// HCI command opcode: OGF (6 bits) and OCF (10 bits) (Core Spec Vol 4, Part E, §5.4.1).
public struct HCIOpcode: RawRepresentable, Hashable, Sendable, Comparable {
    public let rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public init(ogf: UInt8, ocf: UInt16) {
        rawValue = UInt16(ogf & 0x3f) << 10 | (ocf & 0x03ff)
    }

    public var ogf: UInt8 { UInt8(truncatingIfNeeded: rawValue >> 10) }
    public var ocf: UInt16 { rawValue & 0x03ff }

    public static func < (l: HCIOpcode, r: HCIOpcode) -> Bool { l.rawValue < r.rawValue }
}
