/// A unit symbol as Home Assistant spells it (the `unit_of_measurement` it checks against a
/// device class), kept in one place so that the decoders, the JSON and the discovery configs
/// agree.
public struct QuantityUnit: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ symbol: String) { rawValue = symbol }
    public var description: String { rawValue }

    public static let celsius = QuantityUnit("°C")
    public static let fahrenheit = QuantityUnit("°F")
    public static let percent = QuantityUnit("%")
    public static let hectopascal = QuantityUnit("hPa")
    public static let pascal = QuantityUnit("Pa")
    public static let beatsPerMinute = QuantityUnit("bpm")
    public static let stepsPerMinute = QuantityUnit("steps/min")
    public static let revolutionsPerMinute = QuantityUnit("rpm")
    public static let metersPerSecond = QuantityUnit("m/s")
    public static let kilometersPerHour = QuantityUnit("km/h")
    public static let meters = QuantityUnit("m")
    public static let millimeters = QuantityUnit("mm")
    public static let seconds = QuantityUnit("s")
    public static let milliseconds = QuantityUnit("ms")
    public static let kilojoules = QuantityUnit("kJ")
    public static let kilowattHours = QuantityUnit("kWh")
    public static let watts = QuantityUnit("W")
    public static let volts = QuantityUnit("V")
    public static let millivolts = QuantityUnit("mV")
    public static let amperes = QuantityUnit("A")
    public static let lux = QuantityUnit("lx")
    public static let kilograms = QuantityUnit("kg")
    public static let pounds = QuantityUnit("lb")
    public static let partsPerMillion = QuantityUnit("ppm")
    public static let microgramsPerCubicMeter = QuantityUnit("µg/m³")
    public static let cubicMeters = QuantityUnit("m³")
    public static let cubicMetersPerHour = QuantityUnit("m³/h")
    public static let liters = QuantityUnit("L")
    public static let milliliters = QuantityUnit("mL")
    public static let degrees = QuantityUnit("°")
    public static let degreesPerSecond = QuantityUnit("°/s")
    public static let metersPerSecondSquared = QuantityUnit("m/s²")
    public static let microsiemensPerCentimeter = QuantityUnit("µS/cm")
    public static let decibelMilliwatts = QuantityUnit("dBm")
}
