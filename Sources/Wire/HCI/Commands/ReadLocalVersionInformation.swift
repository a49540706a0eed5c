/// HCI_Read_Local_Version_Information (Core Spec v5.4 Vol 4, Part E, §7.4.1): which Core
/// version and which vendor the controller is.
public struct ReadLocalVersionInformation: HCICommandWithoutParameters, Hashable {
    public static let opcode = HCIOpcode.readLocalVersionInformation
    public init() {}

    /// When the status is not success and the controller sent only the status, every other field
    /// is 0 and `isStatusOnly` is true.
    public struct ReturnParameters: WireCodable, FieldDescribing, Hashable {
        public var status: HCIStatus
        public var hciVersion: UInt8
        public var hciSubversion: UInt16
        public var lmpVersion: UInt8
        public var companyIdentifier: UInt16
        public var lmpSubversion: UInt16
        public var isStatusOnly: Bool

        static let fieldsLength = 8

        public init(status: HCIStatus = .success, hciVersion: UInt8, hciSubversion: UInt16,
                    lmpVersion: UInt8, companyIdentifier: UInt16, lmpSubversion: UInt16) {
            self.status = status
            self.hciVersion = hciVersion
            self.hciSubversion = hciSubversion
            self.lmpVersion = lmpVersion
            self.companyIdentifier = companyIdentifier
            self.lmpSubversion = lmpSubversion
            isStatusOnly = false
        }

        public init(decoding r: inout ByteReader) throws(WireError) {
            status = HCIStatus(rawValue: try r.u8("Status"))
            hciVersion = 0; hciSubversion = 0; lmpVersion = 0; companyIdentifier = 0; lmpSubversion = 0
            isStatusOnly = !status.isSuccess && r.count < Self.fieldsLength
            if isStatusOnly { return }
            hciVersion = try r.u8("HCI_Version")
            hciSubversion = try r.u16("HCI_Subversion")
            lmpVersion = try r.u8("LMP_Version")
            companyIdentifier = try r.u16("Company_Identifier")
            lmpSubversion = try r.u16("LMP_Subversion")
        }

        public func encode(into w: inout ByteWriter) {
            w.u8(status.rawValue)
            if isStatusOnly { return }
            w.u8(hciVersion)
            w.u16(hciSubversion)
            w.u8(lmpVersion)
            w.u16(companyIdentifier)
            w.u16(lmpSubversion)
        }

        public var summary: String {
            if isStatusOnly { return status.description }
            return "Bluetooth " + (ReadLocalVersionInformation.coreVersionName(hciVersion) ?? "?")
                + " " + (ReadLocalVersionInformation.companyName(companyIdentifier)
                         ?? "company " + HCICommandFormat.hex(companyIdentifier))
        }

        public func describeFields(into fields: inout FieldList) {
            fields.add("Status", status.description)
            if isStatusOnly { return }
            fields.add("HCI version", ReadLocalVersionInformation.versionText(hciVersion))
            fields.add("HCI subversion", HCICommandFormat.hex(hciSubversion))
            fields.add("LMP version", ReadLocalVersionInformation.versionText(lmpVersion))
            fields.add("Company", ReadLocalVersionInformation.companyText(companyIdentifier))
            fields.add("LMP subversion", HCICommandFormat.hex(lmpSubversion))
        }
    }

    /// Core Specification version of an HCI_Version / LMP_Version / Version value
    /// (Assigned Numbers §2.1), e.g. 0x09 → "5.0".
    public static func coreVersionName(_ v: UInt8) -> String? {
        switch v {
        case 0x00: return "1.0b"
        case 0x01: return "1.1"
        case 0x02: return "1.2"
        case 0x03: return "2.0+EDR"
        case 0x04: return "2.1+EDR"
        case 0x05: return "3.0+HS"
        case 0x06: return "4.0"
        case 0x07: return "4.1"
        case 0x08: return "4.2"
        case 0x09: return "5.0"
        case 0x0A: return "5.1"
        case 0x0B: return "5.2"
        case 0x0C: return "5.3"
        case 0x0D: return "5.4"
        case 0x0E: return "6.0"
        default: return nil
        }
    }

    /// Names of the controller vendors one meets in adapters and phones (Assigned Numbers,
    /// Company Identifiers); nil for the others.
    public static func companyName(_ id: UInt16) -> String? {
        switch id {
        case 0x0002: return "Intel Corp."
        case 0x000A: return "Qualcomm Technologies International, Ltd. (QTIL)"
        case 0x000D: return "Texas Instruments Inc."
        case 0x000F: return "Broadcom Corporation"
        case 0x001D: return "Qualcomm"
        case 0x0030: return "ST Microelectronics"
        case 0x0046: return "MediaTek, Inc."
        case 0x004C: return "Apple, Inc."
        case 0x0059: return "Nordic Semiconductor ASA"
        case 0x005D: return "Realtek Semiconductor Corporation"
        case 0x0075: return "Samsung Electronics Co. Ltd."
        case 0x00E0: return "Google"
        case 0xFFFF: return "Reserved for internal use and testing"
        default: return nil
        }
    }

    static func versionText(_ v: UInt8) -> String {
        HCICommandFormat.named("Bluetooth " + (coreVersionName(v) ?? "unknown"), v)
    }

    static func companyText(_ id: UInt16) -> String {
        HCICommandFormat.named(companyName(id) ?? "Unknown", id)
    }
}
