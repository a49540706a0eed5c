/// Home Assistant's sensor and binary-sensor device classes (the `device_class` of an MQTT
/// discovery config): they pick the icon, the unit conversions and how history is drawn. Only
/// the classes that some decoded quantity uses are named here; a quantity without a fitting
/// class (heart rate, cadence) has none, as Home Assistant wants.
public struct HomeAssistantDeviceClass: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ name: String) { rawValue = name }
    public var description: String { rawValue }

    // Sensor device classes.
    public static let temperature = HomeAssistantDeviceClass("temperature")
    public static let humidity = HomeAssistantDeviceClass("humidity")
    public static let pressure = HomeAssistantDeviceClass("pressure")
    public static let atmosphericPressure = HomeAssistantDeviceClass("atmospheric_pressure")
    public static let battery = HomeAssistantDeviceClass("battery")
    public static let speed = HomeAssistantDeviceClass("speed")
    public static let distance = HomeAssistantDeviceClass("distance")
    public static let duration = HomeAssistantDeviceClass("duration")
    public static let energy = HomeAssistantDeviceClass("energy")
    public static let power = HomeAssistantDeviceClass("power")
    public static let voltage = HomeAssistantDeviceClass("voltage")
    public static let current = HomeAssistantDeviceClass("current")
    public static let illuminance = HomeAssistantDeviceClass("illuminance")
    public static let weight = HomeAssistantDeviceClass("weight")
    public static let carbonDioxide = HomeAssistantDeviceClass("carbon_dioxide")
    public static let volatileOrganicCompounds = HomeAssistantDeviceClass("volatile_organic_compounds")
    public static let pm25 = HomeAssistantDeviceClass("pm25")
    public static let pm10 = HomeAssistantDeviceClass("pm10")
    public static let moisture = HomeAssistantDeviceClass("moisture")
    public static let gas = HomeAssistantDeviceClass("gas")
    public static let volume = HomeAssistantDeviceClass("volume")
    public static let volumeStorage = HomeAssistantDeviceClass("volume_storage")
    public static let volumeFlowRate = HomeAssistantDeviceClass("volume_flow_rate")
    public static let water = HomeAssistantDeviceClass("water")
    public static let precipitation = HomeAssistantDeviceClass("precipitation")
    public static let windDirection = HomeAssistantDeviceClass("wind_direction")
    public static let conductivity = HomeAssistantDeviceClass("conductivity")
    public static let signalStrength = HomeAssistantDeviceClass("signal_strength")
    public static let timestamp = HomeAssistantDeviceClass("timestamp")

    // Binary-sensor device classes (BTHome's on/off objects).
    public static let batteryCharging = HomeAssistantDeviceClass("battery_charging")
    public static let carbonMonoxide = HomeAssistantDeviceClass("carbon_monoxide")
    public static let cold = HomeAssistantDeviceClass("cold")
    public static let connectivity = HomeAssistantDeviceClass("connectivity")
    public static let door = HomeAssistantDeviceClass("door")
    public static let garageDoor = HomeAssistantDeviceClass("garage_door")
    public static let heat = HomeAssistantDeviceClass("heat")
    public static let light = HomeAssistantDeviceClass("light")
    public static let lock = HomeAssistantDeviceClass("lock")
    public static let motion = HomeAssistantDeviceClass("motion")
    public static let moving = HomeAssistantDeviceClass("moving")
    public static let occupancy = HomeAssistantDeviceClass("occupancy")
    public static let opening = HomeAssistantDeviceClass("opening")
    public static let plug = HomeAssistantDeviceClass("plug")
    public static let presence = HomeAssistantDeviceClass("presence")
    public static let problem = HomeAssistantDeviceClass("problem")
    public static let running = HomeAssistantDeviceClass("running")
    public static let safety = HomeAssistantDeviceClass("safety")
    public static let smoke = HomeAssistantDeviceClass("smoke")
    public static let sound = HomeAssistantDeviceClass("sound")
    public static let tamper = HomeAssistantDeviceClass("tamper")
    public static let vibration = HomeAssistantDeviceClass("vibration")
    public static let window = HomeAssistantDeviceClass("window")
}
