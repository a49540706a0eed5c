/// HCI_LE_Set_Extended_Scan_Parameters (Core Spec v5.4 Vol 4, Part E, §7.8.64): scanning on
/// one or more PHYs. One entry of Scan_Type, Scan_Interval and Scan_Window follows for each bit
/// set in Scanning_PHYs, lowest bit first.
public struct LESetExtendedScanParameters: HCICommand, Hashable {
    public typealias ReturnParameters = StatusReturnParameters
    public static let opcode = HCIOpcode.leSetExtendedScanParameters

    /// Scan parameters for one PHY. Interval and window count 0.625 ms units.
    public struct PHYParameters: Hashable, Sendable {
        /// A one-bit set: the PHY this entry is for.
        public var phy: LEPHYMask
        public var scanType: LEScanType
        public var scanInterval: UInt16
        public var scanWindow: UInt16

        public init(phy: LEPHYMask, scanType: LEScanType, scanInterval: UInt16, scanWindow: UInt16) {
            self.phy = phy
            self.scanType = scanType
            self.scanInterval = scanInterval
            self.scanWindow = scanWindow
        }
    }

    public var ownAddressType: LEOwnAddressType
    public var scanningFilterPolicy: LEScanningFilterPolicy
    /// One entry per PHY, in ascending PHY bit order; `scanningPHYs` is derived from them.
    public var phys: [PHYParameters]

    public init(ownAddressType: LEOwnAddressType = .publicDevice,
                scanningFilterPolicy: LEScanningFilterPolicy = .basicUnfiltered,
                phys: [PHYParameters]) {
        self.ownAddressType = ownAddressType
        self.scanningFilterPolicy = scanningFilterPolicy
        self.phys = phys
    }

    /// Scanning_PHYs: the union of the entries' PHYs.
    public var scanningPHYs: LEPHYMask {
        phys.reduce(into: LEPHYMask()) { $0.formUnion($1.phy) }
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        ownAddressType = LEOwnAddressType(rawValue: try r.u8("Own_Address_Type"))
        scanningFilterPolicy = LEScanningFilterPolicy(rawValue: try r.u8("Scanning_Filter_Policy"))
        let mask = LEPHYMask(rawValue: try r.u8("Scanning_PHYs"))
        var entries: [PHYParameters] = []
        entries.reserveCapacity(mask.count)
        for phy in mask.elements {
            let type = LEScanType(rawValue: try r.u8("Scan_Type"))
            let interval = try r.u16("Scan_Interval")
            let window = try r.u16("Scan_Window")
            entries.append(PHYParameters(phy: phy, scanType: type, scanInterval: interval, scanWindow: window))
        }
        phys = entries
    }

    /// Entries are written in ascending PHY order whatever order they were given in, as the
    /// controller reads them against the bits of Scanning_PHYs.
    public func encode(into w: inout ByteWriter) {
        w.u8(ownAddressType.rawValue)
        w.u8(scanningFilterPolicy.rawValue)
        w.u8(scanningPHYs.rawValue)
        for e in phys.sorted(by: { $0.phy.rawValue < $1.phy.rawValue }) {
            w.u8(e.scanType.rawValue)
            w.u16(e.scanInterval)
            w.u16(e.scanWindow)
        }
    }

    public var summary: String {
        scanningPHYs.names + " " + (phys.first.map { $0.scanType.name.lowercased() } ?? "")
    }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Own address type", ownAddressType.description)
        fields.add("Filter policy", scanningFilterPolicy.description)
        fields.add("PHYs", scanningPHYs.description)
        for e in phys {
            fields.nested("Entry", e.phy.names) { f in
                f.add("Type", e.scanType.description)
                f.add("Interval", HCICommandFormat.duration(e.scanInterval, unitMicros: HCICommandFormat.unit0_625ms))
                f.add("Window", HCICommandFormat.duration(e.scanWindow, unitMicros: HCICommandFormat.unit0_625ms))
            }
        }
    }
}
