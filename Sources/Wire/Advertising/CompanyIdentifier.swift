/// A Bluetooth SIG company identifier (Assigned Numbers §7, "Company Identifiers"), as carried
/// in Manufacturer Specific Data and in the Manufacturer_Name of HCI Read Local Version.
public struct CompanyIdentifier: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    public static func < (l: CompanyIdentifier, r: CompanyIdentifier) -> Bool { l.rawValue < r.rawValue }

    public static let microsoft = CompanyIdentifier(0x0006)
    public static let apple = CompanyIdentifier(0x004C)
    public static let nordicSemiconductor = CompanyIdentifier(0x0059)
    public static let samsung = CompanyIdentifier(0x0075)
    public static let garmin = CompanyIdentifier(0x0087)
    public static let google = CompanyIdentifier(0x00E0)
    public static let huami = CompanyIdentifier(0x0157)
    public static let xiaomi = CompanyIdentifier(0x038F)
    /// Reserved by the SIG for tests and internal use: never assigned to a company.
    public static let testing = CompanyIdentifier(0xFFFF)

    /// The company's name for the identifiers seen most often around fitness sensors, phones
    /// and development boards; nil for the others (the full list has thousands of entries).
    public var name: String? {
        switch rawValue {
        case 0x0000: return "Ericsson AB"
        case 0x0001: return "Nokia Mobile Phones"
        case 0x0002: return "Intel Corp."
        case 0x0006: return "Microsoft"
        case 0x000D: return "Texas Instruments Inc."
        case 0x000F: return "Broadcom Corporation"
        case 0x001D: return "Qualcomm"
        case 0x0030: return "ST Microelectronics"
        case 0x0046: return "MediaTek, Inc."
        case 0x004C: return "Apple, Inc."
        case 0x0059: return "Nordic Semiconductor ASA"
        case 0x006B: return "Polar Electro OY"
        case 0x0075: return "Samsung Electronics Co. Ltd."
        case 0x0078: return "Nike, Inc."
        case 0x0087: return "Garmin International, Inc."
        case 0x009E: return "Bose Corporation"
        case 0x009F: return "Suunto Oy"
        case 0x00C4: return "LG Electronics"
        case 0x00D2: return "Dialog Semiconductor B.V."
        case 0x00E0: return "Google"
        case 0x012D: return "Sony Corporation"
        case 0x0131: return "Cypress Semiconductor"
        case 0x0157: return "Anhui Huami Information Technology Co., Ltd."
        case 0x0171: return "Amazon.com Services LLC"
        case 0x018E: return "Fitbit, Inc."
        case 0x01DA: return "Logitech International SA"
        case 0x01FC: return "Wahoo Fitness, LLC"
        case 0x027D: return "HUAWEI Technologies Co., Ltd."
        case 0x02E5: return "Espressif Systems (Shanghai) Co., Ltd."
        case 0x02FF: return "Silicon Laboratories"
        case 0x038F: return "Xiaomi Inc."
        case 0x0499: return "Ruuvi Innovations Ltd."
        case 0x05F1: return "The Linux Foundation"   // Zephyr's controller and BlueZ
        case 0x067C: return "Tile, Inc."
        case 0x0822: return "adafruit industries"
        case 0xFFFF: return "internal use (not assigned)"
        default: return nil
        }
    }

    /// `Apple, Inc. (0x004C)` or `Unknown (0x1234)`.
    public var description: String { (name ?? "Unknown") + " (" + Hex.number(rawValue, width: 4) + ")" }
}

extension TextBuffer {
    /// The company's `description`: every manufacturer-data structure shows it twice.
    public mutating func append(_ company: CompanyIdentifier) {
        append(company.name ?? "Unknown")
        appendParenthesizedHexNumber(company.rawValue, width: 4)
    }
}
