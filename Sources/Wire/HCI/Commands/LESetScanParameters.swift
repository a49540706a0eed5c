/// HCI_LE_Set_Scan_Parameters (Core Spec v5.4 Vol 4, Part E, §7.8.10): legacy scanning on the
/// LE 1M PHY. Interval and window count 0.625 ms units.
public struct LESetScanParameters: HCICommand, Hashable {
    public typealias ReturnParameters = StatusReturnParameters
    public static let opcode = HCIOpcode.leSetScanParameters

    public var scanType: LEScanType
    public var scanInterval: UInt16
    public var scanWindow: UInt16
    public var ownAddressType: LEOwnAddressType
    public var scanningFilterPolicy: LEScanningFilterPolicy

    public init(scanType: LEScanType, scanInterval: UInt16, scanWindow: UInt16,
                ownAddressType: LEOwnAddressType = .publicDevice,
                scanningFilterPolicy: LEScanningFilterPolicy = .basicUnfiltered) {
        self.scanType = scanType
        self.scanInterval = scanInterval
        self.scanWindow = scanWindow
        self.ownAddressType = ownAddressType
        self.scanningFilterPolicy = scanningFilterPolicy
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        scanType = LEScanType(rawValue: try r.u8("LE_Scan_Type"))
        scanInterval = try r.u16("LE_Scan_Interval")
        scanWindow = try r.u16("LE_Scan_Window")
        ownAddressType = LEOwnAddressType(rawValue: try r.u8("Own_Address_Type"))
        scanningFilterPolicy = LEScanningFilterPolicy(rawValue: try r.u8("Scanning_Filter_Policy"))
    }

    public func encode(into w: inout ByteWriter) {
        w.u8(scanType.rawValue)
        w.u16(scanInterval)
        w.u16(scanWindow)
        w.u8(ownAddressType.rawValue)
        w.u8(scanningFilterPolicy.rawValue)
    }

    public var summary: String {
        scanType.name.lowercased() + " interval " + HCICommandFormat.milliseconds(Int(scanInterval) * HCICommandFormat.unit0_625ms)
            + " window " + HCICommandFormat.milliseconds(Int(scanWindow) * HCICommandFormat.unit0_625ms)
    }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Type", scanType.description)
        fields.add("Interval", HCICommandFormat.duration(scanInterval, unitMicros: HCICommandFormat.unit0_625ms))
        fields.add("Window", HCICommandFormat.duration(scanWindow, unitMicros: HCICommandFormat.unit0_625ms))
        fields.add("Own address type", ownAddressType.description)
        fields.add("Filter policy", scanningFilterPolicy.description)
    }
}
