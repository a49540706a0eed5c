/// HCI_LE_Set_Extended_Scan_Enable (Core Spec v5.4 Vol 4, Part E, §7.8.65): starts or stops
/// extended scanning, optionally for a Duration (10 ms units) repeated every Period (1.28 s
/// units); 0 means scan until disabled.
public struct LESetExtendedScanEnable: HCICommand, Hashable {
    public typealias ReturnParameters = StatusReturnParameters
    public static let opcode = HCIOpcode.leSetExtendedScanEnable

    /// Filter_Duplicates of the extended command, which adds "reset every period".
    public struct FilterDuplicates: RawRepresentable, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let disabled = FilterDuplicates(rawValue: 0x00)
        public static let enabled = FilterDuplicates(rawValue: 0x01)
        public static let resetEachPeriod = FilterDuplicates(rawValue: 0x02)

        public var name: String {
            switch rawValue {
            case 0x00: return "Disabled"
            case 0x01: return "Enabled"
            case 0x02: return "Enabled, reset for each scan period"
            default: return "Reserved"
            }
        }
    }

    public var enable: Bool
    public var filterDuplicates: FilterDuplicates
    public var duration: UInt16
    public var period: UInt16

    public init(enable: Bool, filterDuplicates: FilterDuplicates = .disabled, duration: UInt16 = 0, period: UInt16 = 0) {
        self.enable = enable
        self.filterDuplicates = filterDuplicates
        self.duration = duration
        self.period = period
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        enable = try HCICommandFormat.readBool(&r, "Enable")
        filterDuplicates = FilterDuplicates(rawValue: try r.u8("Filter_Duplicates"))
        duration = try r.u16("Duration")
        period = try r.u16("Period")
    }

    public func encode(into w: inout ByteWriter) {
        w.u8(enable ? 1 : 0)
        w.u8(filterDuplicates.rawValue)
        w.u16(duration)
        w.u16(period)
    }

    public var summary: String {
        (enable ? "enable" : "disable") + (filterDuplicates != .disabled ? ", filter duplicates" : "")
    }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Extended scan", HCICommandFormat.enabled(enable))
        fields.add("Filter duplicates", HCICommandFormat.named(filterDuplicates.name, filterDuplicates.rawValue))
        fields.add("Duration", duration == 0 ? "0x0000 (until disabled)"
                   : HCICommandFormat.duration(duration, unitMicros: HCICommandFormat.unit10ms))
        fields.add("Period", period == 0 ? "0x0000 (continuous)"
                   : HCICommandFormat.duration(period, unitMicros: HCICommandFormat.unit1_28s))
    }
}
