/// One named quantity of a decoded value, with everything a consumer needs to show or store it
/// without knowing the format it came in: a heart-rate notification gives `heart_rate` in bpm
/// (and `energy_expended` in kJ, `rr_interval` in ms); a BTHome advertisement gives one quantity
/// per object. This is the one model the gateway publishes and Home Assistant discovers.
public struct SensorQuantity: Sendable, Hashable {
    /// Stable machine name, lower snake case, unique within one device (`temperature`,
    /// `humidity_2`); used in topics and unique ids.
    public var key: String
    /// Human name ("Temperature", "Wheel speed").
    public var name: String
    public var value: QuantityValue
    public var unit: QuantityUnit?
    public var deviceClass: HomeAssistantDeviceClass?
    public var kind: QuantityKind

    public init(key: String, name: String, value: QuantityValue, unit: QuantityUnit? = nil,
                deviceClass: HomeAssistantDeviceClass? = nil, kind: QuantityKind = .measurement) {
        self.key = key
        self.name = name
        self.value = value
        self.unit = unit
        self.deviceClass = deviceClass
        self.kind = kind
    }

    /// A number `significand × 10^exponent`.
    public static func number(_ key: String, _ name: String, _ significand: Int64, exponent: Int = 0,
                              unit: QuantityUnit?, deviceClass: HomeAssistantDeviceClass? = nil,
                              kind: QuantityKind = .measurement) -> SensorQuantity {
        SensorQuantity(key: key, name: name, value: .number(DecimalNumber(significand, exponent: exponent)),
                       unit: unit, deviceClass: deviceClass, kind: kind)
    }

    /// The value as short text with its unit ("21.38 °C", "open", "unavailable (NaN)").
    public var text: String {
        switch value {
        case .number(let n): return unit.map { n.description + " " + $0.rawValue } ?? n.description
        case .boolean(let b): return b ? "on" : "off"
        case .text(let t): return t
        case .unavailable(let why): return "unavailable (" + why + ")"
        }
    }
}
