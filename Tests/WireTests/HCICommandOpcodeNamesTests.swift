import Testing
@testable import Wire

@Suite struct HCICommandOpcodeNamesTests {
    // Core Spec v5.4 Vol 4, Part E, §7: OGF << 10 | OCF.
    @Test(arguments: [
        (UInt16(0x0C03), "Reset"),
        (0x0C01, "Set Event Mask"),
        (0x0406, "Disconnect"),
        (0x041D, "Read Remote Version Information"),
        (0x1001, "Read Local Version Information"),
        (0x1009, "Read BD_ADDR"),
        (0x1405, "Read RSSI"),
        (0x0C6D, "Write LE Host Support"),
        (0x0C52, "Write Extended Inquiry Response"),
        (0x0C1A, "Write Scan Enable"),
        (0x080F, "Write Default Link Policy Settings"),
        (0x2001, "LE Set Event Mask"),
        (0x2002, "LE Read Buffer Size [v1]"),
        (0x200B, "LE Set Scan Parameters"),
        (0x200D, "LE Create Connection"),
        (0x2013, "LE Connection Update"),
        (0x2016, "LE Read Remote Features"),
        (0x2022, "LE Set Data Length"),
        (0x2032, "LE Set PHY"),
        (0x2041, "LE Set Extended Scan Parameters"),
        (0x2043, "LE Extended Create Connection [v1]"),
        (0x2060, "LE Read Buffer Size [v2]"),
        (0x0000, "NOP"),
        (0xFC01, "Vendor 0xFC01"),
        (0xFD57, "Vendor 0xFD57"),
        (0x2099, "Unknown 0x2099"),
        (0x0BFF, "Unknown 0x0BFF"),
    ])
    func names(_ raw: UInt16, _ name: String) {
        #expect(HCIOpcode(rawValue: raw).name == name)
    }

    @Test func staticConstantsMatchTheirNames() {
        #expect(HCIOpcode.reset.rawValue == 0x0C03)
        #expect(HCIOpcode.leSetScanParameters.rawValue == 0x200B)
        #expect(HCIOpcode.leCreateConnection.rawValue == 0x200D)
        #expect(HCIOpcode.leCreateConnectionCancel.rawValue == 0x200E)
        #expect(HCIOpcode.leReadBufferSizeV2.rawValue == 0x2060)
        #expect(HCIOpcode.readBDADDR.rawValue == 0x1009)
        #expect(HCIOpcode.leSetExtendedScanEnable.name == "LE Set Extended Scan Enable")
        #expect(HCIOpcode.leReadLocalP256PublicKey.name == "LE Read Local P-256 Public Key")
        #expect(HCIOpcode(rawValue: 0xFC01).isVendorSpecific)
        #expect(!HCIOpcode.reset.isVendorSpecific)
    }

    /// Every LE controller command of v5.4 (OCF 0x0001…0x0086 but 0x0004) has a name.
    @Test func allLEControllerCommandsAreNamed() {
        for ocf in UInt16(0x0001)...0x0086 where ocf != 0x0004 {
            let op = HCIOpcode(ogf: 0x08, ocf: ocf)
            #expect(op.specName?.hasPrefix("LE ") == true, "OCF \(ocf) unnamed")
        }
        #expect(HCIOpcode(ogf: 0x08, ocf: 0x0004).specName == nil)
    }

    @Test func descriptionShowsOGFAndOCF() {
        #expect(HCIOpcode.leSetScanParameters.description == "LE Set Scan Parameters (0x08|0x000B)")
        #expect(HCIOpcode.reset.description == "Reset (0x03|0x0003)")
    }
}
