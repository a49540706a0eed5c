/// External appearance of a device: a 10-bit category and a 6-bit subcategory
/// (Core Specification Supplement Part A §1.12; values in Assigned Numbers §2.6).
///
/// The same value is the Appearance characteristic (0x2A01), so it is not advertising-only.
public struct Appearance: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public init(category: UInt16, subcategory: UInt8) {
        rawValue = (category & 0x03FF) << 6 | UInt16(subcategory & 0x3F)
    }

    public var category: UInt16 { rawValue >> 6 }
    public var subcategory: UInt8 { UInt8(truncatingIfNeeded: rawValue & 0x3F) }

    public static let unknown = Appearance(rawValue: 0x0000)
    public static let genericPhone = Appearance(rawValue: 0x0040)
    public static let genericComputer = Appearance(rawValue: 0x0080)
    public static let genericWatch = Appearance(rawValue: 0x00C0)
    public static let sportsWatch = Appearance(rawValue: 0x00C1)
    public static let smartwatch = Appearance(rawValue: 0x00C2)
    public static let genericThermometer = Appearance(rawValue: 0x0300)
    public static let genericHeartRateSensor = Appearance(rawValue: 0x0340)
    public static let heartRateBelt = Appearance(rawValue: 0x0341)
    public static let genericRunningWalkingSensor = Appearance(rawValue: 0x0440)
    public static let inShoeRunningWalkingSensor = Appearance(rawValue: 0x0441)
    public static let onShoeRunningWalkingSensor = Appearance(rawValue: 0x0442)
    public static let onHipRunningWalkingSensor = Appearance(rawValue: 0x0443)
    public static let genericCycling = Appearance(rawValue: 0x0480)
    public static let cyclingSpeedAndCadenceSensor = Appearance(rawValue: 0x0485)
    public static let genericSensor = Appearance(rawValue: 0x0540)
    public static let temperatureSensor = Appearance(rawValue: 0x0543)
    public static let humiditySensor = Appearance(rawValue: 0x0544)
    public static let multiSensor = Appearance(rawValue: 0x0552)

    /// Category name from Assigned Numbers §2.6.2, nil if not known here.
    public var categoryName: String? {
        switch category {
        case 0x000: return "Unknown"
        case 0x001: return "Phone"
        case 0x002: return "Computer"
        case 0x003: return "Watch"
        case 0x004: return "Clock"
        case 0x005: return "Display"
        case 0x006: return "Remote Control"
        case 0x007: return "Eye-glasses"
        case 0x008: return "Tag"
        case 0x009: return "Keyring"
        case 0x00A: return "Media Player"
        case 0x00B: return "Barcode Scanner"
        case 0x00C: return "Thermometer"
        case 0x00D: return "Heart Rate Sensor"
        case 0x00E: return "Blood Pressure"
        case 0x00F: return "Human Interface Device"
        case 0x010: return "Glucose Meter"
        case 0x011: return "Running Walking Sensor"
        case 0x012: return "Cycling"
        case 0x013: return "Control Device"
        case 0x014: return "Network Device"
        case 0x015: return "Sensor"
        case 0x016: return "Light Fixtures"
        case 0x017: return "Fan"
        case 0x018: return "HVAC"
        case 0x019: return "Air Conditioning"
        case 0x01A: return "Humidifier"
        case 0x01B: return "Heating"
        case 0x01C: return "Access Control"
        case 0x01D: return "Motorized Device"
        case 0x01E: return "Power Device"
        case 0x01F: return "Light Source"
        case 0x020: return "Window Covering"
        case 0x021: return "Audio Sink"
        case 0x022: return "Audio Source"
        case 0x023: return "Motorized Vehicle"
        case 0x024: return "Domestic Appliance"
        case 0x025: return "Wearable Audio Device"
        case 0x026: return "Aircraft"
        case 0x027: return "AV Equipment"
        case 0x028: return "Display Equipment"
        case 0x029: return "Hearing aid"
        case 0x02A: return "Gaming"
        case 0x02B: return "Signage"
        case 0x031: return "Pulse Oximeter"
        case 0x032: return "Weight Scale"
        case 0x033: return "Personal Mobility Device"
        case 0x034: return "Continuous Glucose Monitor"
        case 0x035: return "Insulin Pump"
        case 0x036: return "Medication Delivery"
        case 0x037: return "Spirometer"
        case 0x051: return "Outdoor Sports Activity"
        default: return nil
        }
    }

    /// Subcategory name for the categories a user of this stack meets; "Generic …" for
    /// subcategory 0 of any known category.
    public var subcategoryName: String? {
        if subcategory == 0 { return categoryName.map { "Generic " + $0 } }
        switch (category, subcategory) {
        case (0x002, 0x01): return "Desktop Workstation"
        case (0x002, 0x02): return "Server Class Computer"
        case (0x002, 0x03): return "Laptop"
        case (0x002, 0x04): return "Handheld PC/PDA (clamshell)"
        case (0x002, 0x05): return "Palm-size PC/PDA"
        case (0x002, 0x06): return "Wearable computer (watch size)"
        case (0x002, 0x07): return "Tablet"
        case (0x002, 0x08): return "Docking Station"
        case (0x002, 0x09): return "All in One"
        case (0x002, 0x0A): return "Blade Server"
        case (0x002, 0x0B): return "Convertible"
        case (0x002, 0x0C): return "Detachable"
        case (0x002, 0x0D): return "IoT Gateway"
        case (0x002, 0x0E): return "Mini PC"
        case (0x002, 0x0F): return "Stick PC"
        case (0x003, 0x01): return "Sports Watch"
        case (0x003, 0x02): return "Smartwatch"
        case (0x00C, 0x01): return "Ear Thermometer"
        case (0x00D, 0x01): return "Heart Rate Belt"
        case (0x00E, 0x01): return "Arm Blood Pressure"
        case (0x00E, 0x02): return "Wrist Blood Pressure"
        case (0x00F, 0x01): return "Keyboard"
        case (0x00F, 0x02): return "Mouse"
        case (0x00F, 0x03): return "Joystick"
        case (0x00F, 0x04): return "Gamepad"
        case (0x00F, 0x05): return "Digitizer Tablet"
        case (0x00F, 0x06): return "Card Reader"
        case (0x00F, 0x07): return "Digital Pen"
        case (0x00F, 0x08): return "Barcode Scanner"
        case (0x00F, 0x09): return "Touchpad"
        case (0x00F, 0x0A): return "Presentation Remote"
        case (0x011, 0x01): return "In-Shoe Running Walking Sensor"
        case (0x011, 0x02): return "On-Shoe Running Walking Sensor"
        case (0x011, 0x03): return "On-Hip Running Walking Sensor"
        case (0x012, 0x01): return "Cycling Computer"
        case (0x012, 0x02): return "Speed Sensor"
        case (0x012, 0x03): return "Cadence Sensor"
        case (0x012, 0x04): return "Power Sensor"
        case (0x012, 0x05): return "Speed and Cadence Sensor"
        case (0x015, 0x01): return "Motion Sensor"
        case (0x015, 0x02): return "Air quality Sensor"
        case (0x015, 0x03): return "Temperature Sensor"
        case (0x015, 0x04): return "Humidity Sensor"
        case (0x015, 0x05): return "Leak Sensor"
        case (0x015, 0x06): return "Smoke Sensor"
        case (0x015, 0x07): return "Occupancy Sensor"
        case (0x015, 0x08): return "Contact Sensor"
        case (0x015, 0x09): return "Carbon Monoxide Sensor"
        case (0x015, 0x0A): return "Carbon Dioxide Sensor"
        case (0x015, 0x0B): return "Ambient Light Sensor"
        case (0x015, 0x0C): return "Energy Sensor"
        case (0x015, 0x0D): return "Color Light Sensor"
        case (0x015, 0x0E): return "Rain Sensor"
        case (0x015, 0x0F): return "Fire Sensor"
        case (0x015, 0x10): return "Wind Sensor"
        case (0x015, 0x11): return "Proximity Sensor"
        case (0x015, 0x12): return "Multi-Sensor"
        case (0x025, 0x01): return "Earbud"
        case (0x025, 0x02): return "Headset"
        case (0x025, 0x03): return "Headphones"
        case (0x025, 0x04): return "Neck Band"
        case (0x031, 0x01): return "Fingertip Pulse Oximeter"
        case (0x031, 0x02): return "Wrist Worn Pulse Oximeter"
        case (0x051, 0x01): return "Location Display"
        case (0x051, 0x02): return "Location and Navigation Display"
        case (0x051, 0x03): return "Location Pod"
        case (0x051, 0x04): return "Location and Navigation Pod"
        default: return nil
        }
    }

    /// `Heart Rate Sensor: Heart Rate Belt`, `Generic Watch`, or the category with the
    /// subcategory number when only the category is known.
    public var name: String {
        guard let cat = categoryName else { return "Unknown (\(Hex.number(rawValue, width: 4)))" }
        if subcategory == 0 { return "Generic " + cat }
        if let sub = subcategoryName { return cat + ": " + sub }
        return cat + ": subcategory " + Hex.number(subcategory, width: 2)
    }

    public var description: String { name + " (" + Hex.number(rawValue, width: 4) + ")" }
}
