import Wire

/// One decoded BTHome object: its type and the octets that followed the id (for text and raw,
/// the octets after the length octet).
public struct BTHomeObject: Sendable, Hashable {
    public var type: BTHomeObjectType
    public var data: ArraySlice<UInt8>

    public init(type: BTHomeObjectType, data: ArraySlice<UInt8>) {
        self.type = type
        self.data = data
    }

    public var id: UInt8 { type.id }

    /// The octets as a little-endian integer, sign-extended for signed formats.
    public var integer: Int64 {
        var v: UInt64 = 0
        for (i, b) in data.prefix(8).enumerated() { v |= UInt64(b) << (8 * UInt64(i)) }
        if case .signed(let n) = type.format, n > 0, n < 8, v & (1 << (8 * UInt64(n) - 1)) != 0 {
            v |= ~0 << (8 * UInt64(n))
        }
        return Int64(bitPattern: v)
    }

    /// The value, scaled by the type's factor, exact.
    public var value: QuantityValue {
        switch type.format {
        case .unsigned, .signed:
            return .number(DecimalNumber(integer * type.factor.significand, exponent: type.factor.exponent))
        case .binary:
            return .boolean(integer != 0)
        case .buttonEvent:
            return .text(Self.buttonEventName(UInt8(truncatingIfNeeded: integer)))
        case .dimmerEvent:
            let event = data.first ?? 0
            let steps = data.dropFirst().first ?? 0
            switch event {
            case 0x00: return .text("none")
            case 0x01: return .text("rotate_left \(steps)")
            case 0x02: return .text("rotate_right \(steps)")
            default: return .text("event_" + Hex.lowerNumber(event, width: 2))
            }
        case .text:
            return .text(String(decoding: data, as: UTF8.self))
        case .raw:
            return .text(Hex.string(data))
        case .timestamp:
            return .text(UnixTime.iso8601(seconds: integer))
        case .version:
            return .text(data.reversed().map { String($0) }.joined(separator: "."))
        }
    }

    /// Button event names of bthome.io ("Events": 0x00 none … 0x06 long triple press, 0x80 hold
    /// press); other codes by number.
    public static func buttonEventName(_ code: UInt8) -> String {
        switch code {
        case 0x00: return "none"
        case 0x01: return "press"
        case 0x02: return "double_press"
        case 0x03: return "triple_press"
        case 0x04: return "long_press"
        case 0x05: return "long_double_press"
        case 0x06: return "long_triple_press"
        case 0x80: return "hold_press"
        default: return "event_" + Hex.lowerNumber(code, width: 2)
        }
    }

    /// Event types a button can report, for Home Assistant's event entity.
    public static let buttonEventTypes = ["press", "double_press", "triple_press", "long_press",
                                          "long_double_press", "long_triple_press", "hold_press"]
    public static let dimmerEventTypes = ["rotate_left", "rotate_right"]
}
