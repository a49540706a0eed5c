import Wire

/// Nordic Thingy:52 temperature, EF680201-9B35-4933-9B10-52FFA9740042 (Thingy Environment
/// Service; Nordic's firmware documentation lists it as `int8_t` integer °C then `uint8_t`
/// decimal).
///
/// Sign convention (chosen after reading the Thingy:52 firmware, `m_environment.c`): the
/// firmware casts the float reading to `int8_t` (truncation toward zero) for the integer part
/// and sends the remaining fraction × 100 as the decimal byte. So the decimal is the magnitude
/// of the fraction *in the direction of the integer part*: integer −5, decimal 25 is −5.25 °C,
/// not −4.75. (Nordic's Web Bluetooth demo adds decimal/100 unconditionally, which is wrong
/// below zero.) Two limits follow from the format and are kept visible rather than guessed at:
/// readings between −1 and 0 °C have integer 0 and cannot carry their sign, and the firmware's
/// conversion of a negative fraction to `uint8_t` is undefined in C, so a decimal byte above 99
/// is rejected as malformed.
public struct ThingyTemperature: SensorCharacteristic, Sendable, Hashable {
    public static let uuid = SensorCharacteristicUUID.thingyTemperature

    /// Whole degrees Celsius, truncated toward zero.
    public var integer: Int8
    /// Hundredths of a degree, 0…99, in the direction of `integer`'s sign.
    public var decimal: UInt8

    public init(integer: Int8, decimal: UInt8) {
        self.integer = integer
        self.decimal = decimal
    }

    /// From hundredths of a degree, as the firmware would send them; nil outside −128.99…127.99.
    /// Values in −0.99…−0.01 come out positive, as they do from a real Thingy.
    public init?(hundredths: Int) {
        let whole = hundredths / 100          // truncates toward zero, like the firmware's cast
        guard let i = Int8(exactly: whole) else { return nil }
        integer = i
        decimal = UInt8(truncatingIfNeeded: (hundredths % 100).magnitude)
    }

    public init(decoding reader: inout ByteReader) throws(WireError) {
        integer = try reader.i8("Temperature integer")
        decimal = try reader.u8("Temperature decimal")
        if decimal > 99 { throw WireError.invalidValue(field: "Temperature decimal", value: UInt64(decimal)) }
    }

    public func encode(into writer: inout ByteWriter) {
        writer.i8(integer)
        writer.u8(decimal)
    }

    /// The temperature in hundredths of a degree Celsius.
    public var hundredths: Int {
        let whole = Int(integer) * 100
        return integer < 0 ? whole - Int(decimal) : whole + Int(decimal)
    }

    public var celsius: Double { Double(hundredths) / 100 }
}

extension ThingyTemperature: FieldDescribing {
    /// E.g. "23.50 °C".
    public var summary: String { FixedPoint.format(hundredths, decimals: 2) + " °C" }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Integer", "\(integer) °C")
        fields.add("Decimal", "\(decimal)/100 °C")
        fields.add("Temperature", summary)
    }
}
