/// HCI_LE_Set_Scan_Enable (Core Spec v5.4 Vol 4, Part E, §7.8.11): starts or stops legacy
/// scanning. With duplicate filtering the controller reports each advertiser once per scan.
public struct LESetScanEnable: HCICommand, Hashable {
    public typealias ReturnParameters = StatusReturnParameters
    public static let opcode = HCIOpcode.leSetScanEnable

    public var scanEnable: Bool
    public var filterDuplicates: Bool

    public init(scanEnable: Bool, filterDuplicates: Bool = false) {
        self.scanEnable = scanEnable
        self.filterDuplicates = filterDuplicates
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        scanEnable = try HCICommandFormat.readBool(&r, "LE_Scan_Enable")
        filterDuplicates = try HCICommandFormat.readBool(&r, "Filter_Duplicates")
    }

    public func encode(into w: inout ByteWriter) {
        w.u8(scanEnable ? 1 : 0)
        w.u8(filterDuplicates ? 1 : 0)
    }

    public var summary: String {
        (scanEnable ? "enable" : "disable") + (filterDuplicates ? ", filter duplicates" : "")
    }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Scanning", HCICommandFormat.enabled(scanEnable))
        fields.add("Filter duplicates", HCICommandFormat.enabled(filterDuplicates))
    }
}
