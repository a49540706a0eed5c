/// IO Capability of a Pairing Request or Response (Core Spec v5.4 Vol 3, Part H, §3.5.1,
/// Table 3.4): what the device can show and take from its user, which together with the
/// peer's decides the association model (§2.3.5.1). A raw value: 0x05–0xFF are reserved, and
/// a peer that sends one is answered with Invalid Parameters by the pairing procedure, not by
/// the decoder.
public struct SMPIOCapability: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    public static let displayOnly = SMPIOCapability(0x00)
    public static let displayYesNo = SMPIOCapability(0x01)
    public static let keyboardOnly = SMPIOCapability(0x02)
    public static let noInputNoOutput = SMPIOCapability(0x03)
    public static let keyboardDisplay = SMPIOCapability(0x04)

    public var isReserved: Bool { rawValue > 0x04 }

    /// Name as in Table 3.4, e.g. "KeyboardDisplay".
    public var name: String {
        switch rawValue {
        case 0x00: return "DisplayOnly"
        case 0x01: return "DisplayYesNo"
        case 0x02: return "KeyboardOnly"
        case 0x03: return "NoInputNoOutput"
        case 0x04: return "KeyboardDisplay"
        default: return "Reserved"
        }
    }
}

extension SMPIOCapability: CustomStringConvertible {
    public var description: String { L2CAPText.named(name, rawValue) }
}
